// A routine (issue 25, docs/routines.md): a trigger, a filter and an action, with a key, a debounce
// window, a concurrency cap and a human gate. The one schema every surface checks a routine with,
// and the pure parts the hub runs on each event: the filter, templates, the key.
import * as z from 'zod'
import { agentChoiceSchema, agentOptionsProblem } from './agent-options.js'
import { claudeOptionsSchema } from './claude-options.js'
import { knownTimeZone, parseCron } from './cron.js'
import type { StoredEvent } from './event.js'
import { topicSchema } from './hub-protocol.js'
import { unaskedPermissionModes } from './permission-modes.js'

export const ROUTINE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/
export const routineNameSchema = z
  .string()
  .regex(ROUTINE_NAME, 'a routine name is 1-64 lowercase letters, digits or . _ - (first a letter or digit)')

/** The subscriber a routine's events are delivered to. */
export const routineSubscriber = (name: string) => `routine:${name}`

const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/
const MAX_DEPTH = 8
export const pathSchema = z
  .string()
  .refine(
    (p) => p.split('.').length <= MAX_DEPTH && p.split('.').every((s) => SEGMENT.test(s)),
    `a path is up to ${MAX_DEPTH} dot-separated names of letters, digits, _ or - (meta.branch)`,
  )

const scalar = z.union([z.string().max(500), z.number(), z.boolean()])

const conditionSchema = z
  .object({
    path: pathSchema,
    equals: scalar.optional(),
    oneOf: z.array(scalar).min(1).max(100).optional(),
    glob: z.string().min(1).max(200).optional(),
    gt: z.number().optional(),
    gte: z.number().optional(),
    lt: z.number().optional(),
    lte: z.number().optional(),
    exists: z.boolean().optional(),
  })
  .strict()
  .refine(
    (c) => TESTS.filter((t) => c[t] !== undefined).length === 1,
    `a condition has a path and exactly one of ${'equals, oneOf, glob, gt, gte, lt, lte, exists'}`,
  )
const TESTS = ['equals', 'oneOf', 'glob', 'gt', 'gte', 'lt', 'lte', 'exists'] as const
export type Condition = z.infer<typeof conditionSchema>

/** `{{path}}` placeholders and text; a placeholder's path is checked as a filter's is. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g
const templateSchema = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max)
    .superRefine((t, ctx) => {
      for (const [, path] of t.matchAll(PLACEHOLDER))
        if (!pathSchema.safeParse(path).success)
          ctx.addIssue({ code: 'custom', message: `{{${path}}} is not a path into the event (meta.branch)` })
    })

const absolute = z.string().startsWith('/', 'must be an absolute path')

/** A fresh `git worktree` of `repo` per run, on a new branch; removed when the run ends, by `cleanup`. */
const worktreeSchema = z
  .object({
    repo: absolute,
    /** A template (as the key's); default `routine/<name>/<run id>`. */
    branch: templateSchema(200).optional(),
    cleanup: z.enum(['always', 'on-success', 'never']).default('on-success'),
  })
  .strict()

const startSchema = z
  .object({
    kind: z.literal('start'),
    /** The coding agent the session runs (a driven one): Claude Code unless another is named. */
    agent: agentChoiceSchema.default('claude'),
    folder: absolute.optional(),
    worktree: worktreeSchema.optional(),
    prompt: templateSchema(20_000),
    model: claudeOptionsSchema.shape.model,
    permissionMode: claudeOptionsSchema.shape.permissionMode,
    allowedTools: claudeOptionsSchema.shape.allowedTools,
    disallowedTools: claudeOptionsSchema.shape.disallowedTools,
    maxTurns: claudeOptionsSchema.shape.maxTurns,
    maxBudgetUsd: claudeOptionsSchema.shape.maxBudgetUsd,
    /** Lets the routine start sessions whose tools run without asking (see preApprovals). */
    allowPreApproval: z.boolean().optional(),
    /** The run's end is also a comment on the GitHub issue or pull request its first event is about. */
    commentOnGitHub: z.boolean().optional(),
  })
  .strict()

