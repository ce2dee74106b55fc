// The Sessions page's filter: a row matches when any of its fields (folder, summary, id, name)
// contains every word typed, ignoring case.

export function matchesFilter(filter: string, fields: (string | null | undefined)[]): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return true
  const text = fields
    .filter((f): f is string => typeof f === 'string')
    .join('\n')
    .toLowerCase()
  return words.every((w) => text.includes(w))
}
