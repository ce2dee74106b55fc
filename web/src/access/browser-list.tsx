// The browsers signed in to the dashboard (GET /api/browsers), each with when it signed in and when its
// sign-in ends, and a button that signs it out (DELETE /api/browsers/:name): its key stops working and
// its open streams close. This browser's own button signs it out here.
import { useCallback, useState } from 'react'
import type { BrowserRow } from '../../../src/core/api/rows.ts'
import { call, errorText, signOut } from '../api/client.ts'
import { usePoll } from '../api/use-poll.ts'
import { ago, fullTime } from '../lib/time.ts'
import { ErrorLine } from '../ui/error-line.tsx'

const POLL_MS = 5_000

function BrowserItem({ browser, revoke }: { browser: BrowserRow; revoke: () => void }) {
  return (
    <li>
      <article className="card sender" aria-label={`Browser ${browser.name}`}>
        <header className="sender-head">
          <h3 className="mono">{browser.name}</h3>
          {browser.current ? <span className="badge">this browser</span> : null}
          {browser.status === 'blocked' ? <span className="badge status-error">blocked</span> : null}
          {browser.operator ? <span className="badge">operator</span> : null}
        </header>
        <dl className="facts">
          {browser.displayName ? (
            <div>
              <dt>Browser</dt>
              <dd>{browser.displayName}</dd>
            </div>
          ) : null}
          <div>
            <dt>Signed in</dt>
            <dd title={fullTime(browser.createdAt)}>{ago(browser.createdAt)}</dd>
          </div>
          {browser.expiresAt ? (
            <div>
              <dt>Until</dt>
              <dd>{fullTime(browser.expiresAt)}</dd>
            </div>
          ) : null}
        </dl>
        <div className="row sender-actions">
          <button type="button" className="danger" onClick={revoke}>
            Sign out
          </button>
        </div>
      </article>
    </li>
  )
}

export function BrowserList() {
  const browsers = usePoll(
    useCallback(() => call('browsers'), []),
    POLL_MS,
  )
  const [problem, setProblem] = useState<string | null>(null)

  const revoke = async (browser: BrowserRow) => {
    setProblem(null)
    try {
      if (browser.current) return await signOut()
      await call('revokeBrowser', { params: { name: browser.name } })
    } catch (err) {
      setProblem(`Could not sign ${browser.name} out: ${errorText(err)}`)
    }
    await browsers.refresh()
  }

  const list = browsers.data?.browsers ?? []
  return (
    <section aria-labelledby="browsers-heading">
      <h2 id="browsers-heading">Browsers</h2>
      <ErrorLine error={browsers.error} />
      <ErrorLine error={problem} />
      {list.length === 0 ? (
        <p className="muted">No browser is signed in.</p>
      ) : (
        <ul className="plain" aria-label="Browsers">
          {list.map((b) => (
            <BrowserItem key={b.name} browser={b} revoke={() => void revoke(b)} />
          ))}
        </ul>
      )}
    </section>
  )
}
