// The text/event-stream format read from a fetch body, as an EventSource reads it: named events,
// data over several lines, ids, comments, and lines ended by LF, CRLF or CR.

/** Reads text/event-stream frames until the body ends, calling `dispatch` for each event with data. */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  dispatch: (name: string, data: string, id: string | null) => void,
): Promise<void> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let name = ''
  let data: string[] = []
  let id: string | null = null
  // A CR that ended the text so far may be the first half of a CRLF whose LF is in the next chunk.
  let afterCr = false
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    if (afterCr && buffer) {
      if (buffer.startsWith('\n')) buffer = buffer.slice(1)
      afterCr = false
    }
    let end = buffer.search(/\r\n|\r|\n/)
    while (end >= 0) {
      const line = buffer.slice(0, end)
      afterCr = end === buffer.length - 1 && buffer[end] === '\r'
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1))
      if (line === '') {
        if (data.length > 0) dispatch(name || 'message', data.join('\n'), id)
        name = ''
        data = []
        id = null
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':')
        const field = colon < 0 ? line : line.slice(0, colon)
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
        if (field === 'event') name = text
        else if (field === 'data') data.push(text)
        else if (field === 'id') id = text
      }
      end = buffer.search(/\r\n|\r|\n/)
    }
  }
}
