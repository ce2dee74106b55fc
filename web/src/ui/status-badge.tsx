// A session's status as a small coloured label.

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge status-${status.replace(/[^a-z_]/gi, '')}`}>{status.replace(/_/g, ' ')}</span>
  )
}
