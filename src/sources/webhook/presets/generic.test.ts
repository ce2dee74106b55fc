import { describe, expect, it } from 'vitest'
import { eventsOf, presetSource, receive } from '../../../../test/fixtures/webhooks/load.js'
import { fieldSpecSchema, readPath } from './field-map.js'

const bearer = { authorization: 'Bearer s3cret' }
const form = presetSource('generic', {
  name: 'forms',
  topic: 'forms',
  fieldMap: { content: '$.alert.text', severity: '$.alert.labels.severity', first: '$.items[0].id' },
})
const body = {
  alert: { text: 'queue is backing up', labels: { severity: 'high', team: 'infra' } },
  items: [{ id: 'job-7' }, { id: 'job-8' }],
  text: 'the body’s own text',
  env: 'prod',
}

describe('generic preset', () => {
  it('takes content and attributes from the mapped paths, and the other top-level scalars as before', () => {
    const [e, ...more] = eventsOf(receive(form, body, bearer))
    expect(more).toEqual([])
    expect(e?.content).toBe('queue is backing up')
    expect(e?.topic).toBe('forms')
    // A mapped content leaves the body's own text among the attributes.
    expect(e?.meta).toEqual({ severity: 'high', first: 'job-7', text: 'the body’s own text', env: 'prod' })
  })

  it('falls back to the body’s text field when the mapped content is missing, and shows objects as JSON', () => {
    const labels = presetSource('generic', { fieldMap: { content: '$.missing', labels: '$.alert.labels' } })
    const [e] = eventsOf(receive(labels, body, bearer))
    expect(e?.content).toBe('the body’s own text')
    expect(e?.meta.labels).toBe('{"severity":"high","team":"infra"}')
  })

  it('without a map is the parser it always was', () => {
    const [e] = eventsOf(receive(presetSource('generic'), { text: 'deploy done', n: 3 }, bearer))
    expect(e).toMatchObject({ content: 'deploy done', meta: { n: '3' } })
  })
})

describe('field map', () => {
  it('reads name=path, and refuses a reserved name, a path that is not one, or no =', () => {
    expect(fieldSpecSchema.parse('content=$.alert.text')).toEqual(['content', '$.alert.text'])
    expect(fieldSpecSchema.parse('first=$.items[0].id')).toEqual(['first', '$.items[0].id'])
    const problem = (spec: string) => fieldSpecSchema.safeParse(spec).error?.issues[0]?.message
    expect(problem('sender=$.user')).toBe('the hub sets this attribute itself; pick another name')
    expect(problem('title=alert.title')).toMatch(/^a JSON path is \$ and then \.name or \[index\] steps/)
    expect(problem('content')).toBe('write name=path, e.g. content=$.alert.text')
    expect(problem('2x=$.a')).toMatch(/^a field is named by a letter or _/)
  })

  it('reads only what the document itself holds', () => {
    expect(readPath({ a: [{ b: 1 }] }, '$.a[0].b')).toBe(1)
    expect(readPath({ a: 1 }, '$')).toEqual({ a: 1 })
    expect(readPath({}, '$.constructor')).toBeUndefined()
    expect(readPath({ a: 'text' }, '$.a.length')).toBeUndefined()
  })
})