const deliverSchema = z.object({ kind: z.literal('deliver'), session: z.string().min(1).max(100) }).strict()

export const routineSpecSchema = z
  .object({
    name: routineNameSchema,
    trigger: z.discriminatedUnion('kind', [
      z
        .object({
          kind: z.literal('events'),
          topics: z.array(topicSchema).min(1, 'name at least one topic').max(20),
          peer: z.boolean().optional(),
        })
        .strict(),
      z.object({ kind: z.literal('manual') }).strict(),
      z
        .object({
          kind: z.literal('schedule'),
          cron: z.string().superRefine((text, ctx) => {
            try {
              parseCron(text)
            } catch (err) {
              ctx.addIssue({ code: 'custom', message: (err as Error).message })
            }
          }),
          timeZone: z
            .string()
            .refine(knownTimeZone, 'not a time zone this system knows (e.g. Europe/Berlin, UTC)')
            .default('UTC'),
          /** A minute it named while no hub held it: `skip` it, or run `once` for the latest one missed. */
          missed: z.enum(['skip', 'once']).default('skip'),
        })
        .strict(),
    ]),
    filter: z.array(conditionSchema).max(32).default([]),
    key: templateSchema(500).optional(),
    debounceSeconds: z.number().int().min(0).max(86_400).default(0),
    concurrency: z.number().int().min(1).max(100).default(1),
    gate: z.boolean().default(false),
    action: z.discriminatedUnion('kind', [startSchema, deliverSchema]),
  })
  .strict()
  .superRefine((spec, ctx) => {
    if (spec.action.kind !== 'start') return
    if ((spec.action.folder === undefined) === (spec.action.worktree === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['action'],
        message: 'give the session a folder or a worktree (one of the two)',
      })
    // What the agent cannot honour is refused with the routine, not at its first run.
    const problem = agentOptionsProblem(spec.action.agent, sessionOptionsOf(spec.action))
    if (problem) ctx.addIssue({ code: 'custom', path: ['action', 'agent'], message: problem })
    if (spec.action.allowPreApproval) return
    const asked = preApprovals(spec.action)
    if (asked.length)
      ctx.addIssue({
        code: 'custom',
        path: ['action'],
        message: `${asked.join(', ')}: tools would run without asking; add it with --allow-pre-approval (allowPreApproval: true)`,
      })
  })
export type RoutineSpec = z.output<typeof routineSpecSchema>
export type RoutineInput = z.input<typeof routineSpecSchema>
export type StartAction = z.output<typeof startSchema>

/** Where a start action's session runs, in words: its folder, or a new worktree of its repository. */
export function startFolderText(action: StartAction): string {
  return action.folder ?? `a new worktree of ${action.worktree?.repo}`
}
export type WorktreeSpec = z.output<typeof worktreeSchema>

