// Which rows of a long list, scrolled with the window, are near the viewport: only those are rendered,
// between two spacers that stand for the others, so a 10,000-entry transcript costs the page what 30
// entries do. Rows differ in height: each is measured as it renders (ResizeObserver) and keeps its
// height by key; a row never rendered counts as the average of those that were.
import { type RefObject, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { flushSync } from 'react-dom'

/** Rendered beyond each edge of the viewport, so a scroll shows rows that are already laid out. */
const OVERSCAN_PX = 1_200
/** A row's height before any was measured. */
const FIRST_GUESS_PX = 80

export interface RowWindow {
  /** The rows to render: [start, end). */
  start: number
  end: number
  /** The spacers' heights: the rows before `start`, and after `end`. */
  before: number
  after: number
  /** The whole list's height, measured and guessed. */
  total: number
  /** The ref of each rendered row (which carries `data-key`): measures it while it is rendered. */
  measure: (el: HTMLElement | null) => (() => void) | undefined
  /** Works out the rows again at once (after a scroll the caller made itself). */
  sync: () => void
}

/** The first index i (from 0) with tops[i] > y, or tops.length. */
function firstAbove(tops: Float64Array, y: number): number {
  let lo = 0
  let hi = tops.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((tops[mid] as number) > y) hi = mid
    else lo = mid + 1
  }
  return lo
}

/** `list`: the element the rows (and the spacers) are in; its top is the first row's top. */
export function useRowWindow(keys: readonly string[], list: RefObject<HTMLElement | null>): RowWindow {
  const heights = useRef(new Map<string, number>())
  const [measured, setMeasured] = useState(0)
  const [range, setRange] = useState<[number, number]>([0, 0])

  // tops[i]: where row i starts; tops[n]: the whole height.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `measured` says the heights changed
  const tops = useMemo(() => {
    let sum = 0
    for (const h of heights.current.values()) sum += h
    const guess = heights.current.size > 0 ? sum / heights.current.size : FIRST_GUESS_PX
    const t = new Float64Array(keys.length + 1)
    keys.forEach((key, i) => {
      t[i + 1] = (t[i] as number) + (heights.current.get(key) ?? guess)
    })
    return t
  }, [keys, measured])
  const topsRef = useRef(tops)
  topsRef.current = tops

  /** The range for where the list is now; `now` renders it before the browser paints. */
  const update = useCallback(
    (now: boolean) => {
      const el = list.current
      if (!el) return
      const t = topsRef.current
      const n = t.length - 1
      const top = -el.getBoundingClientRect().top
      const start = Math.min(n, Math.max(0, firstAbove(t, top - OVERSCAN_PX) - 1))
      const end = Math.max(start, Math.min(n, firstAbove(t, top + window.innerHeight + OVERSCAN_PX)))
      const set = () => setRange((r) => (r[0] === start && r[1] === end ? r : [start, end]))
      if (now) flushSync(set)
      else set()
    },
    [list],
  )

  // A scroll renders its rows in the same frame: no blank spacer shows, however far it jumped.
  useEffect(() => {
    const onScroll = () => update(true)
    window.addEventListener('scroll', onScroll, { passive: true })
    window.addEventListener('resize', onScroll)
    return () => {
      window.removeEventListener('scroll', onScroll)
      window.removeEventListener('resize', onScroll)
    }
  }, [update])

  // biome-ignore lint/correctness/useExhaustiveDependencies: the rows' places changed (`tops`)
  useLayoutEffect(() => update(false), [tops, update])

  const observer = useMemo(
    () =>
      new ResizeObserver((entries) => {
        let changed = false
        for (const entry of entries) {
          const el = entry.target as HTMLElement
          const key = el.dataset.key
          const height = entry.borderBoxSize[0]?.blockSize ?? el.offsetHeight
          if (!key || height <= 0 || heights.current.get(key) === height) continue
          heights.current.set(key, height)
          changed = true
        }
        // Before the browser paints: the spacers and the rows below move together with the change.
        if (changed) flushSync(() => setMeasured((m) => m + 1))
      }),
    [],
  )
  useEffect(() => () => observer.disconnect(), [observer])

  const measure = useCallback(
    (el: HTMLElement | null) => {
      if (!el) return undefined
      observer.observe(el)
      return () => observer.unobserve(el)
    },
    [observer],
  )
  const sync = useCallback(() => update(false), [update])

  const n = tops.length - 1
  const start = Math.min(range[0], n)
  const end = Math.min(Math.max(range[1], start), n)
  const total = tops[n] as number
  return {
    start,
    end,
    before: tops[start] as number,
    after: total - (tops[end] as number),
    total,
    measure,
    sync,
  }
}
