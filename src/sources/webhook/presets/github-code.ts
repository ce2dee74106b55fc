// The github preset's lines for code and what runs on it: pushes, branches and tags, commits'
// comments and statuses, checks, workflow runs and jobs, deployments, releases and packages. A run,
// a job or a check names its conclusion, and carries it as `conclusion` for a routine's filter.
import * as z from 'zod'
import {
  type Context,
  excerpt,
  happened,
  happenedHere,
  linked,
  named,
  outcome,
  place,
  read,
  refName,
  type Summarize,
  type Summary,
  short,
  who,
  words,
} from './github-lines.js'

const commit = z.object({ id: z.string(), message: z.string() })

const pushSchema = z.object({
  ref: z.string(),
  after: z.string().optional(),
  created: z.boolean().default(false),
  deleted: z.boolean().default(false),
  forced: z.boolean().default(false),
  compare: z.string().optional(),
  commits: z.array(commit).default([]),
  head_commit: commit.nullable().optional(),
})

function push(c: Context): Summary {
  const p = read(c, pushSchema)
  const ref = refName(p.ref)
  const n = p.commits.length
  const repo = place(c)
  const named = `${ref.kind} ${ref.name} of ${repo}`
  let content: string
  if (p.deleted) content = `${who(c)} deleted ${named}`
  else if (p.created && n === 0) content = `${who(c)} created ${named}`
  else {
    // "to main", but "to tag v2.4.0": a branch is what a push usually goes to.
    const to = ref.kind === 'branch' ? `${ref.name} of ${repo}` : named
    const head = p.head_commit ? `: ${excerpt(p.head_commit.message)}` : ''
    content = `${who(c)} ${p.forced ? 'force-pushed' : 'pushed'} ${n} commit${n === 1 ? '' : 's'} to ${to}${head}`
  }
  return {
    content,
    meta: { [ref.kind]: ref.name, commits: n, head: p.after, forced: p.forced, url: p.compare },
  }
}

const refSchema = z.object({ ref: z.string(), ref_type: z.string() })

/** create and delete: a branch or a tag made or removed, as a push that makes one says it. */
const refMade = (verb: string) => (c: Context) => {
  const p = read(c, refSchema)
  return {
    content: `${who(c)} ${verb} ${p.ref_type} ${p.ref} of ${place(c)}`,
    meta: { [p.ref_type === 'tag' ? 'tag' : 'branch']: p.ref },
  }
}

const commitCommentSchema = z.object({
  comment: z.object({
    commit_id: z.string(),
    body: z.string().nullish(),
    path: z.string().nullish(),
    html_url: z.string(),
  }),
})

function commitComment(c: Context): Summary {
  const { comment } = read(c, commitCommentSchema)
  const file = comment.path ? ` (${comment.path})` : ''
  return {
    content: linked(
      `${who(c)} commented on commit ${short(comment.commit_id)}${file} of ${place(c)}: ${excerpt(comment.body)}`,
      comment.html_url,
    ),
    meta: { head: comment.commit_id, path: comment.path, url: comment.html_url },
  }
}

const statusSchema = z.object({
  sha: z.string(),
  state: z.string(),
  context: z.string(),
  description: z.string().nullish(),
  target_url: z.string().nullish(),
  branches: z.array(named).default([]),
})

/** A commit status (CI outside GitHub Actions): its context, the commit and the state it reports. */
function status(c: Context): Summary {
  const p = read(c, statusSchema)
  const why = p.description ? ` (${excerpt(p.description)})` : ''
  // The branches that hold the commit; one of them is the one it was pushed to only when it is alone.
  const branch = p.branches.length === 1 ? p.branches[0]?.name : undefined
  return {
    content: linked(`status ${p.context} of ${short(p.sha)} in ${place(c)}: ${p.state}${why}`, p.target_url),
    meta: { context: p.context, state: p.state, head: p.sha, branch, url: p.target_url || undefined },
  }
}

