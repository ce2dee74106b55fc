import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.js'

function homeWith(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-config-'))
  writeFileSync(join(dir, 'config.json'), config)
  return dir
}

describe('config', () => {
  it('lets flags win over config.json', () => {
    const home = homeWith('{"port": 9000}')
    expect(loadConfig({ home }).port).toBe(9000)
    expect(loadConfig({ home, port: '9100' }).port).toBe(9100)
  })

  it('names the file and the key of a mistake', () => {
    expect(() => loadConfig({ home: homeWith('{"prot": 1}') })).toThrow(/config\.json: .*prot/)
    expect(() => loadConfig({ home: homeWith('{"port": 70000}') })).toThrow(
      /port: port must be between 1 and 65535/,
    )
    expect(() => loadConfig({ home: homeWith('{oops') })).toThrow(/not valid JSON/)
    expect(() => loadConfig({ home: homeWith('{}'), port: 'x' })).toThrow(/--port: port must be a number/)
  })
})
