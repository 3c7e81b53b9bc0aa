import fc from 'fast-check';
import { cloudVmBody, cloudVmBodyPerPlan, newVmName } from '../generate/cloudVmBody.js';
import { operationRequest } from '../generate/operationRequest.js';
import {
  allowsWorkspace,
  hasScope,
  identitiesWith,
  namedIdentities,
  namedWorkspaces,
} from '../session/identities.js';
import { type Exchange, headerValue } from '../transport/exchange.js';
import { acceptanceIds } from './acceptanceRecord.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, type CheckContext, defineCheck } from './check.js';
import {
  expectErrorDetail,
  expectJsonObject,
  expectStatus,
  is2xx,
  isTokenRejection,
  RuleViolation,
} from './ruleViolation.js';
import { acceptedCreate, CLOUD_VM_NOT_CLEANED, sentUntilSettled } from './sharedRequests.js';

const checks: Check[] = [];

const noScopeRefusal = (name: string) =>
  `no 401/403: identity "${name}" holds vm.write, the only scope a create needs`;

/**
 * What a naive gateway might take from a create body instead of deciding itself: the decision a
 * console passed along, or the "wallet balances, credit limits or other billing state" the
 * document says callers do not send. The names are guesses (none is shown); a correct gateway
 * refuses the denied create whatever the body says, so no name can fail a correct one.
 */
const CLAIMED_BILLING_STATE = {
  billing_decision: { allowed: true },
  billing: { allowed: true },
  eligibility: { allowed: true },
  billing_allowed: true,
  wallet_balance: 1_000_000,
  credit_limit: 1_000_000,
} as const;

/**
 * A target that refuses every create would pass a refusal check: a refusal in the denied
 * workspace is billing's only if the same create is accepted where the decision allows it (the
 * run's one create, in the primary workspace). Undefined when it was.
 */
async function refusalNotShownToBeBilling(t: CheckContext, what: string): Promise<CaseVerdict | undefined> {
  const allowed = await acceptedCreate(t.session, (vmId) =>
    t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED),
  );
  return is2xx(allowed.response.status)
    ? undefined
    : notApplicable(
        `the same create in the primary workspace answered ${allowed.response.status} too, so ${what} not shown to come from the billing decision`,
      );
}