/** A branch name git takes, from a rendered template: anything else becomes `-`. */
export function branchName(text: string): string {
  const name = text
    .replace(/[^A-Za-z0-9._/-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/\/{2,}/g, '/')
    .replace(/(^[-./]+)|([-./]+$)/g, '')
    .replace(/\.lock(\/|$)/g, '-lock$1')
    .slice(0, 200)
  return name || 'routine'
}

/** The session options a start action gives its session (its folder aside). */
export function sessionOptionsOf(a: StartAction) {
  return {
    model: a.model,
    permissionMode: a.permissionMode,
    allowedTools: a.allowedTools,
    disallowedTools: a.disallowedTools,
    maxTurns: a.maxTurns,
    maxBudgetUsd: a.maxBudgetUsd,
  }
}

/** What of an action lets its session run tools unasked (the MCP driver refuses the same). */
export function preApprovals(a: StartAction): string[] {
  const found: string[] = []
  if (a.permissionMode && unaskedPermissionModes.has(a.permissionMode))
    found.push(`permissionMode ${a.permissionMode}`)
  if (a.allowedTools?.length) found.push('allowedTools')
  return found
}

/** Every problem with a routine, one line each (path: message); empty when it is fine. */
export function routineProblems(input: unknown): string[] {
  const parsed = routineSpecSchema.safeParse(input)
  if (parsed.success) return []
  return parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
}

// --- the event as the filter and templates see it -------------------------------------------------

/**
 * Ends every comment a routine posts on GitHub; the github preset ignores a comment carrying it, so
 * a routine on comments is not started again by its own answer.
 */
export const POSTED_BY_SWITCHBOARD = '<!-- posted by switchboard -->'

/**
 * The GitHub issue or pull request an event of the github preset is about, as `owner/repo#12`: a
 * pull request's, an issue's or a comment's number, or the pull request a check ran for.
 */
export function githubThreadOf(event: Pick<StoredEvent, 'meta'>): string | null {
  const { github_event, repository, pull_request, number } = event.meta
  const n = pull_request ?? number
  const named = repository?.split('/') ?? []
  // Owner and name as GitHub spells them; `.` or `..` would move the comment's URL elsewhere.
  const fits = named.length === 2 && named.every((part) => /^[\w.-]+$/.test(part) && !/^\.\.?$/.test(part))
  if (!github_event || !n || !/^\d+$/.test(n) || !fits) return null
  return `${repository}#${n}`
}

/** The event as a JSON document: its fields, and `body`, its content parsed when it is JSON. */
export function eventDocument(event: StoredEvent): Record<string, unknown> {
  const doc: Record<string, unknown> = { ...event }
  const content = event.content.trimStart()
  if (content.startsWith('{') || content.startsWith('['))
    try {
      doc.body = JSON.parse(event.content)
    } catch {
      // not JSON after all: no body
    }
  return doc
}

/** The value at `path`, own properties only; undefined when there is none. */
export function valueAt(doc: unknown, path: string): unknown {
  let at: unknown = doc
  for (const segment of path.split('.')) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, segment)) return undefined
    at = (at as Record<string, unknown>)[segment]
  }
  return at
}

function globMatches(glob: string, value: string): boolean {
  const re = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
  return new RegExp(`^${re}$`, 's').test(value)
}

function asNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v)
  return null
}

/** A scalar equals the value when they are equal as given, or as numbers (meta holds strings only). */
function same(want: string | number | boolean, v: unknown): boolean {
  if (want === v) return true
  if (typeof want === 'number') return asNumber(v) === want
  if (typeof want === 'boolean') return v === String(want)
  return false
}

export function conditionHolds(c: Condition, doc: unknown): boolean {
  const v = valueAt(doc, c.path)
  if (c.exists !== undefined) return (v !== undefined && v !== null) === c.exists
  if (c.equals !== undefined) return same(c.equals, v)
  if (c.oneOf !== undefined) return c.oneOf.some((w) => same(w, v))
  if (c.glob !== undefined) return typeof v === 'string' && globMatches(c.glob, v)
  const n = asNumber(v)
  if (n === null) return false
  if (c.gt !== undefined) return n > c.gt
  if (c.gte !== undefined) return n >= c.gte
  if (c.lt !== undefined) return n < c.lt
  if (c.lte !== undefined) return n <= c.lte
  return false
}

/** The first condition that does not hold (for a dry run to say why), or null when all do. */
export function failedCondition(filter: Condition[], doc: unknown): Condition | null {
  return filter.find((c) => !conditionHolds(c, doc)) ?? null
}

// --- templates ------------------------------------------------------------------------------------

