import { randomUUID } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import { operationRequest, usableOperations } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../transport/targetHttp.js';
import { acceptanceIds, describeAcceptance } from './acceptanceRecord.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, type CheckContext, defineCheck } from './check.js';
import {
  type KeyedAcceptance,
  type LateRetryWindow,
  lateRetryCandidate,
  otherKeysAfter,
} from './keyedCreateLog.js';
import { retriesAfterLostAnswer } from './lostAnswerRetry.js';
import { expectStatus, is2xx, isTokenRejection, RuleViolation } from './ruleViolation.js';
import { CLOUD_VM_NOT_CLEANED } from './sharedRequests.js';

/** The longest a retry is demanded after its answer, unless the request timeout is longer. */
const RETRY_CAP_MS = 60_000;
/** The longest a retry waits: a request timeout set higher is not waited out in one check. */
const MAX_HORIZON_MS = 60_000;

/**
 * When a client retries a create whose answer it lost (A-IDEMPOTENCY-RETENTION): no sooner than
 * its request timeout (the suite's own, from the profile), and within a minute; two other keys
 * accepted in between, as other clients would.
 */
export function lateRetryWindow(session: Session): LateRetryWindow {
  const horizonMs = Math.min(session.profile.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, MAX_HORIZON_MS);
  return { horizonMs, capMs: Math.max(horizonMs, RETRY_CAP_MS), between: 2 };
}

/** Resolves after `ms`, or at once when the check is stopped (its next send is then refused). */
const waitUnlessStopped = (ms: number, signal: AbortSignal): Promise<void> =>
  wait(ms, undefined, { signal }).catch(() => undefined);

/** A run that accepted too few keyed creates (one rule, one shard) makes its own: one and then others. */
async function ownAcceptances(
  t: CheckContext,
  window: LateRetryWindow,
): Promise<KeyedAcceptance | undefined> {
  const session = t.session;
  const op = session.operation('createCloudVm');
  for (let sent = 0; sent <= window.between; sent++) {
    const exchange = await session.http.send(
      operationRequest(op, session, 'probe', { idempotencyKey: randomUUID() }),
    );
    const ids = acceptanceIds(exchange);
    if (!ids) return undefined;
    t.recordCreated('cloud VM', ids.vmId, CLOUD_VM_NOT_CLEANED);
  }
  return lateRetryCandidate(session.keyedCreates.acceptances(), window, Date.now());
}

/**
 * Reads with a revoked token, this far apart, over 1.2 s: a lapse of 40 ms in every second is met.
 * A count, not a duration, so two runs with one seed send the same requests. Every other read
 * goes on a new connection: a balancer that pins connections to instances hands them to every
 * instance, and an instance whose token cache missed the revocation is met.
 */
const SWEEP_SPACING_MS = 20;
const SWEEP_READS = 61;

const checks: Check[] = [];

checks.push(
  defineCheck(
    'AUTH-3',
    'a revoked token stays refused on reads sent every 20 ms for more than a second, every other one on a new connection',
    async (t) => {
      const session = t.session;
      const revoked = session.profile.revokedToken;
      if (!revoked) return t.skip('profile has no revokedToken');
      const reads = usableOperations(session, 'probe').filter((op) => op.method.toUpperCase() === 'GET');
      if (reads.length === 0) return t.skip('no read operation can be sent with this profile');
      await t.check(
        fc.constant('a second of reads'),
        async (): Promise<CaseVerdict> => {
          const started = Date.now();
          for (let sent = 0; sent < SWEEP_READS && !t.signal.aborted; sent++) {
            const due = started + sent * SWEEP_SPACING_MS;
            if (due > Date.now()) await waitUnlessStopped(due - Date.now(), t.signal);
            const op = reads[sent % reads.length] as OperationEntry;
            const freshConnection = sent % 2 === 1;
            const exchange = await session.http.send(
              operationRequest(op, session, 'probe', { token: revoked }),
              { freshConnection },
            );
            expectStatus(
              exchange,
              isTokenRejection,
              `a rejection (401 or 403) of the revoked token, as for every read before it (read ${sent + 1}${freshConnection ? ', on a new connection' : ''}, ${Date.now() - started} ms into reads sent every ${SWEEP_SPACING_MS} ms)`,
            );
          }
          return observed;
        },
        { maxRuns: 1 },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'IDEM-2',
    'a create retried with the same key once a client would have timed out, other keys accepted in between, yields the same operation',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const window = lateRetryWindow(session);
      await t.check(
        fc.constant('a late retry'),
        async (): Promise<CaseVerdict> => {
          const candidate =
            lateRetryCandidate(session.keyedCreates.acceptances(), window, Date.now()) ??
            (await ownAcceptances(t, window));
          if (!candidate) return notApplicable('no create with an X-Idempotency-Key was accepted');
          const wait = candidate.answeredAt + window.horizonMs - Date.now();
          if (wait > 0) await waitUnlessStopped(wait, t.signal);
          const log = session.keyedCreates.acceptances();
          const keysBetween = otherKeysAfter(log, log.indexOf(candidate));
          const seconds = ((Date.now() - candidate.answeredAt) / 1000).toFixed(1);
          for (const retried of await retriesAfterLostAnswer(session, candidate.exchange.request)) {
            const ids = acceptanceIds(retried);
            const { status } = retried.response;
            if (!is2xx(status))
              return notApplicable(
                `the retry ${seconds} s later was answered ${status}: nothing started twice, and whether the key was still remembered cannot be told`,
              );
            if (!ids) return notApplicable(`the retry was answered ${status} without an acceptance record`);
            if (ids.operationId === candidate.ids.operationId && ids.vmId === candidate.ids.vmId) continue;
            if (ids.vmId !== candidate.ids.vmId) t.recordCreated('cloud VM', ids.vmId, CLOUD_VM_NOT_CLEANED);
            throw new RuleViolation(
              `a create accepted as ${describeAcceptance(candidate.ids)} was retried ${seconds} s later (on a new connection) with the same X-Idempotency-Key and request, after ${keysBetween} other keys were accepted, and answered with ${describeAcceptance(ids)}: the key was forgotten, so a client's retry after a network failure (no sooner than its ${window.horizonMs / 1000} s request timeout) starts a second operation`,
              retried,
            );
          }
          return observed;
        },
        { maxRuns: 1 },
      );
    },
    // The retry may wait out a request timeout of up to a minute.
    { timeoutMs: 120_000 + MAX_HORIZON_MS },
  ),
);

/**
 * Rules that must hold over time, not only at one instant: last in a run, so the run's own
 * creates have aged and a lapse that comes and goes has had time to show.
 */
export const heldOverTimeChecks: readonly Check[] = checks;
