// `switchboard open`: the dashboard, signed in: a one-time link (a few minutes) opened in the browser,
// or printed (and drawn as a QR code for a phone).
import { spawn } from 'node:child_process'
import type { Command } from 'commander'
import { hubApi } from './options.js'
import { printJson } from './output.js'

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
    .option('--qr', 'also draw the link as a QR code, for a phone')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { print?: boolean; qr?: boolean; json?: boolean }, command: Command) => {
      const link = await hubApi(command).signinLink()
      if (opts.json) return printJson(link)
      process.stdout.write(
        `${link.url}\n(works once, until ${new Date(link.expiresAt).toLocaleTimeString()})\n`,
      )
      if (opts.qr) {
        const qr = (await import('qrcode-terminal')).default
        qr.generate(link.url, { small: true }, (drawn) => process.stdout.write(`${drawn}\n`))
      }
      if (!opts.print && !opts.qr && !(await openInBrowser(link.url)))
        process.stdout.write('(no browser opener found: open the link yourself)\n')
    })
}
