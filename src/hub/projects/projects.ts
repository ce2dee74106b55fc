// What project a session works in, and so what it gets (core/event.ts wants): the keys of its
// project (its repository, its folder; more its project file names), and its interest: `*` scoped to
// that project, plus the topics its project file asks for, or everything when the project or the
// hub's `routing` setting says so. Read from the folder the way project-identity.ts reads a request's
// folder (safely, asynchronously), a few seconds at most stale.
import { join } from 'node:path'
import { describeZod } from '../../core/errors.js'
import { folderKey, repoKey, type Scope } from '../../core/event.js'
import type { Logger } from '../../core/log.js'
import { PROJECT_FILE, type ProjectFile, projectFileSchema } from '../../core/project-file.js'
import { projectOf } from '../../core/session-name.js'
import type { SubscriberOptions } from '../../store/store.js'
import { type ProjectIdentity, projectIdentity, readSmallFile } from './project-identity.js'

/** A project file is read afresh at most this often per folder. */
const FRESH_MS = 5_000
const PROJECT_FILE_MAX = 64 * 1024

export interface Project extends ProjectIdentity {
  /** The keys events about it carry (repoKey, folderKey). */
  keys: string[]
  /** Its project file, when it has one that reads; null otherwise. */
  file: ProjectFile | null
  /** What is wrong with its project file, in one line; null when nothing is. */
  problem: string | null
}

/** What a subscriber registers with: its topics, what `*` means for it, its project's keys. */
export type Interest = Required<Pick<SubscriberOptions, 'scope' | 'keys'>> & { topics: string[] }

export class Projects {
  private readonly known = new Map<string, { at: number; project: Promise<Project> }>()

  constructor(
    private readonly log: Logger,
    /** The hub's `routing` setting: what `*` means for a session whose project does not say. */
    private readonly routing: () => Scope = () => 'project',
    private readonly look: (folder: string) => Promise<ProjectIdentity> = projectIdentity,
  ) {}

  /** The project `folder` is in. */
  of(folder: string): Promise<Project> {
    const now = Date.now()
    const known = this.known.get(folder)
    if (known && now - known.at < FRESH_MS) return known.project
    const project = this.read(folder)
    this.known.set(folder, { at: now, project })
    if (this.known.size > 1_000) this.known.delete(this.known.keys().next().value as string)
    return project
  }

  /**
   * What a session in `folder` subscribes with, given the topics it asked for (`*` unless it named
   * some): its project's keys, and its project file's topics besides. No folder: everything, as before.
   */
  async interest(folder: string | null | undefined, topics: string[] = ['*']): Promise<Interest> {
    if (!folder) return { topics, scope: 'everything', keys: [] }
    const project = await this.of(folder)
    const everything = project.file?.everything === true || this.routing() === 'everything'
    return {
      topics: [...new Set([...topics, ...(project.file?.topics ?? [])])],
      scope: everything ? 'everything' : 'project',
      keys: project.keys,
    }
  }

  private async read(folder: string): Promise<Project> {
    const identity = await this.look(folder)
    const root = identity.root ?? folder
    const text = await readSmallFile(join(root, PROJECT_FILE), PROJECT_FILE_MAX).catch(() => null)
    let file: ProjectFile | null = null
    let problem: string | null = null
    if (text !== null) {
      try {
        const parsed = projectFileSchema.safeParse(JSON.parse(text))
        if (parsed.success) file = parsed.data
        else problem = `${join(root, PROJECT_FILE)}: ${describeZod(parsed.error)}`
      } catch (err) {
        problem = `${join(root, PROJECT_FILE)}: not JSON (${(err as Error).message})`
      }
      if (problem)
        this.log.warn(
          { folder, problem },
          'a project file was not taken; its sessions get their project only',
        )
    }
    const keys = [...projectKeys(identity, folder), ...(file?.repositories ?? []).map(repoKey)]
    return { ...identity, keys: [...new Set(keys)], file, problem }
  }
}

/** The keys of the project `folder` is in: its repository's (from origin), and its top folder's. */
export function projectKeys(identity: ProjectIdentity, folder: string): string[] {
  const { repository } = identity
  return [
    folderKey(identity.root ?? folder),
    ...(repository ? [repoKey(`${repository.owner}/${repository.name}`)] : []),
  ]
}

/**
 * The project's name as usage and budgets count it (core/usage.ts): its repository's name, else its
 * top folder's last part, as every surface names a session's project (core/session-name.ts). A
 * routine's worktree is in its repository, so its runs count against the project they work on.
 */
export function projectName(identity: ProjectIdentity, folder: string): string | null {
  return identity.repository?.name ?? projectOf(identity.root ?? folder)
}
