// A file's size as a person reads it beside its name: bytes, KB or MB (1024s, as the hub states its
// chatFileLimitMb), one decimal below ten.
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB']
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`
}
