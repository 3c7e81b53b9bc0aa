import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { natRuleUpdate } from '../generate/bodies.js';
import { operationRequest } from '../generate/operationRequest.js';
import { disjointUpdates, overlapPlan, plainOverlap } from '../generate/overlap.js';
import type { Exchange } from '../transport/exchange.js';
import { type AcceptanceIds, acceptanceIds, describeAcceptance, sharedIds } from './acceptanceRecord.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, type CheckContext, defineCheck } from './check.js';
import { keepingNatRule, type NatRuleFields, natRuleToChange, readNatRule } from './natRuleReader.js';
import { NO_OVERLAP, overlapped, sendOverlapping, type TimedExchange } from './overlappingRequests.js';
import { is2xx, is4xx, RuleViolation } from './ruleViolation.js';
import { CLOUD_VM_NOT_CLEANED } from './sharedRequests.js';

/** The operation an accepted create names, with the exchange that named it. */
interface Accepted extends AcceptanceIds {
  readonly timed: TimedExchange;
}

function acceptedBy(timed: TimedExchange): Accepted | undefined {
  const ids = acceptanceIds(timed.exchange);
  return ids && { ...ids, timed };
}

const statuses = (sent: readonly TimedExchange[]): string =>
  sent.map((timed) => timed.exchange.response.status).join(', ');

/** Whether any two of the exchanges were on the wire together. */
function someOverlap(sent: readonly TimedExchange[]): boolean {
  return sent.some((a, i) => sent.some((b, j) => j > i && overlapped(a, b)));
}

/** Accepted creates made VMs the document gives no way to delete: each is noted for the report. */
function recordVms(t: CheckContext, accepted: readonly Accepted[]): void {
  for (const vmId of new Set(accepted.map((a) => a.vmId)))
    t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED);
}

/** A 2xx whose body names no operation: ASYNC-1 judges the record; here it is no evidence. */
function unreadableAcceptance(sent: readonly TimedExchange[]): Exchange | undefined {
  return sent.find((timed) => is2xx(timed.exchange.response.status) && !acceptedBy(timed))?.exchange;
}

const checks: Check[] = [];

checks.push(
  defineCheck('CONC-1', 'copies of one keyed create sent together start one operation', async (t) => {
    t.requireMutations();
    const session = t.session;
    const op = session.operation('createCloudVm');
    // Copies of one create cost a correct target one VM however many there are, and each more
    // copy is one more chance for a check-then-insert race to show: four, the default in-flight
    // bound, at once.
    await t.check(
      overlapPlan({ min: 3, max: 4 }),
      async (plan): Promise<CaseVerdict> => {
        const key = randomUUID();
        const request = operationRequest(op, session, 'probe', { idempotencyKey: key });
        const copies = await sendOverlapping(
          session,
          plan,
          plan.delaysMs.map(() => request),
        );
        const accepted = copies.map(acceptedBy).filter((a): a is Accepted => a !== undefined);
        recordVms(t, accepted);
        const operations = [...new Map(accepted.map((a) => [`${a.operationId} ${a.vmId}`, a])).values()];
        if (operations.length > 1)
          throw new RuleViolation(
            `${copies.length} copies of one create with X-Idempotency-Key ${key}, in flight together, were accepted as ${operations.length} operations: ${operations.map(describeAcceptance).join('; ')}`,
            operations[1]?.timed.exchange,
          );
        const unreadable = unreadableAcceptance(copies);
        // One copy named the operation, another was "accepted" without naming it (a placeholder
        // stored before the work and replayed to a copy): a client holding that answer cannot
        // learn what its retry started, so the retry was not safe.
        if (unreadable && operations[0])
          throw new RuleViolation(
            `${copies.length} copies of one create with X-Idempotency-Key ${key}, in flight together: one was accepted as ${describeAcceptance(operations[0])}, another answered ${unreadable.response.status} without an acceptance record (no operation_id and vm_id to poll); a retry with the same key must be answered with the operation it started`,
            unreadable,
          );
        if (unreadable)
          return notApplicable(`a copy answered ${unreadable.response.status} without an acceptance record`);
        const first = operations[0];
        if (!first) return notApplicable(`no copy was accepted (answers ${statuses(copies)})`);
        const odd = copies.find(
          (c) => !is2xx(c.exchange.response.status) && !is4xx(c.exchange.response.status),
        );
        // A copy answered 5xx may or may not have acted: this case cannot tell one operation from two.
        if (odd)
          return notApplicable(
            `a copy answered ${odd.exchange.response.status} (answers ${statuses(copies)})`,
          );
        if (!someOverlap(copies)) return notApplicable(NO_OVERLAP);
        // Once every copy is answered, a plain retry must name that same operation.
        const retry = await session.http.send(request);
        const again = acceptanceIds(retry);
        if (again && (again.operationId !== first.operationId || again.vmId !== first.vmId)) {
          t.recordCreated('cloud VM', again.vmId, CLOUD_VM_NOT_CLEANED);
          throw new RuleViolation(
            `after the copies were answered as ${describeAcceptance(first)}, a retry with the same X-Idempotency-Key ${key} was accepted as ${describeAcceptance(again)}`,
            retry,
          );
        }
        return observed;
      },
      { maxRuns: 3, examples: [plainOverlap(4)] },
    );
  }),
);

