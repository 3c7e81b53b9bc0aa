import { operationRequest } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import type { Exchange } from '../transport/exchange.js';
import { isInvalidRequestRefusal } from './ruleViolation.js';

/**
 * The suite's valid NAT rule update, and its only read of a rule, is the empty partial update
 * `{}`. The document makes every field optional but, unlike enable-backups ("an empty object is
 * valid"), does not say an update naming no field is valid (A-NAT-UPDATE-EMPTY-BODY): a target
 * may refuse it with 400 or 422. Then no request built on it is an otherwise valid request, and
 * what it is answered shows nothing about the rule a check was after.
 *
 * Whether the target refuses it is asked once per run, keyed by the run's profile (a provision
 * command gives each run one of its own).
 */
const refusedBy = new WeakMap<object, Promise<boolean>>();

/** Sent once per run, and only when a case would fail on an empty update refused as invalid. */
function emptyUpdateRefused(session: Session): Promise<boolean> {
  const known = refusedBy.get(session.profile);
  if (known) return known;
  const asked = session.http
    .send(
      operationRequest(session.operation('updateNatPortForwardingRule'), session, 'positive', { body: '{}' }),
    )
    .then(
      (plain) => isInvalidRequestRefusal(plain.response.status),
      () => {
        // No answer (a stopped check): not known, so asked again next time.
        refusedBy.delete(session.profile);
        return false;
      },
    );
  refusedBy.set(session.profile, asked);
  return asked;
}

const isEmptyUpdate = (exchange: Exchange): boolean =>
  exchange.request.method === 'PATCH' && (exchange.request.body ?? '').trim() === '{}';

/**
 * Why a violation seen on `exchange` is no evidence, when it is an empty NAT rule update answered
 * 400 or 422 by a target that refuses the plain empty update too; else undefined.
 */
export async function emptyUpdateNotValidHere(
  session: Session,
  exchange: Exchange | undefined,
): Promise<string | undefined> {
  if (!exchange || !isEmptyUpdate(exchange) || !isInvalidRequestRefusal(exchange.response.status))
    return undefined;
  if (!(await emptyUpdateRefused(session))) return undefined;
  return `the target refuses an empty NAT rule update with ${exchange.response.status} even when it is otherwise valid (the document does not say an update naming no field is valid: A-NAT-UPDATE-EMPTY-BODY), so the answer to ${exchange.request.method} ${exchange.request.path} shows nothing here`;
}
