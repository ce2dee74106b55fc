// Resident memory of the soak's processes, read from /proc/<pid>/status (VmRSS) every few seconds:
// the hubs', and the channels' sum and largest. Growth compares the median of the readings over the
// last half minute of the warm-up with the median over the last half minute of the run, so that one
// reading taken just before a garbage collection does not decide it.
import { readFileSync } from 'node:fs'

export interface MemorySample {
  at: number
  /** Each hub's RSS, bytes. */
  hubs: number[]
  channelsSum: number
  channelsMax: number
}

/** VmRSS of a process in bytes; 0 when it is gone. */
export function rss(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return Number(kb ?? 0) * 1024
  } catch {
    return 0
  }
}

export function sampleMemory(at: number, hubPids: number[], channelPids: number[]): MemorySample {
  const channels = channelPids.map(rss)
  return {
    at,
    hubs: hubPids.map(rss),
    channelsSum: channels.reduce((a, b) => a + b, 0),
    channelsMax: Math.max(0, ...channels),
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : Number.NaN
}

/** Readings this long before a moment stand for it. */
export const AROUND_MS = 30_000

/** The median of `read` over the samples in the half minute up to `at`. */
export function around(samples: MemorySample[], at: number, read: (s: MemorySample) => number): number {
  return median(samples.filter((s) => s.at > at - AROUND_MS && s.at <= at).map(read))
}
