// Draws the dashboard's app icon (a patch panel: two rows of jacks, two cords) as web/public/icon.svg
// and as the PNGs an installed web app needs (192 and 512 pixels, and 180 for iOS's home screen),
// from one description, with no image library: `node scripts/make-icons.mjs` after changing it.
import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

const OUT = new URL('../web/public/', import.meta.url)
const BACKGROUND = [0x1d, 0x4e, 0xd8]
const INK = [0xff, 0xff, 0xff]
// In a unit square; everything inside the middle 80% a maskable icon keeps.
const JACKS = [0.3, 0.5, 0.7].flatMap((y) => [
  [0.3, y],
  [0.7, y],
])
const JACK_RADIUS = 0.06
const CORDS = [
  [[0.3, 0.3], [0.7, 0.7]],
  [[0.3, 0.7], [0.7, 0.5]],
]
const CORD_WIDTH = 0.045

function toSegment([px, py], [[ax, ay], [bx, by]]) {
  const dx = bx - ax
  const dy = by - ay
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy))
}

function inked(x, y) {
  if (JACKS.some(([jx, jy]) => Math.hypot(x - jx, y - jy) <= JACK_RADIUS)) return true
  return CORDS.some((cord) => toSegment([x, y], cord) <= CORD_WIDTH / 2)
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(bytes) {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type, data) {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** A square RGB PNG, each pixel sampled 4×4 times for smooth edges. */
function png(size) {
  const rows = []
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3)
    for (let x = 0; x < size; x++) {
      let hits = 0
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) if (inked((x + (sx + 0.5) / 4) / size, (y + (sy + 0.5) / 4) / size)) hits++
      const a = hits / 16
      for (let c = 0; c < 3; c++) row[1 + x * 3 + c] = Math.round(BACKGROUND[c] * (1 - a) + INK[c] * a)
    }
    rows.push(row)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const hex = (rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`
const n = (v) => +(v * 100).toFixed(2)
const svg = [
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" role="img" aria-label="Switchboard">',
  '<title>Switchboard</title>',
  `<rect width="100" height="100" rx="20" fill="${hex(BACKGROUND)}"/>`,
  `<g stroke="${hex(INK)}" stroke-width="${n(CORD_WIDTH)}" stroke-linecap="round">`,
  ...CORDS.map(([[ax, ay], [bx, by]]) => `<line x1="${n(ax)}" y1="${n(ay)}" x2="${n(bx)}" y2="${n(by)}"/>`),
  '</g>',
  `<g fill="${hex(INK)}">`,
  ...JACKS.map(([x, y]) => `<circle cx="${n(x)}" cy="${n(y)}" r="${n(JACK_RADIUS)}"/>`),
  '</g>',
  '</svg>',
].join('\n')

writeFileSync(new URL('icon.svg', OUT), `${svg}\n`)
for (const size of [180, 192, 512]) writeFileSync(new URL(`icon-${size}.png`, OUT), png(size))
