// A folder path that a narrow screen breaks after a separator (`/home/ann/` `work/api`), never in the
// middle of a name.
import { Fragment } from 'react'

export function FolderPath({ path, className = 'mono' }: { path: string; className?: string }) {
  const parts = path.split(/(?<=[/\\])/)
  return (
    <span className={`${className} folder-path`}>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one path, in order, never reordered
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </span>
  )
}