const MAX_FIELD = 200
const escaped = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** A field's value on one line, capped ('' for none): what a key is made of. */
function fieldLine(v: unknown): string {
  if (v === undefined || v === null) return ''
  const s = typeof v === 'string' ? v : JSON.stringify(v)
  return s.replace(/\s+/g, ' ').trim().slice(0, MAX_FIELD)
}

/** A field's value as a prompt's template puts it in: one line, capped, escaped (its quotes too); untrusted, so never bare. */
function fieldText(v: unknown): string {
  return escaped(fieldLine(v))
}

/** Fills `{{path}}` from the event's document, each value quoted ("…"). */
export function renderTemplate(template: string, doc: unknown): string {
  return template.replace(PLACEHOLDER, (_, path: string) => `"${fieldText(valueAt(doc, path))}"`)
}

/**
 * The run key of an event: the key template filled without quotes ("" when the routine has none).
 * Not escaped: a key is compared, stored and shown, never read by Claude as a prompt is, and every
 * surface that shows it (the dashboard, a chat's markup, the CLI) escapes it for itself; escaped
 * here, it was shown as `&quot;`.
 */
export function runKey(spec: Pick<RoutineSpec, 'key'>, doc: unknown): string {
  if (!spec.key) return ''
  return spec.key.replace(PLACEHOLDER, (_, path: string) => fieldLine(valueAt(doc, path))).slice(0, 500)
}

// --- runs, as the store keeps them and every surface shows them -------------------------------------

export type RunState = 'pending' | 'gated' | 'starting' | 'running' | 'done' | 'failed' | 'stopped'
/** A run in these states has not ended: it waits for its due time or a slot, or is under way. */
export const OPEN_RUN_STATES: readonly RunState[] = ['pending', 'gated', 'starting', 'running']
/** A run in these states holds a slot; at most one per (routine, key), and one pending besides. */
export const UNDER_WAY_RUN_STATES: readonly RunState[] = ['gated', 'starting', 'running']

/**
 * The open runs of its key an event joins, by their state. A gated routine's run takes events only
 * while pending: its gate shows operators the events it has, and their answer covers those alone,
 * so an event that comes later is the next run of its key (behind the one under way, with a gate of
 * its own), never one more event for a session nobody approved it for. Without a gate, an event
 * joins whatever run of its key is open, and one under way is sent it.
 */
export const joinableStates = (spec: Pick<RoutineSpec, 'gate'>): readonly RunState[] =>
  spec.gate ? ['pending'] : OPEN_RUN_STATES

export interface RoutineRun {
  id: string
  routine: string
  key: string
  state: RunState
  /** What made it: an event of the routine's trigger, its schedule, a person (`routine fire`), or a replay. */
  trigger: 'event' | 'schedule' | 'manual' | 'replay'
  /** The driven session it starts (given before its CLI is spawned), or delivers to. */
  sessionId: string | null
  /** The gate's decision, while and after it is asked. */
  decisionId: string | null
  /** It may start from then on (debounce). */
  dueAt: number
  events: number
  costUsd: number
  turns: number
  reason: string | null
  createdAt: number
  startedAt: number | null
  endedAt: number | null
}

export interface RoutineView {
  name: string
  spec: RoutineSpec
  paused: boolean
  createdAt: number
  updatedAt: number
}

/** A routine as added: with what in it will not work as written until something else is set. */
export interface AddedRoutine extends RoutineView {
  warnings: string[]
}

/** What `routine test` says an event would do, without doing it. */
export interface DryRun {
  /** The event tried: the one given, or the one a webhook body made under its source's preset; null: it made none. */
  event: { topic: string; source: string; content: string; meta: Record<string, string> } | null
  matched: boolean
  /** Why it does not match: the first condition that fails, as JSON. */
  why: string | null
  key: string
  /** The open run of that key it would join, or null: a new run. */
  joins: string | null
  gate: boolean
  /** What the started session would be told (a start action), or where it would go (deliver). */
  prompt: string | null
  deliverTo: string | null
  folder: string | null
}