const checkRunSchema = z.object({
  check_run: z.object({
    name: z.string(),
    head_sha: z.string(),
    status: z.string().nullable().optional(),
    conclusion: z.string().nullable().optional(),
    html_url: z.string().nullable().optional(),
    details_url: z.string().nullable().optional(),
    check_suite: z.object({ head_branch: z.string().nullable().optional() }).nullable().optional(),
    app: named.nullable().optional(),
    pull_requests: z.array(z.object({ number: z.number() })).optional(),
  }),
})

function checkRun(c: Context): Summary {
  const run = read(c, checkRunSchema).check_run
  const branch = run.check_suite?.head_branch
  const url = run.html_url ?? run.details_url
  return {
    content: linked(
      `check ${run.name} on ${branch ?? short(run.head_sha)} of ${place(c)} ${outcome(c.action, run.conclusion)}`,
      url,
    ),
    meta: {
      check: run.name,
      branch,
      head: run.head_sha,
      status: run.status,
      conclusion: run.conclusion,
      app: run.app?.name,
      // The pull request the check ran for (the first, when a commit heads several): its thread.
      pull_request: run.pull_requests?.[0]?.number,
      url,
    },
  }
}

const checkSuiteSchema = z.object({
  check_suite: z.object({
    head_branch: z.string().nullish(),
    head_sha: z.string(),
    status: z.string().nullish(),
    conclusion: z.string().nullish(),
    app: named.nullish(),
    pull_requests: z.array(z.object({ number: z.number() })).optional(),
  }),
})

function checkSuite(c: Context): Summary {
  const suite = read(c, checkSuiteSchema).check_suite
  const of = suite.app ? ` of ${suite.app.name}` : ''
  return {
    content: `check suite${of} on ${suite.head_branch ?? short(suite.head_sha)} of ${place(c)} ${outcome(c.action, suite.conclusion)}`,
    meta: {
      app: suite.app?.name,
      branch: suite.head_branch,
      head: suite.head_sha,
      status: suite.status,
      conclusion: suite.conclusion,
      pull_request: suite.pull_requests?.[0]?.number,
    },
  }
}

const workflowRunSchema = z.object({
  workflow_run: z.object({
    name: z.string().nullable().optional(),
    head_branch: z.string().nullable().optional(),
    head_sha: z.string(),
    status: z.string().nullable().optional(),
    conclusion: z.string().nullable().optional(),
    html_url: z.string(),
    run_number: z.number().optional(),
    run_attempt: z.number().optional(),
    event: z.string().optional(),
    display_title: z.string().optional(),
    pull_requests: z.array(z.object({ number: z.number() })).optional(),
  }),
  workflow: z.object({ name: z.string().optional(), path: z.string().optional() }).nullable().optional(),
})

function workflowRun(c: Context): Summary {
  const p = read(c, workflowRunSchema)
  const run = p.workflow_run
  // GitHub sends "" as the run's name for some runs: the workflow's own name says which it was.
  const name = run.name || p.workflow?.name || p.workflow?.path || 'run'
  const on = run.head_branch ?? short(run.head_sha)
  return {
    content: linked(
      `workflow ${name} on ${on} of ${place(c)} ${outcome(c.action, run.conclusion)}`,
      run.html_url,
    ),
    meta: {
      workflow: name,
      branch: run.head_branch,
      head: run.head_sha,
      status: run.status,
      conclusion: run.conclusion,
      run_number: run.run_number,
      run_attempt: run.run_attempt,
      trigger: run.event,
      run_title: run.display_title,
      pull_request: run.pull_requests?.[0]?.number,
      url: run.html_url,
    },
  }
}

const workflowJobSchema = z.object({
  workflow_job: z.object({
    name: z.string(),
    workflow_name: z.string().nullish(),
    head_branch: z.string().nullish(),
    head_sha: z.string(),
    status: z.string().nullish(),
    conclusion: z.string().nullish(),
    html_url: z.string().nullish(),
    run_id: z.number().optional(),
    run_attempt: z.number().optional(),
    runner_name: z.string().nullish(),
  }),
})

