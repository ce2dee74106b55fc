// Network namespaces a test makes for itself, joined by veth pairs, so a link between two processes
// can be cut while both live: a real partition, on one machine. Everything is named after this
// process (`sb<pid>-<name>`), so two runs never meet, and removed when the run ends, whatever ends it;
// namespaces left by a run that died are swept at the next start. Only the namespaces made here are
// touched: no route, address or firewall of the machine's own.
//
// How a link is cut: one pair per link, and the far end set down. The near end stays up, so what it
// sends goes out and is never answered: connect() times out, an established TCP connection hangs —
// what a dead switch or a lost route does. (This machine's kernel has no netem or prio qdisc and no
// nftables; a blackhole route answers at once with EINVAL, which no network does.)
import { type ChildProcess, execFileSync, type SpawnOptions, spawn } from 'node:child_process'
import { randomInt } from 'node:crypto'

const PREFIX = `sb${process.pid}`

/** One end of a link: the namespace, its interface and its address there. */
export interface LinkEnd {
  ns: string
  dev: string
  address: string
}

interface Link {
  ends: Record<string, LinkEnd>
}

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Why namespaces cannot be made here, in one line; null when they can. */
export function netnsUnavailable(): string | null {
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' })
  } catch {
    return 'the partition test needs iproute2 (`ip`), which is not installed (.ci/run installs it)'
  }
  if (process.getuid?.() !== 0)
    return 'the partition test makes network namespaces, which needs root (CAP_NET_ADMIN); this test runs as a user'
  const probe = `${PREFIX}-probe`
  try {
    ip('netns', 'add', probe)
    ip('netns', 'del', probe)
    return null
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? (err as Error).message).trim()
    return `the partition test cannot make a network namespace here (ip netns add: ${stderr})`
  }
}

/** Namespaces of runs whose process is gone: their processes are killed and the namespaces removed. */
export function sweepStaleNamespaces(): string[] {
  const swept: string[] = []
  for (const line of ip('netns', 'list').split('\n')) {
    const name = line.split(' ')[0] ?? ''
    const owner = /^sb(\d+)-/.exec(name)?.[1]
    if (!owner || alive(Number(owner))) continue
    removeNamespace(name)
    swept.push(name)
  }
  return swept
}

function removeNamespace(ns: string): void {
  try {
    for (const pid of ip('netns', 'pids', ns).split('\n').filter(Boolean).map(Number))
      try {
        process.kill(pid, 'SIGKILL')
      } catch {}
  } catch {}
  try {
    ip('netns', 'del', ns)
  } catch {}
}

