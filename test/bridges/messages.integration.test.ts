// A chat bridge carrying words and files end to end, short of Claude: a DM reaches the channel with
// the meta the official plugins give, Claude's reply is cut at the platform's limit, a rate limit and
// an outage are waited out, and a photo or a file comes with its path or id, into the inbox of the
// session the chat goes to, within the limits on files.
// Each platform's hub (`switchboard serve`) has its bridge added by `switchboard bridge add`, the
// platform's real client library inside it and a fake platform server on 127.0.0.1; an MCP client of
// `switchboard channel` stands in for Claude Code (test/helpers/bridge-tests.ts).
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BRIDGE_PLATFORMS } from '../../src/core/bridges.js'
import { BridgeTests } from '../helpers/bridge-tests.js'
import { botMessages, LIMITS, pair } from '../helpers/bridge-world.js'

describe.each(BRIDGE_PLATFORMS)('%s bridge', (platform) => {
  const t = new BridgeTests(platform)
  const channel = () => t.channel()

  describe('on a hub they share', () => {
    t.shareHub()

    it('hands a DM to the channel with the meta the official plugins give', async () => {
      const { fake, home, ann } = t
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      const messageId = await fake.dm(ann, 'deploy is red, look?')
      const [event] = await claude.waitForEvents(1)
      expect(event?.content).toBe('deploy is red, look?')
      expect(event?.meta).toMatchObject({
        origin: platform,
        topic: `chat:${platform}:${chat}`,
        sender: `${platform}:${ann.id}`,
        message_id: messageId,
        user: 'ann',
        user_id: ann.id,
      })
      expect(event?.meta?.chat_id).toMatch(/^chat_/)
      expect(Number.isNaN(Date.parse(event?.meta?.ts ?? ''))).toBe(false)
      // Shown while Claude works; it may reach the platform after the message reached Claude.
      if (platform !== 'slack') await fake.waitFor(() => fake.typing.includes(chat), 'the typing indicator')
    })

    it('sends Claude’s reply as the platform’s message, cut at its limit', async () => {
      const { fake, home, ann } = t
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      await fake.dm(ann, 'write me a long one')
      const [event] = await claude.waitForEvents(1)
      const paragraph = `${'word '.repeat(300).trim()}\n\n`
      const text = paragraph.repeat(Math.ceil((LIMITS[platform] * 2.5) / paragraph.length)).trim()
      const before = botMessages(fake, chat).length
      const result = await claude.callTool('reply', { chat_id: event?.meta?.chat_id, text })
      expect(result.isError).toBeFalsy()
      expect(JSON.stringify(result.content)).toContain('sent')
      const chunks = botMessages(fake, chat).slice(before)
      expect(chunks.length).toBeGreaterThanOrEqual(3)
      for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(LIMITS[platform])
      expect(chunks[0]?.text.startsWith('[work] ')).toBe(true)
      const words = (s: string) => s.replace('[work] ', '').split(/\s+/).filter(Boolean)
      expect(chunks.flatMap((c) => words(c.text))).toEqual(words(text))
    })

    it('waits out a rate limit (429, retry_after) and then delivers the reply once', async () => {
      const { fake, home, ann } = t
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      await fake.dm(ann, 'ping')
      const [event] = await claude.waitForEvents(1)
      fake.rateLimitNext(1, 1)
      const result = await claude.callTool('reply', {
        chat_id: event?.meta?.chat_id,
        text: 'after the limit',
      })
      expect(JSON.stringify(result.content)).toContain('queued')
      await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('after the limit')),
        'the reply',
        20_000,
      )
      expect(botMessages(fake, chat).filter((m) => m.text.includes('after the limit'))).toHaveLength(1)
    })

    it('gives a photo’s path and a file’s id in meta, and download_attachment fetches the file', async () => {
      const { fake, home, ann } = t
      const claude = await channel()
      await pair(home, fake, ann)
      const photo = { name: 'graph.png', mime: 'image/png', content: Buffer.from('png bytes of the graph') }
      await fake.dm(ann, 'see this', { photo })
      const [withPhoto] = await claude.waitForEvents(1)
      expect(withPhoto?.content).toBe('see this')
      const imagePath = withPhoto?.meta?.image_path as string
      expect(imagePath.startsWith(join(home.dir, 'inbox', platform))).toBe(true)
      expect(readFileSync(imagePath)).toEqual(photo.content)

      const log = { name: 'build<1>;.log', mime: 'text/plain', content: Buffer.from('error: it broke\n') }
      await fake.dm(ann, 'and the log', { document: log })
      const events = await claude.waitForEvents(2)
      const meta = events[1]?.meta ?? {}
      expect(meta).toMatchObject({ attachment_name: expect.stringContaining('build') })
      expect(meta.image_path).toBeUndefined()
      const result = await claude.callTool('download_attachment', {
        chat_id: meta.chat_id,
        file_id: meta.attachment_file_id,
      })
      expect(result.isError).toBeFalsy()
      const path = (result.content as { text: string }[])[0]?.text as string
      expect(readFileSync(path)).toEqual(log.content)
      expect(basename(path)).not.toMatch(/[<>;]/)
    })

    it('brings a photo and a PDF into the inbox of the session the chat goes to, each named with its type and size', async () => {
      const { fake, home, ann } = t
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      await fake.dm(ann, '/to work')
      await fake.waitFor(() => botMessages(fake, chat).find((m) => m.text.includes('now go to work')), '/to')
      const photo = { name: 'graph.png', mime: 'image/png', content: Buffer.from('png bytes of the graph') }
      const pdf = { name: 'report.pdf', mime: 'application/pdf', content: Buffer.from('%PDF-1.4 the report') }
      await fake.dm(ann, 'the graph', { photo })
      await fake.dm(ann, 'and the report', { document: pdf })
      const [withPhoto, withPdf] = await claude.waitForEvents(2)
      const inbox = join(home.dir, 'inbox', 'work')
      const named = (meta: Record<string, string> | undefined) => {
        const [, path, type, size] = /^(.+) \(([^,]+), (\d+) bytes\)$/.exec(meta?.files ?? '') ?? []
        return { path: path as string, type, size: Number(size) }
      }
      const image = named(withPhoto?.meta)
      expect(image.path.startsWith(inbox)).toBe(true)
      expect(readFileSync(image.path)).toEqual(photo.content)
      expect(image.size).toBe(photo.content.length)
      expect(image.type).toMatch(/^image\//)
      const report = named(withPdf?.meta)
      expect(report).toMatchObject({ type: 'application/pdf', size: pdf.content.length })
      expect(report.path.startsWith(inbox)).toBe(true)
      expect(readFileSync(report.path)).toEqual(pdf.content)
    })

    it('refuses a file over the limit or of a type not taken, telling the sender the limit', async () => {
      const { fake, home, ann } = t
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      const config = join(home.dir, 'config.json')
      writeFileSync(config, JSON.stringify({ chatFileLimitMb: 1 }))
      try {
        const big = { name: 'dump.pdf', mime: 'application/pdf', content: Buffer.alloc(1024 * 1024 + 1) }
        await fake.dm(ann, 'the dump', { document: big })
        const said = await fake.waitFor(
          () => botMessages(fake, chat).find((m) => m.text.includes('dump.pdf')),
          'the refusal',
        )
        expect(said.text).toContain('over the 1 MB limit for files (chatFileLimitMb)')
        const exe = { name: 'tool.exe', mime: 'application/x-msdownload', content: Buffer.from('MZ') }
        await fake.dm(ann, 'run this', { document: exe })
        const refused = await fake.waitFor(
          () => botMessages(fake, chat).find((m) => m.text.includes('tool.exe')),
          'the refusal of a type',
        )
        expect(refused.text).toMatch(
          /application\/x-msdownload, which is not taken \(chatFileTypes: image\/\*/,
        )
        // The words still reach the session, saying what was refused; no file does.
        const events = await claude.waitForEvents(2)
        expect(events.map((e) => e.content)).toEqual(['the dump', 'run this'])
        expect(events.every((e) => e.meta?.files === undefined)).toBe(true)
        expect(events[0]?.meta?.files_refused).toContain('dump.pdf')
      } finally {
        rmSync(config)
      }
    })
  })

  // An outage leaves the platform changed: it has a hub of its own.
  describe('on a hub of its own', () => {
    t.hubPerTest()

    it('keeps a reply while the platform is down and delivers it once when it is back', async () => {
      const { fake, home, ann } = t
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      await fake.dm(ann, 'ping')
      const [event] = await claude.waitForEvents(1)
      fake.setDown(true)
      const result = await claude.callTool('reply', {
        chat_id: event?.meta?.chat_id,
        text: 'pong, through the outage',
      })
      expect(result.isError).toBeFalsy()
      expect(JSON.stringify(result.content)).toContain('queued')
      fake.setDown(false)
      await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('pong, through the outage')),
        'the reply after the outage',
        40_000,
      )
      const copies = botMessages(fake, chat).filter((m) => m.text.includes('pong, through the outage'))
      expect(copies).toHaveLength(1)
    })
  })
})
