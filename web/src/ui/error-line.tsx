// A problem to show the person, read out by screen readers as it appears; nothing when there is none.
export function ErrorLine({ error }: { error: string | null | undefined }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null
}