export class Netns {
  private readonly names = new Set<string>()
  private readonly links = new Map<string, Link>()
  /** 10.x.y.0/24, chosen per run; link n is its nth /30. */
  private readonly net: string
  private destroyed = false
  private readonly onExit = () => this.destroy()
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.destroy()
    process.kill(process.pid, signal)
  }

  private constructor() {
    this.net = `10.${randomInt(200, 250)}.${randomInt(0, 256)}`
    process.once('exit', this.onExit)
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, this.onSignal)
  }

  /** Namespaces by short name (`hubA`, `pg`…), each with its loopback up; stale ones swept first. */
  static create(names: string[]): Netns {
    sweepStaleNamespaces()
    const netns = new Netns()
    try {
      for (const name of names) netns.add(name)
    } catch (err) {
      netns.destroy()
      throw err
    }
    return netns
  }

  /** Every address of this run's links (a /24): whoever comes from it is one of ours. */
  get range(): string {
    return `${this.net}.0/24`
  }

  /** The namespace's full name. */
  ns(name: string): string {
    if (!this.names.has(name)) throw new Error(`no namespace ${name} in this run`)
    return `${PREFIX}-${name}`
  }

  private add(name: string): void {
    this.names.add(name)
    ip('netns', 'add', this.ns(name))
    ip('-n', this.ns(name), 'link', 'set', 'lo', 'up')
  }

  /** A veth pair between `a` and `b`, a /30 of its own: each end's address is `address(…)`. */
  link(a: string, b: string): void {
    const n = this.links.size
    if (n >= 63) throw new Error('more links than one /24 holds')
    const ends: Record<string, LinkEnd> = {
      [a]: { ns: this.ns(a), dev: `${PREFIX}l${n}a`, address: `${this.net}.${4 * n + 1}` },
      [b]: { ns: this.ns(b), dev: `${PREFIX}l${n}b`, address: `${this.net}.${4 * n + 2}` },
    }
    const [ea, eb] = [ends[a] as LinkEnd, ends[b] as LinkEnd]
    ip('link', 'add', ea.dev, 'netns', ea.ns, 'type', 'veth', 'peer', 'name', eb.dev, 'netns', eb.ns)
    for (const end of [ea, eb]) {
      ip('-n', end.ns, 'addr', 'add', `${end.address}/30`, 'dev', end.dev)
      ip('-n', end.ns, 'link', 'set', end.dev, 'up')
    }
    this.links.set(key(a, b), { ends })
  }

  /** Where `to` answers for `from`: its address on their link. */
  address(from: string, to: string): string {
    return this.end(from, to, to).address
  }

  /**
   * Cuts the link between `near` and `far` so that `near` hears nothing: `far`'s end goes down, and
   * what `near` sends is lost without a word. (`far` itself is told at once its route is gone.)
   */
  cut(near: string, far: string): void {
    const end = this.end(near, far, far)
    ip('-n', end.ns, 'link', 'set', end.dev, 'down')
  }

  /** The link between `a` and `b` carries traffic again, both ways. */
  heal(a: string, b: string): void {
    for (const who of [a, b]) {
      const end = this.end(a, b, who)
      ip('-n', end.ns, 'link', 'set', end.dev, 'up')
    }
  }

  /** `command args…` run inside namespace `name` (`ip netns exec`, which execs it: the pid is its own). */
  spawn(name: string, command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
    return spawn('ip', ['netns', 'exec', this.ns(name), command, ...args], options)
  }

  /**
   * A TCP port in namespace `name`, on each of its addresses, whose connections go on to the Unix
   * socket `socketPath` (which namespaces do not divide): a server of this process, reached from the
   * namespace's links and cut with them. Resolves once it listens.
   */
  async door(name: string, port: number, socketPath: string): Promise<ChildProcess> {
    const door = this.spawn(name, process.execPath, ['-e', DOOR, String(port), socketPath], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    await new Promise<void>((resolve, reject) => {
      door.stdout?.once('data', () => resolve())
      door.once('exit', (code) => reject(new Error(`the door in ${name} ended (${code}) before it listened`)))
    })
    return door
  }

  /** The argv for running `command` in namespace `name`, for callers that spawn it themselves. */
  argv(name: string, command: string, args: string[]): [string, string[]] {
    return ['ip', ['netns', 'exec', this.ns(name), command, ...args]]
  }

  /** Every process left in this run's namespaces is killed, and the namespaces (and links) removed. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    process.off('exit', this.onExit)
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, this.onSignal)
    for (const name of this.names) removeNamespace(`${PREFIX}-${name}`)
  }

  private end(a: string, b: string, which: string): LinkEnd {
    const link = this.links.get(key(a, b))
    if (!link) throw new Error(`no link between ${a} and ${b}`)
    return link.ends[which] as LinkEnd
  }
}

/** `node -e` text of a door: each connection to the port piped both ways to a new one to the socket. */
const DOOR = `
const net = require('node:net')
const [port, socketPath] = process.argv.slice(1)
net
  .createServer((near) => {
    const far = net.connect(socketPath)
    const end = () => { near.destroy(); far.destroy() }
    for (const s of [near, far]) { s.on('error', end); s.on('close', end) }
    near.pipe(far).pipe(near)
  })
  .listen(Number(port), '0.0.0.0', () => process.stdout.write('listening\\n'))
`

const key = (a: string, b: string) => [a, b].sort().join('|')
