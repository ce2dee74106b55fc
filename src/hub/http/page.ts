// The dashboard's page (dist/web, built by Vite): at `/`, and at `/signin`, whose script spends the
// link's token. Every response of the page and its API carries headers that keep other pages out;
// a document another site sent the browser to is a page with one link instead, and a framed one 403.
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { PACKAGE_ROOT } from '../../core/install-root.js'
import type { HubEnv } from './env.js'

/** Where `vite build` writes the page. */
const STATIC_ROOT = join(PACKAGE_ROOT, 'dist/web/')
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
}

/**
 * What makes the dashboard an installable app (web/public): its manifest and icons, and its service
 * worker, which must be served from the root for its scope to be the whole dashboard.
 */
const APP_FILES = [
  '/sw.js',
  '/manifest.webmanifest',
  '/icon.svg',
  '/icon-180.png',
  '/icon-192.png',
  '/icon-512.png',
]

/**
 * On every response of the dashboard: no other page may frame it, sniff it, learn where it was, or
 * keep a handle on its window; scripts, styles and connections only from the hub itself.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
}

/** The paths of the page and its API, which get SECURITY_HEADERS. */
export const PAGE_PATHS = [
  '/',
  '/index.html',
  '/signin',
  '/favicon.ico',
  '/openapi.json',
  '/assets/*',
  '/api/*',
  ...APP_FILES,
]

export const securityHeaders: MiddlewareHandler<HubEnv> = async (c, next) => {
  await next()
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value)
}

/** What the browser says about who asked for a page: framed, or opened by another site (another port of this host counts). */
function openedByAnotherPage(c: Context<HubEnv>): 'framed' | 'another-site' | null {
  const dest = c.req.header('sec-fetch-dest')
  if (dest && ['iframe', 'frame', 'embed', 'object', 'fencedframe'].includes(dest)) return 'framed'
  const site = c.req.header('sec-fetch-site')
  return site === 'cross-site' || site === 'same-site' ? 'another-site' : null
}

/**
 * What a page another site sent the browser to gets instead of the dashboard: nothing that answers,
 * and a link that opens the dashboard as the person's own navigation. So no keystroke or click meant
 * for the other page lands on a prompt.
 */
function interstitial(target: string): string {
  const href = target.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Switchboard</title></head><body><main><h1>Switchboard</h1><p>Another page sent you here. Nothing was done.</p><p><a href="${href}">Open the dashboard</a></p></main></body></html>`
}

/** A file of the built page, or 404. */
async function serveStatic(c: Context<HubEnv>, path: string): Promise<Response> {
  const file = normalize(join(STATIC_ROOT, path))
  if (!file.startsWith(STATIC_ROOT) || file.endsWith(sep)) return c.notFound()
  try {
    const bytes = await readFile(file)
    return c.body(bytes, 200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
  } catch {
    return c.notFound()
  }
}

export function pageRoutes(): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const document = async (c: Context<HubEnv>) => {
    const opened = openedByAnotherPage(c)
    if (opened === 'framed') return c.text('the dashboard is not shown inside another page', 403)
    if (opened) {
      const url = new URL(c.req.url)
      return c.html(interstitial(url.pathname === '/signin' ? `/signin${url.search}` : '/'))
    }
    return serveStatic(c, '/index.html')
  }
  app.get('/', document)
  app.get('/index.html', document)
  app.get('/signin', document)
  app.get('/favicon.ico', (c) => serveStatic(c, '/favicon.ico'))
  app.get('/assets/*', (c) => serveStatic(c, c.req.path))
  for (const file of APP_FILES)
    app.get(file, async (c) => {
      const served = await serveStatic(c, file)
      // A new service worker reaches phones at their next visit, not a day later.
      if (file === '/sw.js') served.headers.set('cache-control', 'no-cache')
      return served
    })
  return app
}
