import { describe, expect, it } from 'vitest'
import { eventsOf, fixture, githubDelivery, presetSource } from '../../../test/fixtures/webhooks/load.js'
import { SETTINGS } from '../../core/settings/table.js'
import { webhookBodyLimit } from './index.js'

const MiB = 1024 * 1024
const hubDefault = SETTINGS.maxBodyBytes.default

describe('how large a body a webhook source reads', () => {
  it('reads a GitHub delivery up to GitHub’s own cap of 25 MB, a generic one up to the hub’s setting', () => {
    expect(webhookBodyLimit(presetSource('github'), hubDefault)).toBe(25 * MiB)
    expect(webhookBodyLimit(presetSource('generic'), hubDefault)).toBe(hubDefault)
    expect(webhookBodyLimit({ ...presetSource('generic'), preset: undefined }, hubDefault)).toBe(hubDefault)
  })

  it('gives Sentry, Alertmanager and Grafana room for a large event or alert group', () => {
    for (const preset of ['sentry', 'alertmanager', 'grafana'] as const)
      expect(webhookBodyLimit(presetSource(preset as never), hubDefault)).toBeGreaterThanOrEqual(2 * MiB)
  })

  it('lets the hub’s setting raise any source’s limit, never lower a preset’s below its sender', () => {
    expect(webhookBodyLimit(presetSource('generic'), 8 * MiB)).toBe(8 * MiB)
    expect(webhookBodyLimit(presetSource('github'), 1024)).toBe(25 * MiB)
  })

  it('takes the 81 KB pull request description that the 64 KiB default refused', () => {
    const github = presetSource('github', { name: 'gh', topic: 'github' })
    const { json } = fixture('github-pull_request-opened')
    const pr = json.pull_request as Record<string, unknown>
    // Markdown with a table and non-ASCII text, as long descriptions are.
    const body =
      '| step | résultat |\n|---|---|\n'.repeat(1) + '| ✅ vérifié | déployé → production |\n'.repeat(2000)
    const raw = Buffer.from(JSON.stringify({ ...json, pull_request: { ...pr, body } }))
    expect(raw.length).toBeGreaterThan(81_000)
    expect(raw.length).toBeGreaterThan(hubDefault)
    expect(raw.length).toBeLessThanOrEqual(webhookBodyLimit(github, hubDefault))
    expect(eventsOf(githubDelivery(github, 'pull_request', raw))[0]?.meta.number).toBe('12')
  })
})
