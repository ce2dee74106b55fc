// An answer to a decision, from any surface, by the decision's id or its five-letter code: a pairing
// request is approved or denied as a pairing; a prompt is answered as Decisions.answer does (the
// first answer wins; later ones are told who answered). Returns the decision as it stands after.
import { conflict, notFound } from '../../core/errors.js'
import type { RespondInput } from '../../core/session-api.js'
import type { Decision } from '../../store/store.js'
import type { Hub } from '../core/hub.js'

const CODE = /^[a-km-z]{5}$/

export async function answerDecision(
  hub: Hub,
  ref: string,
  answer: RespondInput,
  by: string,
): Promise<Decision> {
  const decision = CODE.test(ref)
    ? await hub.decisions.openPromptByCode(ref)
    : await hub.store.getDecision(ref)
  if (!decision)
    throw notFound(CODE.test(ref) ? `no open prompt "${ref}"; nothing was changed` : 'no such decision')
  if (decision.status !== 'open')
    throw conflict(`already ${decision.status}${decision.answeredBy ? ` by ${decision.answeredBy}` : ''}`)
  if (decision.kind === 'pairing') {
    if (answer.behavior === 'allow') await hub.access.approvePairing(decision.code, { by })
    else await hub.access.denyPairing(decision.code, by)
  } else {
    await hub.decisions.answer(decision, answer, by)
  }
  return (await hub.store.getDecision(decision.id)) ?? decision
}