/** One job of a workflow run: the job, its workflow, where it ran and how it ended. */
function workflowJob(c: Context): Summary {
  const job = read(c, workflowJobSchema).workflow_job
  const of = job.workflow_name ? ` of workflow ${job.workflow_name}` : ''
  const on = job.head_branch ?? short(job.head_sha)
  return {
    content: linked(
      `job ${job.name}${of} on ${on} of ${place(c)} ${outcome(c.action, job.conclusion)}`,
      job.html_url,
    ),
    meta: {
      job: job.name,
      workflow: job.workflow_name,
      branch: job.head_branch,
      head: job.head_sha,
      status: job.status,
      conclusion: job.conclusion,
      run_id: job.run_id,
      run_attempt: job.run_attempt,
      runner: job.runner_name,
      url: job.html_url,
    },
  }
}

const workflowDispatchSchema = z.object({ workflow: z.string(), ref: z.string() })

function workflowDispatch(c: Context): Summary {
  const p = read(c, workflowDispatchSchema)
  const ref = refName(p.ref)
  return {
    content: `${who(c)} started workflow ${p.workflow} on ${ref.name} of ${place(c)}`,
    meta: { workflow: p.workflow, [ref.kind]: ref.name },
  }
}

const deploymentSchema = z.object({
  deployment: z.object({ environment: z.string(), ref: z.string(), sha: z.string().optional() }),
  workflow_run: z.object({ html_url: z.string() }).nullish(),
})

function deployment(c: Context): Summary {
  const p = read(c, deploymentSchema)
  const d = p.deployment
  return {
    content: linked(happenedHere(c, `deployment of ${d.ref} to ${d.environment}`), p.workflow_run?.html_url),
    meta: { environment: d.environment, ref: d.ref, head: d.sha, url: p.workflow_run?.html_url },
  }
}

const deploymentStatusSchema = z.object({
  deployment_status: z.object({
    state: z.string(),
    environment: z.string(),
    description: z.string().nullish(),
    target_url: z.string().nullish(),
    log_url: z.string().nullish(),
  }),
  deployment: z.object({ ref: z.string() }),
})

function deploymentStatus(c: Context): Summary {
  const p = read(c, deploymentStatusSchema)
  const s = p.deployment_status
  const url = s.log_url || s.target_url || undefined
  const why = s.description ? ` (${excerpt(s.description)})` : ''
  return {
    content: linked(
      `deployment of ${p.deployment.ref} to ${s.environment} in ${place(c)}: ${words(s.state)}${why}`,
      url,
    ),
    meta: { environment: s.environment, state: s.state, ref: p.deployment.ref, url },
  }
}

const deploymentReviewSchema = z.object({
  environment: z.string().optional(),
  workflow_job_runs: z.array(z.object({ environment: z.string().optional() })).optional(),
  workflow_run: z.object({ name: z.string().nullish(), html_url: z.string().optional() }).nullish(),
})

/** A deployment waiting on a person's review, or the review they gave. */
function deploymentReview(c: Context): Summary {
  const p = read(c, deploymentReviewSchema)
  const environment = p.environment ?? p.workflow_job_runs?.[0]?.environment
  const run = p.workflow_run?.name ? ` of workflow ${p.workflow_run.name}` : ''
  const to = environment ? ` to ${environment}` : ''
  return {
    content: linked(happenedHere(c, `deployment review${run}${to}`), p.workflow_run?.html_url),
    meta: { environment, workflow: p.workflow_run?.name, url: p.workflow_run?.html_url },
  }
}

const mergeGroupSchema = z.object({
  merge_group: z.object({
    base_ref: z.string(),
    head_sha: z.string(),
    head_commit: commit.partial().nullish(),
  }),
})

function mergeGroup(c: Context): Summary {
  const group = read(c, mergeGroupSchema).merge_group
  const base = refName(group.base_ref).name
  const head = group.head_commit?.message ? `: ${excerpt(group.head_commit.message)}` : ''
  return {
    content: `merge queue group for ${base} of ${place(c)} ${words(c.action)}${head}`,
    meta: { branch: base, head: group.head_sha },
  }
}

