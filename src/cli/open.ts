// `switchboard open`: the dashboard, signed in: a one-time link (a few minutes) opened in the browser,
// or printed (and, with --qr, drawn as a QR code with the address a phone can reach).
import { spawn } from 'node:child_process'
import type { Command } from 'commander'
import { pinText } from '../core/fingerprint.js'
import { hubApi } from './options.js'
import { printJson } from './output.js'
import { phoneLink } from './phone-link.js'

/** The desktop's own opener, if it has one; false when nothing could be started. */
function openInBrowser(url: string): Promise<boolean> {
  const opener =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  return new Promise((resolve) => {
    const child = spawn(opener, [url], { stdio: 'ignore', detached: true })
    child.once('error', () => resolve(false))
    child.once('spawn', () => {
      child.unref()
      resolve(true)
    })
  })
}

export function registerOpen(program: Command): void {
  program
    .command('open')
    .description('open the dashboard, signed in (a one-time link that works for a few minutes)')
    .option('--print', 'only print the link')
    .option('--qr', "draw the link as a QR code for a phone, with the hub's network address")
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { print?: boolean; qr?: boolean; json?: boolean }, command: Command) => {
      const hub = hubApi(command)
      const link = await hub.call('signinLink')
      if (opts.json) return printJson(link)
      let url = link.url
      let certificate = ''
      if (opts.qr) {
        // The QR code is for another device: the link names the hub's network address, if it has one.
        const status = await hub.call('status')
        const phone = phoneLink(link.url, status)
        if ('url' in phone) url = phone.url
        else process.stderr.write(`switchboard: ${phone.unreachable}\n`)
        if ('url' in phone && status.inClear)
          process.stderr.write(
            'switchboard: this hub speaks plain HTTP on the network (--insecure): anyone on it can read this link and sign in with it first\n',
          )
        if ('url' in phone && status.fingerprint)
          certificate = `certificate: ${pinText(status.fingerprint)} (the browser does not know it: go on only if it shows this one)\n`
      }
      process.stdout.write(
        `${url}\n(works once, until ${new Date(link.expiresAt).toLocaleTimeString()})\n${certificate}`,
      )
      if (opts.qr) {
        const qr = (await import('qrcode-terminal')).default
        qr.generate(url, { small: true }, (drawn) => process.stdout.write(`${drawn}\n`))
      }
      if (!opts.print && !opts.qr && !(await openInBrowser(link.url)))
        process.stdout.write('(no browser opener found: open the link yourself)\n')
    })
}
