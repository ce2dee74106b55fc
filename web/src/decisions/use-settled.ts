// Buttons that answer a prompt wait until the page has been in view for a moment: a click meant for
// another page (one that just sent the browser here, or swapped windows under the pointer) lands on
// nothing. A person reading the prompt never notices the wait.
import { useEffect, useState } from 'react'

const SETTLE_MS = 600

export function useSettled(): boolean {
  const [settled, setSettled] = useState(false)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const restart = () => {
      clearTimeout(timer)
      setSettled(false)
      if (document.visibilityState === 'visible') timer = setTimeout(() => setSettled(true), SETTLE_MS)
    }
    restart()
    document.addEventListener('visibilitychange', restart)
    return () => {
      clearTimeout(timer)
      document.removeEventListener('visibilitychange', restart)
    }
  }, [])
  return settled
}
