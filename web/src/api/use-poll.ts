// Data from the hub, loaded when the page shows, every few seconds while the tab is visible, when the
// tab comes back into view, and on refresh(). A failed load keeps the last data and says why.
import { useCallback, useEffect, useRef, useState } from 'react'
import { errorText } from './client.ts'

export interface Polled<T> {
  data: T | null
  error: string | null
  refresh: () => Promise<void>
}

export function usePoll<T>(load: () => Promise<T>, everyMs: number): Polled<T> {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<string | null>(null)
  const loader = useRef(load)
  loader.current = load

  const refresh = useCallback(async () => {
    try {
      setData(await loader.current())
      setError(null)
    } catch (err) {
      setError(errorText(err))
    }
  }, [])

  useEffect(() => {
    void refresh()
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh()
    }
    document.addEventListener('visibilitychange', onVisible)
    const timer = setInterval(onVisible, everyMs)
    return () => {
      document.removeEventListener('visibilitychange', onVisible)
      clearInterval(timer)
    }
  }, [refresh, everyMs])

  return { data, error, refresh }
}