checks.push(
  defineCheck(
    'BILL-7',
    'the preflight answers a decision with a boolean allowed (denied workspace: false)',
    async (t) => {
      const session = t.session;
      const { billingDenied } = session.profile.workspaces;
      const op = session.operation('checkResourceEligibility');
      const workspaces = namedWorkspaces(session.profile);
      await t.check(
        fc.constantFrom(...workspaces),
        async (workspace) => {
          const exchange = await session.http.send(
            operationRequest(op, session, 'positive', { workspaceId: workspace }),
          );
          expectStatus(exchange, is2xx, 'a 2xx decision');
          const decision = expectJsonObject(exchange, 'a decision object');
          if (typeof decision.allowed !== 'boolean')
            throw new RuleViolation(
              `decision.allowed is ${JSON.stringify(decision.allowed)}, expected a boolean`,
              exchange,
            );
          if (workspace === billingDenied && decision.allowed !== false) {
            throw new RuleViolation(
              `workspace ${workspace} is the profile's billingDenied workspace but the decision allows creation`,
              exchange,
            );
          }
          return observed;
        },
        { examples: workspaces, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck('BILL-5', 'the preflight answers 403 to an identity without billing.read', async (t) => {
    const session = t.session;
    const { primary } = session.profile.workspaces;
    const lacking = namedIdentities(session.profile).filter(
      (id) => !hasScope(id, 'billing.read') && allowsWorkspace(id, primary),
    );
    if (lacking.length === 0) return t.skip('profile has no identity lacking billing.read');
    await t.check(
      fc.constantFrom(...lacking),
      async (identity) => {
        const exchange = await session.http.send(
          operationRequest(session.operation('checkResourceEligibility'), session, 'probe', {
            token: identity.token,
          }),
        );
        expectStatus(exchange, (s) => s === 403, `403: identity "${identity.name}" lacks billing.read`);
        return observed;
      },
      { examples: lacking, independent: true },
    );
  }),
);

checks.push(
  defineCheck('BILL-5', 'a create needs only vm.write, not billing.read', async (t) => {
    t.requireMutations();
    const session = t.session;
    const { primary } = session.profile.workspaces;
    const writers = namedIdentities(session.profile).filter(
      (id) => hasScope(id, 'vm.write') && !hasScope(id, 'billing.read') && allowsWorkspace(id, primary),
    );
    if (writers.length === 0) return t.skip('profile has no identity holding vm.write without billing.read');
    await t.check(
      fc.constantFrom(...writers),
      async (identity) => {
        const create = async () => {
          const exchange = await session.http.send(
            operationRequest(session.operation('createCloudVm'), session, 'probe', { token: identity.token }),
          );
          const vmId = (exchange.response.json as { vm_id?: unknown } | undefined)?.vm_id;
          if (is2xx(exchange.response.status) && typeof vmId === 'string')
            t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED);
          return exchange;
        };
        const first = await create();
        expectStatus(first, (s) => !isTokenRejection(s), noScopeRefusal(identity.name));
        const { status } = first.response;
        if (is2xx(status)) return observed;
        if (status === 429) return notApplicable('the create was answered 429 Too Many Requests');
        // Refused otherwise (a 5xx, a 400): a gateway asking billing with the caller's own token
        // fails there, in words the document does not give. The same create accepted for the
        // broadest identity, and this identity's refused again and again, shows the refusal is
        // the token's: a create needs only the product write scope.
        const broadest = await acceptedCreate(session, (vmId) =>
          t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED),
        );
        if (!is2xx(broadest.response.status))
          return notApplicable(
            `the create answered ${status}, and ${broadest.response.status} to the broadest identity too: neither accepted nor refused for scope`,
          );
        const again = [
          first,
          ...(await sentUntilSettled(create, (s) => is2xx(s) || isTokenRejection(s) || s === 429, t.signal)),
        ];
        const last = again.at(-1) as Exchange;
        expectStatus(last, (s) => !isTokenRejection(s), noScopeRefusal(identity.name));
        if (is2xx(last.response.status)) return observed;
        if (last.response.status === 429)
          return notApplicable('the create was answered 429 Too Many Requests');
        throw new RuleViolation(
          `${again.length} creates for identity "${identity.name}", which holds vm.write without billing.read, were answered ${again.map((a) => a.response.status).join(', ')}, while the same create was accepted (${broadest.response.status}) for the broadest identity: a create needs only the product write scope, since the gateway makes its own billing decision`,
          last,
        );
      },
      { maxRuns: 1 },
    );
  }),
);

checks.push(
  defineCheck(
    'BILL-6',
    'the gateway refuses a billable create in a workspace whose decision is denied',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const denied = session.profile.workspaces.billingDenied;
      if (!denied) return t.skip('profile has no workspaces.billingDenied');
      const identities = identitiesWith(session.profile, 'vm.write', denied);
      if (identities.length === 0)
        return t.skip(`profile has no identity holding vm.write on workspace ${denied}`);
      // The gateway's decision is its own. A client's create is refused in each plan the run uses
      // (a gateway that lets through what its billing client cannot price, an unknown SKU answered
      // as an error, not a denial, is found by varying it); so is a create carrying the decision a
      // client was given (what a naive gateway reads from the body), one carrying the billing state
      // the document says callers do not send, under the names a create model would give it, and
      // one repeating the
      // X-Idempotency-Key of a create accepted in the primary workspace (a gateway that remembers
      // forwarded keys without their workspace takes it for a retry).
      const ways: { readonly body: string; readonly planBody?: Record<string, unknown> }[] = [
        ...cloudVmBodyPerPlan(session.profile).map((planBody) => ({
          body: `as a client sends it (plan_id ${JSON.stringify(planBody.plan_id)})`,
          planBody,
        })),
        { body: 'carrying "allowed": true', planBody: { ...cloudVmBody(session.profile), allowed: true } },
        {
          body: 'carrying billing state a client may hold (billing_decision, billing, eligibility, wallet_balance, credit_limit)',
          planBody: { ...cloudVmBody(session.profile), ...CLAIMED_BILLING_STATE },
        },
        { body: 'repeating the X-Idempotency-Key and body of the create accepted in the primary workspace' },
      ];
      const cases = identities.flatMap((identity) => ways.map((way) => ({ identity, ...way })));
      await t.check(
        fc.constantFrom(...cases),
        async ({ identity, body, planBody }): Promise<CaseVerdict> => {
          const create = operationRequest(session.operation('createCloudVm'), session, 'probe', {
            token: identity.token,
            workspaceId: denied,
            // A VM name of its own each time (a target may refuse a second VM of a name).
            ...(planBody ? { body: JSON.stringify({ ...planBody, name: newVmName() }) } : {}),
          });
          let sent = create;
          let repeated: Exchange | undefined;
          if (!planBody) {
            const allowed = await acceptedCreate(session, (vmId) =>
              t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED),
            );
            const key = headerValue(allowed.request.headers, 'x-idempotency-key');
            if (!is2xx(allowed.response.status) || key === undefined)
              return notApplicable(
                `the create in the primary workspace answered ${allowed.response.status}: no accepted key to repeat`,
              );
            repeated = allowed;
            sent = {
              ...create,
              headers: { ...create.headers, 'x-idempotency-key': key },
              ...(allowed.request.body !== undefined ? { body: allowed.request.body } : {}),
            };
          }
          const exchange = await session.http.send(sent);
          if (is2xx(exchange.response.status)) {
            const vmId = (exchange.response.json as { vm_id?: unknown } | undefined)?.vm_id;
            if (typeof vmId === 'string') t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED);
            const replayed =
              repeated !== undefined && typeof vmId === 'string' && vmId === acceptanceIds(repeated)?.vmId
                ? ` with the primary workspace's VM "${vmId}": the key was taken for a retry of that create, but a create naming another workspace_id is another request, and its gateway decision (denied) was never made`
                : '';
            throw new RuleViolation(
              `create in billing-denied workspace ${denied}, ${body}, was accepted (${exchange.response.status})${replayed}; the gateway makes its own decision and must refuse it`,
              exchange,
            );
          }
          expectErrorDetail(exchange);
          const unattributed = await refusalNotShownToBeBilling(t, 'the refusal is');
          if (unattributed) return unattributed;
          // Whatever its number, this answer is the documented billing refusal (`default`).
          session.coverage.noteResponse('createCloudVm', 'default');
          return observed;
        },
        { examples: cases, maxRuns: cases.length },
      );
    },
  ),
);

