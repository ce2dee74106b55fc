// What a browser without the session cookie sees.

export function SignedOut() {
  return (
    <main className="signed-out">
      <h1>Not signed in</h1>
      <p>This browser is not signed in to Switchboard. In a terminal on the machine running the hub, run:</p>
      <pre className="code">switchboard open</pre>
      <p>It opens the dashboard here, signed in.</p>
      <button type="button" onClick={() => window.location.reload()}>
        Try again
      </button>
    </main>
  )
}
