import type { Session } from '../session/session.js';
import { isUtcDateTime } from '../spec/isoTimestamp.js';
import type { ExchangeRecorder } from '../spec/operationRoutes.js';
import { type Exchange, headerValue } from '../transport/exchange.js';
import { acceptanceIds } from './acceptanceRecord.js';
import type { CheckVerdict } from './check.js';
import { workspaceIdSent } from './exchangeReading.js';
import { describeExchange, type FailureReport, formatFailure } from './failureReport.js';
import { skipBeforeRun } from './skipBeforeRun.js';

/** Two operations the run saw accepted that were answered with one identifier. */
export interface IdentifierCollision {
  readonly field: 'operation_id' | 'vm_id';
  readonly value: string;
  /** How the earlier and the later request are told apart (their keys, or the VMs they deleted). */
  readonly first: string;
  readonly second: string;
  /** The later answer, the one that reused the identifier. */
  readonly exchange: Exchange;
}

/** An operation whose first acceptance record did not report a fresh acceptance. */
export interface StaleAcceptance {
  readonly label: string;
  /** What is wrong with it: its status, or its submitted_at. */
  readonly problem: string;
  readonly exchange: Exchange;
}

export interface IdentifierFindings {
  /** Distinct operations the run saw accepted. */
  readonly operations: number;
  readonly collisions: readonly IdentifierCollision[];
  /** First answers (not retries) whose record is not `accepted` with a UTC submitted_at: ASYNC-2's. */
  readonly stale: readonly StaleAcceptance[];
}

export interface IdentifierAudit extends ExchangeRecorder {
  findings(): IdentifierFindings;
}

/** A handful of collisions is proof enough; the rest would repeat it. */
const MAX_COLLISIONS = 3;

/** An accepted request as the audit tells operations apart, and as its message names it. */
interface AcceptedRequest {
  readonly identity: string;
  readonly label: string;
}

/**
 * What makes an accepted request one operation, as the document lets the suite tell: a create is
 * one per X-Idempotency-Key (its retries are the same operation); a delete is one per VM, whatever
 * its key (a second delete of one VM answered with the first's record is STATE-1's to judge).
 * A request without a key is an operation of its own. The workspace is named, not compared: a
 * key reused in another workspace is ISO-1's.
 */
function acceptedRequest(exchange: Exchange, operationId: string, sequence: number): AcceptedRequest {
  const workspace = workspaceIdSent(exchange);
  const where = workspace === undefined ? '' : ` in workspace ${workspace}`;
  if (operationId.startsWith('delete')) {
    const identity = `${operationId} of ${exchange.request.path}`;
    return { identity, label: `${identity}${where}` };
  }
  const key = headerValue(exchange.request.headers, 'x-idempotency-key');
  const identity =
    key === undefined
      ? `${operationId} #${sequence} without X-Idempotency-Key`
      : `${operationId} with X-Idempotency-Key ${key}`;
  return {
    identity,
    label: `${operationId}${where} with ${key === undefined ? 'no X-Idempotency-Key' : `X-Idempotency-Key ${key}`}`,
  };
}

/**
 * Every acceptance record of the run, held to "an operation record that can be polled": an
 * operation_id polls one operation only, so two operations never share one, and a create's vm_id
 * names one VM only. Overlapping creates are CONC-2's own property; this audit sees the collisions
 * of ids numbered per workspace or per kind, made from the clock, or answered from a store keyed
 * by something other than the key, wherever in the run they happen.
 */
export function createIdentifierAudit(): IdentifierAudit {
  const byOperationId = new Map<string, AcceptedRequest>();
  const byVmId = new Map<string, AcceptedRequest>();
  const identities = new Set<string>();
  const collisions: IdentifierCollision[] = [];
  const stale: StaleAcceptance[] = [];
  let sequence = 0;
  const note = (
    seen: Map<string, AcceptedRequest>,
    field: IdentifierCollision['field'],
    value: string,
    accepted: AcceptedRequest,
    exchange: Exchange,
  ): void => {
    const first = seen.get(value);
    if (first === undefined) seen.set(value, accepted);
    else if (first.identity !== accepted.identity && collisions.length < MAX_COLLISIONS)
      collisions.push({ field, value, first: first.label, second: accepted.label, exchange });
  };
  return {
    record(exchange, op) {
      const ids = acceptanceIds(exchange);
      if (!ids) return;
      const accepted = acceptedRequest(exchange, op.operationId, sequence++);
      // The first answer of an operation is its acceptance; a retry may report it as it stands now.
      const problem = identities.has(accepted.identity) ? undefined : freshnessProblem(exchange);
      if (problem && stale.length < MAX_COLLISIONS) stale.push({ label: accepted.label, problem, exchange });
      identities.add(accepted.identity);
      note(byOperationId, 'operation_id', ids.operationId, accepted, exchange);
      if (op.operationId.startsWith('create')) note(byVmId, 'vm_id', ids.vmId, accepted, exchange);
    },
    findings: () => ({ operations: identities.size, collisions: [...collisions], stale: [...stale] }),
  };
}

