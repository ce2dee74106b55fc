// A chat bridge carrying permission prompts end to end short of Claude: put to operators with buttons,
// answered by a press or a typed "yes <id>", edited when answered elsewhere, cleared when their
// session goes away, refused to a stranger, and a press of one answered or ended said to be so.
// Each platform's hub (`switchboard serve`) has its bridge added by `switchboard bridge add`, the
// platform's real client library inside it and a fake platform server on 127.0.0.1; an MCP client of
// `switchboard channel` stands in for Claude Code (test/helpers/bridge-tests.ts).
import { describe, expect, it } from 'vitest'
import { BRIDGE_PLATFORMS } from '../../src/core/bridges.js'
import { BridgeTests } from '../helpers/bridge-tests.js'
import { botMessages, decisionStatus, editOf, pair } from '../helpers/bridge-world.js'
import { waitFor } from '../helpers/home.js'

describe.each(BRIDGE_PLATFORMS)('%s bridge', (platform) => {
  const t = new BridgeTests(platform)
  const channel = () => t.channel()

  describe('on a hub they share', () => {
    t.shareHub()

    it('puts a permission prompt to an operator with buttons, and a press answers it', async () => {
      const { fake, home, olga } = t
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      await claude.sendPermissionRequest({
        request_id: 'bqzmx',
        tool_name: 'Bash',
        description: 'List the files',
        input_preview: '{"command":"ls -la"}',
      })
      const prompt = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
        'the prompt',
      )
      // As the dashboard shows it: the command, not the JSON it came in.
      expect(prompt.text).toContain('$ ls -la')
      expect(prompt.text).not.toContain('{"command"')
      const labels = prompt.buttons.flat().map((b) => b.text)
      expect(labels).toEqual(['See more', 'Allow', 'Deny'])
      const more = prompt.buttons.flat().find((b) => b.text === 'See more')
      await fake.press(olga, chat, prompt.messageId, more?.data as string)
      // The details replace the prompt, its See more gone (the prompt showed the command already). Only
      // then Allow: the edit a press of See more makes and the one an answer makes are not in order.
      await fake.waitFor(
        () =>
          fake
            .sent()
            .find(
              (m) =>
                m.chatId === chat &&
                m.messageId === prompt.messageId &&
                m.text.includes('ls -la') &&
                !m.buttons.flat().some((b) => b.text === 'See more'),
            ),
        'the details',
      )

      const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
      await fake.press(olga, chat, prompt.messageId, allow?.data as string)
      await fake.waitFor(() => claude.verdicts[0], 'the verdict')
      expect(claude.verdicts).toEqual([{ request_id: 'bqzmx', behavior: 'allow' }])
      const edited = await editOf(fake, chat, prompt.messageId, 'Allowed by', 'the prompt edited')
      expect(edited.text).toContain('olga')
      expect(edited.buttons).toEqual([])
    })

    it('edits the prompt on the phone when it is answered somewhere else', async () => {
      const { fake, home, olga } = t
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      const token = await home.addSender('laptop', true)
      await claude.sendPermissionRequest({
        request_id: 'kxvwp',
        tool_name: 'Write',
        description: 'Write a file',
        input_preview: '{"file_path":"/tmp/x"}',
      })
      const prompt = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Write')),
        'the prompt',
      )
      const answered = await fetch(`${home.url}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        body: 'no kxvwp',
      })
      expect(answered.status).toBe(200)
      await fake.waitFor(() => claude.verdicts[0], 'the verdict')
      expect(claude.verdicts).toEqual([{ request_id: 'kxvwp', behavior: 'deny' }])
      const edited = await editOf(fake, chat, prompt.messageId, 'Denied by laptop', 'the prompt edited')
      expect(edited.buttons).toEqual([])
    })

    it('confirms a typed "yes <id>", and says why one cannot be taken', async () => {
      const { fake, home, ann, olga } = t
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      const annChat = await pair(home, fake, ann) // allowed, not an operator
      await claude.sendPermissionRequest({
        request_id: 'dqzmx',
        tool_name: 'Bash',
        description: 'List the files',
        input_preview: '{"command":"ls"}',
      })
      await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
        'the prompt',
      )
      await fake.dm(ann, 'yes dqzmx')
      await fake.waitFor(
        () => botMessages(fake, annChat).find((m) => m.text.includes('Only operators')),
        'the refusal',
      )
      await fake.dm(olga, 'yes dqzmx')
      await fake.waitFor(() => claude.verdicts[0], 'the verdict')
      expect(claude.verdicts).toEqual([{ request_id: 'dqzmx', behavior: 'allow' }])
      await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Allowed dqzmx')),
        'the confirmation',
      )
      await fake.dm(olga, 'no dqzmx')
      const again = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('dqzmx') && /already/i.test(m.text)),
        'why the second answer was not taken',
      )
      expect(again.text).toContain('olga')
      expect(claude.verdicts).toHaveLength(1)
    })

    it('clears a prompt’s buttons when its session goes away unanswered', async () => {
      const { fake, home, olga } = t
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      await claude.sendPermissionRequest({
        request_id: 'wvxyz',
        tool_name: 'Bash',
        description: 'sleep',
        input_preview: '{"command":"sleep 1"}',
      })
      const prompt = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
        'the prompt',
      )
      await claude.close()
      const edited = await editOf(fake, chat, prompt.messageId, 'No longer open', 'the prompt closed')
      expect(edited.buttons).toEqual([])
    })

    it('refuses a stranger’s button press', async () => {
      const { fake, home, ann, olga, stranger } = t
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      await pair(home, fake, ann) // allowed, not an operator
      await claude.sendPermissionRequest({
        request_id: 'mnpqr',
        tool_name: 'Bash',
        description: 'rm',
        input_preview: '{"command":"rm -rf build"}',
      })
      const prompt = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
        'the prompt',
      )
      const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')?.data as string
      const before = fake.pressAnswers.length
      await fake.press(stranger, chat, prompt.messageId, allow)
      await fake.press(ann, chat, prompt.messageId, allow)
      await fake.waitFor(() => fake.pressAnswers.length >= before + 2, 'both presses answered')
      expect(fake.pressAnswers.slice(before).map((a) => a.notice)).toEqual([
        'Not authorized',
        'Not authorized',
      ])
      expect(claude.verdicts).toEqual([])
      expect(
        botMessages(fake, chat)
          .find((m) => m.messageId === prompt.messageId)
          ?.buttons.flat().length,
      ).toBe(3)
    })
  })

  // A rate limit of a minute leaves the platform changed: it has a hub of its own.
  describe('on a hub of its own', () => {
    t.hubPerTest()

    it('says a pressed prompt was answered elsewhere, or ended, rather than anything else', async () => {
      const { fake, home, olga } = t
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      const token = await home.addSender('laptop', true)
      for (const id of ['kxvwp', 'wvxyz'])
        await claude.sendPermissionRequest({
          request_id: id,
          tool_name: 'Bash',
          description: 'sleep',
          input_preview: '{"command":"sleep 1"}',
        })
      const prompts = await fake.waitFor(() => {
        const shown = botMessages(fake, chat).filter((m) => m.text.includes('Permission: Bash'))
        return shown.length === 2 && shown
      }, 'both prompts')
      const allowOf = (code: string) => {
        const prompt = prompts.find((m) => m.text.includes(code))
        const data = prompt?.buttons.flat().find((b) => b.text === 'Allow')?.data as string
        return { prompt: prompt?.messageId as string, data }
      }
      // The platform holds back the edits that would take the buttons away, so they can still be pressed.
      fake.rateLimitNext(10, 60)
      const answered = await fetch(`${home.url}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        body: 'no kxvwp',
      })
      expect(answered.status).toBe(200)
      const before = fake.pressAnswers.length
      const first = allowOf('kxvwp')
      await fake.press(olga, chat, first.prompt, first.data)
      await fake.waitFor(() => fake.pressAnswers.length > before, 'the press answered')
      expect(fake.pressAnswers.at(-1)?.notice).toMatch(/already answered.*laptop/i)

      await claude.close() // its open prompt is withdrawn
      await waitFor(
        async () => (await decisionStatus(home, 'wvxyz')) === 'cancelled',
        10_000,
        'the withdrawal',
      )
      const second = allowOf('wvxyz')
      await fake.press(olga, chat, second.prompt, second.data)
      await fake.waitFor(() => fake.pressAnswers.length > before + 1, 'the press answered')
      expect(fake.pressAnswers.at(-1)?.notice).toMatch(/no longer open/i)
    })
  })
})
