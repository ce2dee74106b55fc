// One transcript item: the user's words, the model's words (Claude's, Codex's: `speaker`) or thinking
// (folded), a tool call, a tool's result, a turn's end.

import { formatUsd } from '../../../src/core/money.ts'
import { ToolCall } from '../ui/tool-call.tsx'
import type { TranscriptItem } from './transcript-items.ts'

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? ''
  return line.length > 80 ? `${line.slice(0, 77)}…` : line
}

export function TranscriptItemView({ item, speaker }: { item: TranscriptItem; speaker: string }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="item user">
          <div className="who">You</div>
          <div className="text">{item.text}</div>
        </div>
      )
    case 'assistant':
      return (
        <div className="item assistant">
          <div className="who">{speaker}</div>
          <div className="text">{item.text}</div>
        </div>
      )
    case 'thinking':
      return (
        <details className="item thinking">
          <summary>
            <span className="who">Thinking</span>
          </summary>
          <div className="text">{item.redacted ? '(redacted by the model)' : item.text}</div>
        </details>
      )
    case 'tool':
      return <ToolCall name={item.name} input={item.input} />
    case 'tool-result':
      return (
        <details className={item.isError ? 'item result error' : 'item result'}>
          <summary>
            {item.isError ? 'Tool error' : 'Tool result'}
            {item.tool ? ` · ${item.tool}` : ''}
            {item.text ? <span className="path"> {firstLine(item.text)}</span> : null}
          </summary>
          <pre className="code">{item.text || '(empty)'}</pre>
        </details>
      )
    case 'turn':
      return (
        <div className={item.error ? 'item turn error' : 'item turn'}>
          Turn finished
          {item.cost !== null ? ` · ${formatUsd(item.cost)}` : ''}
          {item.durationMs !== null ? ` · ${(item.durationMs / 1000).toFixed(1)} s` : ''}
          {item.error ? ` · ${item.error}` : ''}
        </div>
      )
    case 'note':
      return <div className="item note">{item.text}</div>
  }
}
