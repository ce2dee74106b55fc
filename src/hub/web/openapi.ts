// The hub's HTTP API as an OpenAPI 3.1 document, its bodies generated from the same zod schemas the
// hub checks them with, served at /openapi.json.
import { z } from 'zod'
import {
  answerSchema,
  chatMessageSchema,
  messageSchema,
  newRuleSchema,
  newSessionSchema,
  resumeSchema,
  senderChangeSchema,
  signinSchema,
} from '../../core/dashboard-api.js'
import { VERSION } from '../../core/version.js'

const json = (schema: z.ZodType) => ({
  content: { 'application/json': { schema: z.toJSONSchema(schema, { io: 'input' }) } },
})
const ok = (description: string) => ({ description })
const browser = [{ browser: [] }]
const admin = [{ admin: [] }]

export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Switchboard hub', version: VERSION },
    components: {
      securitySchemes: {
        browser: {
          type: 'http',
          scheme: 'bearer',
          description: 'a signed-in browser’s key (POST /api/signin)',
        },
        admin: { type: 'http', scheme: 'bearer', description: 'the home’s admin-token' },
        sender: { type: 'http', scheme: 'bearer', description: 'a sender’s token' },
        source: { type: 'http', scheme: 'bearer', description: 'a webhook source’s secret (or a signature)' },
      },
    },
    paths: {
      '/health': { get: { responses: { 200: ok('the hub answers') } } },
      '/hooks/{source}': {
        post: { security: [{ source: [] }], responses: { 202: ok('stored'), 200: ok('a duplicate') } },
      },
      '/messages': {
        post: {
          security: [{ sender: [] }],
          responses: { 202: ok('stored'), 200: ok('a verdict or duplicate') },
        },
      },
      '/events': {
        get: { security: [{ sender: [] }], responses: { 200: ok('the sender’s replies and prompts (SSE)') } },
      },
      '/pair': { post: { responses: { 201: ok('a pairing code and a waiting token') } } },
      '/signin': { get: { responses: { 200: ok('the page, which spends ?token= at /api/signin') } } },
      '/api/signin': {
        post: {
          requestBody: json(signinSchema),
          responses: { 201: ok('the browser’s key'), 401: ok('the link was used or has expired') },
        },
      },
      '/api/signout': { post: { security: browser, responses: { 200: ok('the key stops working') } } },
      '/api/browsers': { get: { security: browser, responses: { 200: ok('the browsers signed in') } } },
      '/api/browsers/{name}': { delete: { security: browser, responses: { 200: ok('signed out') } } },
      '/api/me': { get: { security: browser, responses: { 200: ok('who is signed in') } } },
      '/api/sessions': {
        get: { security: browser, responses: { 200: ok('driven sessions') } },
        post: { security: browser, requestBody: json(newSessionSchema), responses: { 201: ok('started') } },
      },
      '/api/sessions/{id}': { get: { security: browser, responses: { 200: ok('one session') } } },
      '/api/sessions/{id}/lines': {
        get: {
          security: browser,
          responses: {
            200: ok(
              'a page of its lines after ?after=<seq> (?limit=, at most 2000): { lines, next }, next being the after of the following page or null',
            ),
          },
        },
      },
      '/api/sessions/{id}/stream': {
        get: {
          security: browser,
          responses: { 200: ok('its lines, live, and the text being written (SSE)') },
        },
      },

      '/api/sessions/{id}/messages': {
        post: { security: browser, requestBody: json(messageSchema), responses: { 202: ok('sent') } },
      },
      '/api/sessions/{id}/interrupt': { post: { security: browser, responses: { 200: ok('interrupted') } } },
      '/api/decisions': { get: { security: browser, responses: { 200: ok('open decisions') } } },
      '/api/feed': {
        get: { security: browser, responses: { 200: ok('decision changes and turn ends (SSE)') } },
      },
      '/api/decisions/{id}': {
        post: {
          security: browser,
          requestBody: json(answerSchema),
          responses: { 200: ok('answered'), 409: ok('answered elsewhere first') },
        },
      },
      '/api/rules': {
        get: { security: browser, responses: { 200: ok('the always-allow rules') } },
        post: {
          security: browser,
          requestBody: json(newRuleSchema),
          responses: { 201: ok('made, and the prompt allowed') },
        },
      },
      '/api/rules/{id}': { delete: { security: browser, responses: { 200: ok('revoked') } } },
      '/api/history': {
        get: {
          security: browser,
          responses: { 200: ok('Claude Code sessions on this machine and the hub’s') },
        },
      },
      '/api/history/{claudeSessionId}/resume': {
        post: {
          security: browser,
          requestBody: json(resumeSchema),
          responses: { 201: ok('a driven session resuming it') },
        },
      },
      '/api/channels': {
        get: { security: browser, responses: { 200: ok('channel sessions and their backlog') } },
      },
      '/api/access': { get: { security: browser, responses: { 200: ok('senders and pairing requests') } } },
      '/api/access/{name}': {
        post: { security: browser, requestBody: json(senderChangeSchema), responses: { 200: ok('changed') } },
      },
      '/api/chat': {
        post: { security: browser, requestBody: json(chatMessageSchema), responses: { 202: ok('stored') } },
      },
      '/api/chat/stream': { get: { security: browser, responses: { 200: ok('Claude’s replies (SSE)') } } },
      '/api/events': {
        get: { security: browser, responses: { 200: ok('stored events, searched, newest first') } },
      },
      '/api/sources': { get: { security: browser, responses: { 200: ok('webhook sources (no secrets)') } } },
      '/api/outbound': { get: { security: browser, responses: { 200: ok('outbound webhooks') } } },
      '/api/outbound/{name}/log': { get: { security: browser, responses: { 200: ok('its delivery log') } } },
      '/api/peers': { get: { security: browser, responses: { 200: ok('peers and rooms') } } },
      '/api/health': { get: { security: browser, responses: { 200: ok('the hub’s health') } } },
      '/sessions': { get: { security: admin, responses: { 200: ok('sessions (the admin API)') } } },
      '/status': { get: { security: admin, responses: { 200: ok('the hub’s status') } } },
    },
  }
}
