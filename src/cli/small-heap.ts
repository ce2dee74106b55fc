// The channel runs beside every Claude Code session, for as long as it lasts, and holds little: its
// modules and the last events. V8 sizes a heap for speed by default: it lets the old generation fill
// with garbage to several times what is live and keeps pages that are mostly free, so over an hour
// of steady events a channel's private memory grew by half while what it held stayed the same
// (docs/design-notes.md, "Load and soak"). Told to favour size, V8 grows the heap less and compacts
// fragmented pages. Set at run time: a channel starts as whatever a user's agent configuration says
// (`switchboard channel`, `node launch.mjs channel`), with no say over the flags node is given.
import { setFlagsFromString } from 'node:v8'

export function favourSmallHeap(): void {
  setFlagsFromString('--optimize-for-size')
}
