import fc from 'fast-check';
import { tokenPrefixes } from '../generate/authorization.js';
import { allowsWorkspace, hasScope, namedIdentities } from '../session/identities.js';
import type { Session } from '../session/session.js';
import type { ApiRequest, Exchange } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, type CheckContext, defineCheck } from './check.js';
import { expectStatus, is2xx, isTokenRejection } from './ruleViolation.js';
import { acceptedCreate, CLOUD_VM_NOT_CLEANED } from './sharedRequests.js';

/**
 * The run's accepted create, sent again with its X-Idempotency-Key and body by a caller who must
 * be refused. An idempotency layer placed in front of authentication answers its stored 202 to
 * anyone who repeats a key it has seen; every other request of the run carries a fresh key.
 */
interface Caller {
  readonly kind: string;
  /** The Authorization header, or null for none. */
  readonly authorization: string | null;
}

function withAuthorization(request: ApiRequest, authorization: string | null): ApiRequest {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'authorization'),
  );
  return { ...request, headers: authorization === null ? headers : { ...headers, authorization } };
}

async function replayedBy(
  t: CheckContext,
  callers: readonly Caller[],
  expected: (status: number) => boolean,
  expectedText: string,
): Promise<void> {
  t.requireMutations();
  if (callers.length === 0) return t.skip('the profile names no caller of this kind');
  const accepted: Exchange = await acceptedCreate(t.session, (vmId) =>
    t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED),
  );
  await t.check(
    fc.constantFrom(...callers),
    async (caller): Promise<CaseVerdict> => {
      if (!is2xx(accepted.response.status))
        return notApplicable(
          `the run's create answered ${accepted.response.status}, so there is no accepted X-Idempotency-Key to repeat`,
        );
      const exchange = await t.session.http.send(withAuthorization(accepted.request, caller.authorization));
      expectStatus(
        exchange,
        expected,
        `${expectedText} for ${caller.kind}, though the X-Idempotency-Key and body are those of a create the target accepted: a key repeated is a retry of that caller's request, not a credential`,
      );
      return observed;
    },
    { examples: callers, exhaustive: true, independent: true },
  );
}

/** Identities that may use the primary workspace but lack the create's scope. */
function lackingCreateScope(session: Session): Caller[] {
  const { scope } = session.operation('createCloudVm');
  const { primary } = session.profile.workspaces;
  return namedIdentities(session.profile)
    .filter((identity) => !hasScope(identity, scope) && allowsWorkspace(identity, primary))
    .map((identity) => ({
      kind: `identity ${identity.name}, which lacks ${scope}`,
      authorization: `Bearer ${identity.token}`,
    }));
}

const checks: Check[] = [
  defineCheck(
    'AUTH-1',
    "answers 401 to an accepted create's X-Idempotency-Key repeated without a token",
    (t) =>
      replayedBy(
        t,
        [
          { kind: 'a request without the Authorization header', authorization: null },
          { kind: 'an Authorization header of Bearer and no token', authorization: 'Bearer ' },
        ],
        (status) => status === 401,
        '401',
      ),
  ),
  defineCheck(
    'AUTH-2',
    "answers 401 to an accepted create's X-Idempotency-Key repeated with an unknown token",
    (t) =>
      replayedBy(
        t,
        [
          {
            kind: 'an unknown token',
            authorization: `Bearer ${tokenPrefixes[t.session.profile.environment]}conformance_unknown_replay`,
          },
        ],
        (status) => status === 401,
        '401',
      ),
  ),
  defineCheck(
    'AUTH-3',
    "rejects an accepted create's X-Idempotency-Key repeated with a revoked token (401 or 403)",
    (t) => {
      const revoked = t.session.profile.revokedToken;
      return replayedBy(
        t,
        revoked ? [{ kind: 'the revoked token', authorization: `Bearer ${revoked}` }] : [],
        isTokenRejection,
        'a rejection (401 or 403)',
      );
    },
  ),
  defineCheck(
    'SCOPE-1',
    "answers 403 to an accepted create's X-Idempotency-Key repeated by an identity lacking the create's scope",
    (t) => replayedBy(t, lackingCreateScope(t.session), (status) => status === 403, '403'),
  ),
];

/** The replayedKeys family's checks, in the order they run. */
export const replayedKeysChecks: readonly Check[] = checks;
