import fc from 'fast-check';
import { operationRequest } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import type { Exchange } from '../transport/exchange.js';
import { acceptanceIds, describeAcceptance } from './acceptanceRecord.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { RuleViolation } from './ruleViolation.js';
import { acceptedDelete, acceptedRelease } from './sharedRequests.js';

interface ConsumedCase {
  readonly what: string;
  /** The run's own consuming request, shared with the checks that judge its answer. */
  consume(): Promise<{ exchange: Exchange; id: string }>;
  /** Whether the consuming request was accepted, so the resource is really consumed. */
  accepted(status: number): boolean;
  /** Fails when a copy sent together with the consuming request was accepted as an operation of its own. */
  expectAcceptedOnce?(): Promise<void>;
  again(id: string): Promise<Exchange>;
}

function consumedCases(session: Session): ConsumedCase[] {
  const cases: ConsumedCase[] = [];
  const consumedVm = async () => {
    const { exchange, vmId } = await acceptedDelete(session);
    return { exchange, id: vmId };
  };
  if (session.plan.deleteAccept)
    cases.push({
      what: 'a GPU VM whose delete was accepted',
      consume: consumedVm,
      accepted: (status) => status === 202,
      async expectAcceptedOnce() {
        const { exchange, together } = await acceptedDelete(session);
        const refusal = together.response.status;
        if (exchange.response.status === 202 && refusal !== 202 && refusal !== 404 && refusal !== 409)
          throw new RuleViolation(
            `two deletes of one GPU VM were sent at the same moment, each with its own X-Idempotency-Key: one was accepted, the other answered ${refusal}; expected 404 or 409 (the VM is gone or in conflict with its state), or 202 with the same operation`,
            together,
          );
        const [one, two] = [acceptanceIds(exchange), acceptanceIds(together)];
        const bothAccepted = exchange.response.status === 202 && together.response.status === 202;
        if (!bothAccepted || !one || !two || one.operationId === two.operationId) return;
        throw new RuleViolation(
          `two deletes of one GPU VM sent at the same moment, each with its own X-Idempotency-Key, were both accepted, as ${describeAcceptance(one)} and ${describeAcceptance(two)}: the VM is being deleted twice (one should be refused with 409, or answered with the other's operation). Either its state was read before either delete set it, or any delete of a VM already being deleted is accepted; this check's next case, a delete sent afterwards, tells which`,
          together,
        );
      },
      // A new key: a replay with the same key is IDEM-2's business.
      again: (id) =>
        session.http.send(
          operationRequest(session.operation('deleteGpuVm'), session, 'probe', { pathIds: { vm_id: id } }),
        ),
    });
  if (session.plan.deleteAccept)
    cases.push({
      what: 'a GPU VM whose delete was accepted (enabling its backups)',
      consume: consumedVm,
      accepted: (status) => status === 202,
      again: (id) =>
        session.http.send(
          operationRequest(session.operation('enableGpuVmBackups'), session, 'probe', {
            pathIds: { vm_id: id },
            body: '{}',
          }),
        ),
    });
  if (session.plan.releaseAccept)
    cases.push({
      what: 'a reserved IP already released',
      consume: async () => {
        const { exchange, ipId } = await acceptedRelease(session);
        return { exchange, id: ipId };
      },
      accepted: (status) => status === 204,
      again: (id) =>
        session.http.send(
          operationRequest(session.operation('releaseReservedIp'), session, 'probe', {
            pathIds: { reserved_ip_id: id },
          }),
        ),
    });
  return cases;
}

const checks: Check[] = [];

checks.push(
  defineCheck(
    'STATE-1',
    'refuses (404/409) a second delete or release of what the run consumed',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const cases = consumedCases(session);
      if (cases.length === 0)
        return t.skip(
          'profile lists no resources.deletableGpuVmIds and no resources.releasableReservedIpIds',
        );
      // Drawn by what each case is, so a counterexample reads as words, not as its functions.
      const byWhat = new Map(cases.map((c) => [c.what, c]));
      await t.check(
        fc.constantFrom(...byWhat.keys()),
        async (what): Promise<CaseVerdict> => {
          const c = byWhat.get(what) as ConsumedCase;
          const { exchange: firstExchange, id } = await c.consume();
          if (!c.accepted(firstExchange.response.status))
            return notApplicable(
              `the first request for ${c.what} answered ${firstExchange.response.status}, so nothing was consumed`,
            );
          await c.expectAcceptedOnce?.();
          const exchange = await c.again(id);
          const { status } = exchange.response;
          // The delete still in progress, answered as the same operation: not a fresh acceptance.
          const again = acceptanceIds(exchange);
          const first = acceptanceIds(firstExchange);
          if (status === 202 && again && first && again.operationId === first.operationId) return observed;
          if (status !== 404 && status !== 409)
            throw new RuleViolation(
              `${exchange.request.method} ${exchange.request.path} on ${c.what} answered ${status}; expected 404 or 409 (the resource is gone or in conflict with its state), or 202 with the first delete's operation`,
              exchange,
            );
          return observed;
        },
        { examples: [...byWhat.keys()], maxRuns: 1 },
      );
    },
  ),
);

/** The stateRules family's checks, in the order they run. */
export const stateRulesChecks: readonly Check[] = checks;