const pageBuildSchema = z.object({
  build: z.object({
    status: z.string(),
    commit: z.string().nullish(),
    error: z.object({ message: z.string().nullish() }).nullish(),
  }),
})

function pageBuild(c: Context): Summary {
  const { build } = read(c, pageBuildSchema)
  const error = build.error?.message ? `: ${excerpt(build.error.message)}` : ''
  return {
    content: `GitHub Pages build of ${place(c)} ${build.status}${error}`,
    meta: { status: build.status, head: build.commit },
  }
}

const releaseSchema = z.object({
  release: z.object({
    tag_name: z.string(),
    name: z.string().nullish(),
    html_url: z.string(),
    prerelease: z.boolean().optional(),
    draft: z.boolean().optional(),
  }),
})

function release(c: Context): Summary {
  const r = read(c, releaseSchema).release
  // A release is named by its tag; its own name too when it says more than the tag ("v2.4.0", "2.4.0").
  const titled = r.name && r.name.replace(/^v/, '') !== r.tag_name.replace(/^v/, '') ? ` (${r.name})` : ''
  return {
    content: linked(happenedHere(c, `release ${r.tag_name}${titled}`), r.html_url),
    meta: {
      tag: r.tag_name,
      release: r.name || undefined,
      prerelease: r.prerelease,
      draft: r.draft,
      url: r.html_url,
    },
  }
}

const packageSchema = z.object({
  package: z.object({
    name: z.string(),
    package_type: z.string().nullish(),
    html_url: z.string().nullish(),
    package_version: z.object({ version: z.string().nullish() }).nullish(),
  }),
})

function packaged(c: Context): Summary {
  const pkg = read(c, packageSchema).package
  const version = pkg.package_version?.version
  // A container's version is its digest: the name says enough.
  const shown = version && !version.startsWith('sha256:') ? ` ${version}` : ''
  return {
    content: linked(happenedHere(c, `package ${pkg.name}${shown}`), pkg.html_url),
    meta: { package: pkg.name, version, package_type: pkg.package_type, url: pkg.html_url },
  }
}

const forkSchema = z.object({ forkee: z.object({ full_name: z.string(), html_url: z.string().optional() }) })

function fork(c: Context): Summary {
  const { forkee } = read(c, forkSchema)
  return {
    content: linked(`${who(c)} forked ${place(c)} to ${forkee.full_name}`, forkee.html_url),
    meta: { fork: forkee.full_name, url: forkee.html_url },
  }
}

const gollumSchema = z.object({
  pages: z
    .array(z.object({ title: z.string(), action: z.string(), html_url: z.string().optional() }))
    .min(1, 'a wiki delivery names at least one page'),
})

/** Wiki pages created or edited (GitHub calls the wiki gollum). */
function gollum(c: Context): Summary {
  const { pages } = read(c, gollumSchema)
  const [page] = pages as [z.infer<typeof gollumSchema>['pages'][number]]
  const more = pages.length > 1 ? ` and ${pages.length - 1} more` : ''
  return {
    content: linked(
      happened(c.actor, page.action, `wiki page ${page.title}${more} of ${place(c)}`),
      page.html_url,
    ),
    meta: { page: page.title, pages: pages.length, url: page.html_url },
  }
}

export const CODE_LINES: [string, Summarize][] = [
  ['push', push],
  ['create', refMade('created')],
  ['delete', refMade('deleted')],
  ['commit_comment', commitComment],
  ['status', status],
  ['check_run', checkRun],
  ['check_suite', checkSuite],
  ['workflow_run', workflowRun],
  ['workflow_job', workflowJob],
  ['workflow_dispatch', workflowDispatch],
  ['deployment', deployment],
  ['deployment_status', deploymentStatus],
  ['deployment_review', deploymentReview],
  ['merge_group', mergeGroup],
  ['page_build', pageBuild],
  ['release', release],
  ['package', packaged],
  ['fork', fork],
  ['gollum', gollum],
]
