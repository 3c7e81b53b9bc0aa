import type { ExchangeRecorder } from '../spec/operationRoutes.js';
import type { ResponseValidator } from '../spec/responseValidator.js';
import type { Exchange } from '../transport/exchange.js';
import type { CheckVerdict } from './check.js';
import { conflictingMembers } from './conflictingMembers.js';
import { type FailureReport, formatFailure } from './failureReport.js';

/**
 * One answer seen during a check that broke the spec's schema for its operation and status. The
 * exchange is kept raw: it is redacted where the check writes it into its metadata.
 */
export interface SchemaViolation {
  readonly operationId: string;
  readonly responseKey: string;
  readonly problem: string;
  readonly exchange: Exchange;
}

/** What one check's traffic showed of RESP-1: answers validated, and those that broke the schema. */
export interface SchemaAuditDelta {
  /** Success answers with a body that validated. */
  readonly validatedSuccesses: number;
  readonly violations: readonly SchemaViolation[];
}

export interface SchemaAudit extends ExchangeRecorder {
  /** Everything recorded since the last drain. */
  drain(): SchemaAuditDelta;
}

/** A check can send thousands of requests: a few distinct violations are enough evidence. */
const MAX_VIOLATIONS_PER_CHECK = 3;

/** Why a client could not read this answer as its operation's JSON, if it could not; first reason only. */
function answerProblem(
  { response }: Exchange,
  /** The schema it is held to, as "<operationId> <response key>". */
  schema: string,
  mustErrors: readonly string[],
): string | undefined {
  const type = response.headers['content-type'] ?? '';
  if (!/json/i.test(type)) return `Content-Type is ${JSON.stringify(type)}; all responses are JSON`;
  if (response.wireDefects?.length) return response.wireDefects.join('; ');
  // The suite asks for identity: a body said to be compressed is no JSON a client can read as is.
  const coding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (coding !== 'identity')
    return `Content-Encoding is ${JSON.stringify(coding)} although the request accepted identity only: a client decodes the body and finds no JSON there`;
  if (!response.isJson) return 'the body is not valid JSON';
  const conflicts = conflictingMembers(response.bodyText, response.json);
  if (conflicts.length > 0)
    return `the answer gives a member twice with different values, which JSON parsers read differently: ${conflicts.slice(0, 3).join('; ')}`;
  if (mustErrors.length > 0)
    return `body does not match the spec's ${schema} schema: ${mustErrors.join('; ')}`;
  const fraction = integerWrittenWithFraction(response.bodyText);
  if (fraction)
    return `${fraction.field} is written ${fraction.text}: the document types it integer, and a typed client (Go's encoding/json into an int, for one) refuses a number written with a fraction or an exponent, though JSON Schema counts ${fraction.text} an integer`;
  return undefined;
}

/**
 * The first documented integer field written with a fraction or an exponent although its value
 * has an exact integer form a client could read. A value beyond 2^53 (a `1e+300` the server
 * accepted and echoes) is left alone: no bounds are shown for these fields, so accepting it is no
 * breach, and no spelling of it would fit a client's integer type.
 */
export function integerWrittenWithFraction(
  bodyText: string,
  /** Only this field, when given. */
  only?: string,
): { field: string; text: string } | undefined {
  for (const [, field, text] of bodyText.matchAll(INTEGER_WITH_FRACTION)) {
    if (field === undefined || text === undefined || (only !== undefined && field !== only)) continue;
    if (Math.abs(Number(text)) <= Number.MAX_SAFE_INTEGER) return { field, text };
  }
  return undefined;
}

/**
 * The documented integer fields of the records answered (ports, the backup policy's counts and
 * schedule), written with a fraction or an exponent: `7.0` parses to 7 here, so only the text
 * shows it.
 */
const INTEGER_WITH_FRACTION =
  /"(retention_days|full_backup_interval_days|hour|minute|window_minutes|day_of_week|external_port|internal_port)"\s*:\s*(-?\d+(?:\.\d+(?:[eE][+-]?\d+)?|[eE][+-]?\d+))/g;

