// The floors of src/ and which way imports may point (run by `npm run layers`, part of `npm test`).
// Lowest first: core → store, claude (the CLI driver, its transcript), sources → agents (the seam a
// driven session's agent sits behind, an adapter per agent, over claude/ for Claude Code) → the hub's logic, in
// rooms by job: hub/peers, hub/projects, hub/names under hub/core (the Hub: publishing, deliveries,
// leases) and hub/people (access, decisions, what people are told) → hub/outbound (outbound webhooks),
// hub/sessions (the sessions the hub drives), hub/terminals (sessions at terminals, through their
// hooks) → hub/http (the one app) and hub/bridges → hub/assemble.ts, hub/server.ts; beside the hub,
// client/ (what other processes use to reach it); on top, the surfaces: channel/, mcp/, cli/. Tests
// beside the code may import across floors.
// The dashboard (web/src) has rooms by feature over three shared folders (api/, lib/, ui/) and reaches
// into src/ only for core/: the wire's schemas and the words every surface uses.

/** An import from `from` to anything in src/ outside `allowed` (folders under src/) is refused. */
function floor(name, from, allowed, comment) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: `^src/${from}`, pathNot: '\\.test\\.ts$' },
    to: { path: '^src/', pathNot: `^src/(${allowed.join('|')})` },
  }
}

/** The hub's logic: what every part of the hub above it may use. */
const LOGIC = ['hub/core/', 'hub/people/', 'hub/names/', 'hub/projects/', 'hub/peers/']

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other cannot be read, tested or replaced one at a time.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    floor('core-is-the-floor', 'core/', ['core/'], 'core/ holds schemas and helpers every floor uses.'),
    floor('store-on-core', 'store/', ['core/', 'store/'], 'A store knows nothing of who uses it.'),
    floor('claude-driver-alone', 'claude/', ['core/', 'claude/'], 'claude/ drives the CLI; it knows no hub.'),
    floor('agents-drive-their-clis', 'agents/', ['core/', 'claude/', 'agents/'],
      'agents/ runs the coding agents a driven session may use, each behind one seam and speaking the one line model (Claude Code’s, from claude/); it knows no hub.'),
    floor('sources-on-store', 'sources/', ['core/', 'store/', 'sources/'], 'A source turns input into events.'),
    floor('peers-need-no-hub', 'hub/peers/', ['core/', 'store/', 'hub/peers/'],
      'Sessions talking to each other need of the hub only its store, its publishing and who is connected (a PeerHub, which the Hub is): the core holds them, and they never hold the core.'),
    floor('projects-from-the-folder', 'hub/projects/', ['core/', 'store/', 'hub/projects/'],
      'What project a session is comes from its folder (its git repository, its project file) and the routing setting, never from who asks: the core holds it, and the CLI reads a folder the same way.'),
    floor('names-below-the-core', 'hub/names/', ['core/', 'store/', 'hub/names/'],
      'What a session is called is read from the store and what the core tells it (who is connected here, which leases other hubs hold), handed in: the core holds the names, and they never hold the core.'),
    floor('hub-logic-knows-no-transport', 'hub/(core|people)/', ['core/', 'store/', ...LOGIC],
      'The hub’s logic is reached by transports and never reaches out to them. hub/core and hub/people are the one pair of rooms that use each other: the Hub holds the people’s parts (Access, Decisions, the outbox), and what acts through the Hub (answering, replies, the rows people see) takes it; no module reaches itself through the other (no-circular).'),
    floor('outbound-a-subscriber-inside', 'hub/outbound/', ['core/', 'store/', 'hub/core/', 'hub/outbound/'],
      'An outbound webhook takes its deliveries from the hub’s core like any subscriber, and nothing else of the hub knows it is one: only the one app (adding and removing one) and the server reach it.'),
    floor('sessions-above-hub-logic', 'hub/sessions/',
      ['core/', 'store/', 'claude/', 'agents/', ...LOGIC, 'hub/sessions/'],
      'The session controller drives the coding agents (agents/) for the hub; only transports and the server call it. It knows nothing of sessions at terminals (hub/terminals/): a driven session has no hooks.'),
    floor('terminals-beside-driven-sessions', 'hub/terminals/',
      ['core/', 'store/', 'claude/', ...LOGIC, 'hub/terminals/'],
      'Sessions a person runs at a terminal reach the hub through Claude Code’s hooks alone; the hub drives none of them, so nothing here reaches into the driven sessions (hub/sessions/). Only the one app and the server call it.'),
    floor('bridges-beside-transports', 'hub/bridges/',
      ['core/', 'store/', 'sources/', ...LOGIC, 'hub/bridges/'],
      'A chat bridge is a transport of its own: it carries a platform into the hub; only server.ts starts it.'),
    floor('routines-above-sessions', 'hub/routines/',
      ['core/', 'store/', 'claude/', 'sources/', ...LOGIC, 'hub/sessions/', 'hub/routines/'],
      'Routines start and steer driven sessions from events; only transports and the server call them.'),
    floor('one-app-over-the-hub', 'hub/http/',
      ['core/', 'store/', 'claude/', 'sources/', ...LOGIC, 'hub/outbound/', 'hub/sessions/', 'hub/terminals/',
        'hub/routines/', 'hub/http/'],
      'The one HTTP app carries requests into the hub; only server.ts serves it.'),
    floor('net-alone', 'hub/net/', ['core/', 'hub/net/'], 'TLS and the front door know no route.'),
    floor('server-puts-the-hub-together', 'hub/(server|assemble)\\.ts$',
      ['core/', 'store/', 'claude/', 'sources/', 'hub/'], 'The hub does not use the clients that reach it.'),
    {
      name: 'hub-logic-speaks-no-http',
      comment: 'The hub’s logic answers with domain errors and rows; HTTP is the one app’s (hub/http).',
      severity: 'error',
      from: {
        path: '^src/hub/(core|people|names|projects|peers|outbound|sessions|terminals|routines|bridges)/',
        pathNot: '\\.test\\.ts$',
      },
      to: { path: '^(http|https|http2)$|node_modules/(hono|@hono)/|^src/hub/http/' },
    },
    floor('client-not-hub-inside', 'client/', ['core/', 'claude/', 'store/store\\.ts$', 'client/'],
      'Processes that reach the hub from outside (channel, CLI, mcp) share no code with its inside.'),
    floor('channel-through-client', 'channel/', ['core/', 'claude/', 'client/', 'channel/'],
      'The channel runs inside Claude Code’s process and reaches the hub only through client/ (what it reads of Claude Code, its transcript, is claude/’s, which the hub reads too).'),
    floor('mcp-through-client', 'mcp/', ['core/', 'claude/', 'client/', 'mcp/'],
      '`switchboard mcp` drives sessions through the hub’s API.'),
    {
      name: 'client-store-types-only',
      comment: 'A client may name the records the API returns, never open a store.',
      severity: 'error',
      from: { path: '^src/client/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/store/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'nothing-imports-the-cli',
      comment: 'cli/ is the top floor.',
      severity: 'error',
      from: { path: '^src/(?!cli/)', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'dashboard-bundles-only-core',
      comment:
        'web/ is bundled into the page: core/ is what the browser shares with the hub (the API’s routes and rows, names, money); any other floor would pull the hub’s Node code into it.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'dashboard-shared-folders-know-no-feature',
      comment:
        'api/ (the hub), lib/ (addresses, times) and ui/ (small pieces) serve every page; a page’s room may change without them noticing.',
      severity: 'error',
      from: { path: '^web/src/(api|lib|ui)/' },
      to: { path: '^web/src/', pathNot: '^web/src/(api|lib|ui)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