/** Why an acceptance record is not a fresh acceptance, or undefined when it is. */
function freshnessProblem(exchange: Exchange): string | undefined {
  const record = exchange.response.json as { status?: unknown; submitted_at?: unknown };
  if (record.status !== 'accepted') return `status ${JSON.stringify(record.status)}, not "accepted"`;
  if (!isUtcDateTime(record.submitted_at))
    return `submitted_at ${JSON.stringify(record.submitted_at)}, not an ISO 8601 UTC timestamp`;
  return undefined;
}

/** The run-wide ASYNC-4 check the report adds: identifiers held across every answer of the run. */
export const IDENTIFIER_AUDIT_CHECK = Object.freeze({
  rule: 'ASYNC-4',
  title:
    'ASYNC-4 every operation accepted during the run has an operation_id of its own, and every accepted create a vm_id of its own',
  file: '(every acceptance record of the run)',
});

/**
 * ASYNC-4's verdict over the whole run: skipped where the rule cannot be seen (Prism, a profile
 * that does not claim it, a read-only run), failed by any collision, inconclusive with fewer than
 * two operations accepted (nothing could collide), passed otherwise. Every message goes through
 * the run's redactor.
 */
export function identifierAuditVerdict(findings: IdentifierFindings, session: Session): CheckVerdict {
  const skipped = auditSkipped(IDENTIFIER_AUDIT_CHECK.rule, findings, session);
  if (skipped) return skipped;
  const failures = findings.collisions.map((collision) => {
    const what = collision.field === 'operation_id' ? 'operation' : 'VM';
    return auditFailure(
      IDENTIFIER_AUDIT_CHECK,
      session,
      `${collision.field} ${JSON.stringify(collision.value)} was answered for two different operations: ${collision.first}, and later ${collision.second}. An ${what} id names one ${what === 'VM' ? 'VM' : 'operation'} only: polling or acting on it could reach the other`,
      collision.exchange,
    );
  });
  if (failures.length > 0) return { state: 'failed', errors: failures.map(formatFailure), failures };
  if (findings.operations < 2)
    return {
      state: 'inconclusive',
      reason: `${findings.operations === 0 ? 'no operation was' : 'only one operation was'} accepted during the run, so no two could share an identifier`,
      remedy: 'select the create and delete rules (ASYNC-*, IDEM-*, CONC-*) with mutations: true',
    };
  return { state: 'passed' };
}

/** The run-wide ASYNC-2 check the report adds: every operation's first acceptance record, wherever sent. */
export const ACCEPTANCE_AUDIT_CHECK = Object.freeze({
  rule: 'ASYNC-2',
  title:
    'ASYNC-2 every operation accepted during the run, in any workspace and by any check, was first answered with status accepted and a UTC submitted_at',
  file: '(every acceptance record of the run)',
});

/**
 * ASYNC-2's verdict over the whole run: skipped as ASYNC-4's is, failed by any operation whose
 * first record was not a fresh acceptance, inconclusive when none was accepted, passed otherwise.
 */
export function acceptanceAuditVerdict(findings: IdentifierFindings, session: Session): CheckVerdict {
  const skipped = auditSkipped(ACCEPTANCE_AUDIT_CHECK.rule, findings, session);
  if (skipped) return skipped;
  const failures = findings.stale.map((found) =>
    auditFailure(
      ACCEPTANCE_AUDIT_CHECK,
      session,
      `${found.label} was first answered with ${found.problem}: a freshly accepted operation reports "accepted" and a UTC submitted_at, whichever workspace or check it came from`,
      found.exchange,
    ),
  );
  if (failures.length > 0) return { state: 'failed', errors: failures.map(formatFailure), failures };
  if (findings.operations === 0)
    return {
      state: 'inconclusive',
      reason: 'no operation was accepted during the run',
      remedy: 'select the create and delete rules (ASYNC-*, IDEM-*, CONC-*) with mutations: true',
    };
  return { state: 'passed' };
}

/** Where an audit of the run's acceptance records cannot judge: Prism, an unclaimed rule, a read-only run. */
function auditSkipped(
  rule: string,
  findings: IdentifierFindings,
  session: Session,
): CheckVerdict | undefined {
  const skipped = skipBeforeRun(rule, session);
  if (skipped) return skipped;
  if (session.profile.mutations !== true && findings.operations === 0)
    return {
      state: 'skipped',
      reason: 'the profile does not allow mutations (mutations: true), so the run starts no operation',
      declared: false,
    };
  return undefined;
}

/** The run-wide checks judged on every acceptance record of the run, in the order they report. */
export const acceptanceRecordAudits = [
  { check: ACCEPTANCE_AUDIT_CHECK, verdictOf: acceptanceAuditVerdict },
  { check: IDENTIFIER_AUDIT_CHECK, verdictOf: identifierAuditVerdict },
] as const;

/** One finding of a run-wide audit as a failure report: its message redacted, its exchange attached. */
function auditFailure(
  check: { readonly rule: string; readonly title: string },
  session: Session,
  message: string,
  exchange: Exchange,
): FailureReport {
  const { redactor } = session;
  return {
    rule: check.rule,
    test: check.title,
    seed: session.seed,
    path: undefined,
    counterexample: undefined,
    message: redactor.redact(message),
    ...describeExchange(exchange, redactor),
  };
}