/**
 * RESP-1 applied to every answer of the run, not only to the requests RESP-1 makes itself (as
 * Schemathesis's response_schema_conformance check does): an enable-backups answer lacking a
 * required field, seen only by BACKUP-1, still breaks "every answer validates". Only answers the
 * spec declares by status or range are judged; a status it leaves to `default` (a gateway's 502, a
 * 429) is no statement of the document's.
 */
export function createSchemaAudit(validator: ResponseValidator): SchemaAudit {
  let validatedSuccesses = 0;
  let violations: SchemaViolation[] = [];
  const seen = new Set<string>();
  return {
    record(exchange, op) {
      const { response } = exchange;
      const result = validator.check(op.operationId, response.status, response.json);
      if (!result.responseKey || result.responseKey === 'default' || !result.expectsBody) return;
      const problem = answerProblem(exchange, `${op.operationId} ${result.responseKey}`, result.mustErrors);
      if (problem === undefined) {
        if (response.status >= 200 && response.status < 300) validatedSuccesses++;
        return;
      }
      const key = `${op.operationId} ${problem}`;
      if (seen.has(key) || violations.length >= MAX_VIOLATIONS_PER_CHECK) return;
      seen.add(key);
      violations.push({ operationId: op.operationId, responseKey: result.responseKey, problem, exchange });
    },
    drain() {
      const delta = { validatedSuccesses, violations };
      validatedSuccesses = 0;
      violations = [];
      seen.clear();
      return delta;
    },
  };
}

/**
 * The run-wide RESP-1 check the report adds beside RESP-1's own property: RESP-1 held to every
 * answer the run saw.
 */
export const SCHEMA_AUDIT_CHECK = Object.freeze({
  rule: 'RESP-1',
  title:
    'RESP-1 every answer seen during the run validates against the spec schema for its operation and status',
  file: '(every answer of the run)',
});

/** What a check's traffic showed of RESP-1, redacted and ready for the report. */
/**
 * A violation as the run reports it, with what makes two alike (operation, status and problem)
 * and the check it was seen during: the printed verdict groups by those, never by parsing text.
 */
export interface AuditFailure {
  readonly report: FailureReport;
  readonly alike: string;
  readonly during: string;
}

export interface SchemaAuditFindings {
  readonly validatedSuccesses: number;
  readonly violations: readonly AuditFailure[];
}

/**
 * The run-wide violations as printed: one per operation, status and problem, with how many more
 * answers showed it (an error shape wrong everywhere would otherwise print once per check). The
 * report's `failures` keep every one, with its exchange.
 */
function distinctViolations(violations: readonly AuditFailure[]): string[] {
  const alike = new Map<string, AuditFailure[]>();
  for (const violation of violations)
    alike.set(violation.alike, [...(alike.get(violation.alike) ?? []), violation]);
  return [...alike.values()].map((group) => {
    const [first, ...more] = group as [AuditFailure, ...AuditFailure[]];
    if (more.length === 0) return formatFailure(first.report);
    const checks = new Set(group.map((violation) => violation.during)).size;
    return formatFailure({
      ...first.report,
      message: `${first.report.message}; ${more.length} more answer${more.length === 1 ? '' : 's'} showed the same, in ${checks} check${checks === 1 ? '' : 's'} in all`,
    });
  });
}

/**
 * RESP-1 judged on every answer the run saw: failed by any answer that broke its schema,
 * passed only when success answers with a body validated, inconclusive when none was seen.
 */
export function schemaAuditVerdict(findings: readonly SchemaAuditFindings[]): CheckVerdict {
  const violations = findings.flatMap((finding) => finding.violations);
  const validated = findings.reduce((sum, finding) => sum + finding.validatedSuccesses, 0);
  if (violations.length > 0)
    return {
      state: 'failed',
      errors: distinctViolations(violations),
      failures: violations.map((violation) => violation.report),
    };
  if (validated === 0)
    return { state: 'inconclusive', reason: 'no success answer with a body was seen during the run' };
  return { state: 'passed' };
}
