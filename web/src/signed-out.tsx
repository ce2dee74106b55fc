// What a browser sees without a working key, or signed in but no longer an operator.
import { useState } from 'react'
import { errorText, signOut } from './api/client.ts'

export function SignedOut({ reason }: { reason?: string }) {
  return (
    <main className="signed-out">
      <h1>Not signed in</h1>
      {reason && reason !== 'not signed in' ? <p className="error">{reason}</p> : null}
      <p>This browser is not signed in to Switchboard. In a terminal on the machine running the hub, run:</p>
      <pre className="code">switchboard open</pre>
      <p>It opens the dashboard here, signed in.</p>
      <button type="button" onClick={() => window.location.reload()}>
        Try again
      </button>
    </main>
  )
}

export function NotOperator({ name }: { name: string }) {
  const [problem, setProblem] = useState<string | null>(null)
  return (
    <main className="signed-out">
      <h1>Not an operator</h1>
      <p>
        This browser (<span className="mono">{name}</span>) is signed in but may no longer answer prompts or
        drive sessions. An operator can make it one again:
      </p>
      <pre className="code">switchboard access allow {name} --operator</pre>
      {problem ? <p className="error">{problem}</p> : null}
      <div className="row">
        <button type="button" onClick={() => window.location.reload()}>
          Try again
        </button>
        <button type="button" onClick={() => signOut().catch((err) => setProblem(errorText(err)))}>
          Sign out
        </button>
      </div>
    </main>
  )
}