checks.push(
  defineCheck(
    'CONC-2',
    'creates sent together, each with its own key, are distinct operations for distinct VMs',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const op = session.operation('createCloudVm');
      await t.check(
        overlapPlan({ min: 2, max: 2 }),
        async (plan): Promise<CaseVerdict> => {
          const requests = plan.delaysMs.map(() =>
            operationRequest(op, session, 'probe', { idempotencyKey: randomUUID() }),
          );
          const sent = await sendOverlapping(session, plan, requests);
          const accepted = sent.map(acceptedBy).filter((a): a is Accepted => a !== undefined);
          recordVms(t, accepted);
          for (const [i, a] of accepted.entries())
            for (const b of accepted.slice(i + 1)) {
              const shared = sharedIds(a, b);
              if (shared.length > 0)
                throw new RuleViolation(
                  `two creates with different X-Idempotency-Keys, in flight together, were both accepted with ${shared.join(' and ')}: one identifier for two operations`,
                  b.timed.exchange,
                );
            }
          const unreadable = unreadableAcceptance(sent);
          if (unreadable)
            return notApplicable(
              `a create answered ${unreadable.response.status} without an acceptance record`,
            );
          if (accepted.length < 2)
            return notApplicable(`fewer than two creates were accepted (answers ${statuses(sent)})`);
          if (!someOverlap(accepted.map((a) => a.timed))) return notApplicable(NO_OVERLAP);
          return observed;
        },
        { maxRuns: 1, examples: [plainOverlap(2)] },
      );
    },
  ),
);

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

checks.push(
  defineCheck('CONC-3', 'two partial updates of one NAT rule sent together both stay applied', async (t) => {
    const session = t.session;
    const { op, original } = await natRuleToChange(t);
    await keepingNatRule(t, original, () =>
      t.check(
        fc.tuple(disjointUpdates(natRuleUpdate(original.internal_ip)), overlapPlan({ min: 2, max: 2 })),
        async ([updates, plan]): Promise<CaseVerdict> => {
          const before: NatRuleFields | undefined = await readNatRule(session);
          if (!before) return notApplicable('the rule could not be read before the updates');
          const sent = await sendOverlapping(
            session,
            plan,
            updates.map((update) =>
              operationRequest(op, session, 'positive', { body: JSON.stringify(update) }),
            ),
          );
          // A read that sent an updated field unchanged could write back a value from before.
          const updated = new Set(updates.flatMap((update) => Object.keys(update)));
          const after = await readNatRule(session, updated);
          if (!after) return notApplicable('the rule could not be read once both updates were answered');
          for (const [index, timed] of sent.entries()) {
            const status = timed.exchange.response.status;
            for (const [field, value] of Object.entries(updates[index] ?? {})) {
              if (status === 200 && !sameValue(after[field], value)) {
                // An update that does not keep its value even when sent alone shows nothing about
                // updates in flight together: PATCH-1 judges it.
                const alone = await session.http.send(
                  operationRequest(op, session, 'positive', { body: JSON.stringify(updates[index]) }),
                );
                const afterAlone =
                  alone.response.status === 200 ? await readNatRule(session, updated) : undefined;
                if (!afterAlone || !sameValue(afterAlone[field], value))
                  return notApplicable(
                    `${field} ${JSON.stringify(value)} was not kept by the update sent alone either (${alone.response.status}, then ${JSON.stringify(afterAlone?.[field])}): not a matter of updates in flight together`,
                  );
                // Back to the value from before is a lost update; anything else is the value kept
                // or read back in another form, whatever the other update did.
                const cause = sameValue(after[field], before[field])
                  ? 'a lost update: the value from before was written back'
                  : `neither the value it set nor the one before (${JSON.stringify(before[field])}): the value is kept or read back in another form`;
                throw new RuleViolation(
                  `two updates of the rule were in flight together; this one (${Object.keys(updates[index] ?? {}).join(', ')}) answered 200, yet once both were answered ${field} reads ${JSON.stringify(after[field])}, not the ${JSON.stringify(value)} it set (the other update changed only ${Object.keys(updates[1 - index] ?? {}).join(', ')}): ${cause}`,
                  timed.exchange,
                );
              }
              if (status === 409 && sameValue(after[field], value) && !sameValue(before[field], value))
                throw new RuleViolation(
                  `this update was refused with 409, yet ${field} now reads the ${JSON.stringify(value)} it sent (before: ${JSON.stringify(before[field])})`,
                  timed.exchange,
                );
            }
          }
          const odd = sent.find(
            (s) => s.exchange.response.status !== 200 && s.exchange.response.status !== 409,
          );
          if (odd)
            return notApplicable(
              `an update answered ${odd.exchange.response.status} (answers ${statuses(sent)})`,
            );
          const visible = sent.some(
            (timed, index) =>
              timed.exchange.response.status === 200 &&
              Object.entries(updates[index] ?? {}).some(([field, value]) => !sameValue(before[field], value)),
          );
          if (!visible)
            return notApplicable('no update answered 200 changed a value the rule did not already have');
          if (!someOverlap(sent)) return notApplicable(NO_OVERLAP);
          return observed;
        },
        {
          maxRuns: 5,
          examples: [
            [[{ note: 'conformance overlap: note' }, { name: 'conformance-overlap-name' }], plainOverlap(2)],
          ],
        },
      ),
    );
  }),
);

/** The concurrentWrites family's checks, in the order they run. */
export const concurrentWritesChecks: readonly Check[] = checks;
