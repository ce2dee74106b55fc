// What the machine spent during a stretch of a bench: CPU seconds of every process (from /proc),
// how busy its cores were, and the processes of a Postgres server found by its port. Linux only.
import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux this runs on). */
const HZ = 100

// After the name: state(0) ppid(1) … utime(11) stime(12). Not cutime and cstime: a child that ends
// adds all its life's CPU time to its parent's at once, not what it spent during the reading.
const seconds = (f: string[]) => (Number(f[11]) + Number(f[12])) / HZ

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return null
  }
}

const pids = () =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)

/** The postmaster listening on `port` and every process it started (backends, WAL writer, …). */
export function postgresPids(port: number): number[] {
  const all = pids()
  const postmaster = all.find((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      return (
        /\/postgres$/.test(argv[0] ?? '') &&
        argv.includes('-p') &&
        argv[argv.indexOf('-p') + 1] === String(port)
      )
    } catch {
      return false
    }
  })
  if (postmaster === undefined) return []
  return [postmaster, ...all.filter((pid) => statFields(pid)?.[1] === String(postmaster))]
}

/** CPU seconds so far of every process on the machine, by pid, with its command name. */
export function everyProcess(): Map<number, { name: string; seconds: number }> {
  const all = new Map<number, { name: string; seconds: number }>()
  for (const pid of pids()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      all.set(pid, { name, seconds: seconds(f) })
    } catch {}
  }
  return all
}

/** The machine's CPU time so far, all cores: busy, waiting on the disk, and in all, in seconds. */
export function machineCpu(): { busy: number; iowait: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? ''
  // cpu user nice system idle iowait irq softirq steal …
  const n = line.trim().split(/\s+/).slice(1, 9).map(Number)
  const total = n.reduce((a, b) => a + b, 0)
  const idle = n[3] ?? 0
  const iowait = n[4] ?? 0
  return { busy: (total - idle - iowait) / HZ, iowait: iowait / HZ, total: total / HZ }
}

/** The pid the kernel gave last (/proc/loadavg): how many processes started between two readings. */
export function lastPid(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').trim().split(' ')[4])
}
