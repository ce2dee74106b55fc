import { describe, expect, it } from 'vitest'
import { subscriberNameSchema } from './hub-protocol.js'
import { defaultSubscriberName } from './subscriber-name.js'

describe('default subscriber name', () => {
  it('keeps a plain folder name as it is', () => {
    expect(defaultSubscriberName('/home/me/switchboard')).toBe('switchboard')
    expect(defaultSubscriberName('/work/api.v2_tests')).toBe('api.v2_tests')
  })

  it('makes any folder name one the hub takes', () => {
    const names = [
      '/p/My Project',
      '/p/Café crème',
      '/p/проект',
      '/p/项目',
      '/p/🚀 launch',
      '/p/.hidden',
      '/',
      '/p/a'.repeat(60),
    ]
    for (const folder of names)
      expect(subscriberNameSchema.safeParse(defaultSubscriberName(folder)).success).toBe(true)
    expect(defaultSubscriberName('/p/My Project')).toBe('My-Project')
    expect(defaultSubscriberName('/p/Café crème')).toBe('Cafe-creme')
  })

  it('gives two folders in another script two names', () => {
    expect(defaultSubscriberName('/p/проект')).not.toBe(defaultSubscriberName('/p/задача'))
    expect(defaultSubscriberName('/p/项目')).toMatch(/^[0-9a-f]{8}$/)
  })
})
