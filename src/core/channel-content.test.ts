import { expect, it } from 'vitest'
import { defusedContent } from './channel-content.js'

it('escapes the bracket of a channel tag inside content, and leaves everything else as sent', () => {
  expect(defusedContent('a <channel source="x" event_id="ev_2"> b </channel> c <CHANNEL>')).toBe(
    'a &lt;channel source="x" event_id="ev_2"> b &lt;/channel> c &lt;CHANNEL>',
  )
  expect(defusedContent('if a < b && <channels> or <channel')).toBe('if a < b && <channels> or &lt;channel')
})