/**
 * Creates of one burst into the denied workspace, sent together: as many at once as the run lets
 * be in flight (all four at the default concurrency; one after another at concurrency 1, where
 * each is still judged).
 */
const CREATES_TOGETHER = 4;

checks.push(
  defineCheck(
    'BILL-6',
    'the gateway refuses every billable create of a burst sent together into a denied workspace, none let through while it is busy',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const denied = session.profile.workspaces.billingDenied;
      if (!denied) return t.skip('profile has no workspaces.billingDenied');
      const identity = identitiesWith(session.profile, 'vm.write', denied)[0];
      if (!identity) return t.skip(`profile has no identity holding vm.write on workspace ${denied}`);
      await t.check(
        fc.constant(CREATES_TOGETHER),
        async () => {
          const op = session.operation('createCloudVm');
          // Each with its own idempotency key: separate creates, not retries of one.
          const creates = Array.from({ length: CREATES_TOGETHER }, () =>
            operationRequest(op, session, 'probe', { token: identity.token, workspaceId: denied }),
          );
          const together = await session.http.admitTogether(CREATES_TOGETHER);
          const answers = await Promise.all(creates.map((create) => session.http.send(create, together)));
          const accepted = answers.filter((exchange) => is2xx(exchange.response.status));
          for (const exchange of accepted) {
            const vmId = (exchange.response.json as { vm_id?: unknown } | undefined)?.vm_id;
            if (typeof vmId === 'string') t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED);
          }
          const first = accepted[0];
          if (first)
            throw new RuleViolation(
              `${CREATES_TOGETHER} creates sent together into billing-denied workspace ${denied} were answered ${answers.map((a) => a.response.status).join(', ')}: ${accepted.length} accepted; the gateway must refuse each one whose decision it cannot make or that is denied ("it refuses when the decision cannot be made")`,
              first,
            );
          for (const exchange of answers) expectErrorDetail(exchange);
          return (await refusalNotShownToBeBilling(t, 'the refusals are')) ?? observed;
        },
        { maxRuns: 2 },
      );
    },
  ),
);

/** The billingGateway family's checks, in the order they run. */
export const billingGatewayChecks: readonly Check[] = checks;
