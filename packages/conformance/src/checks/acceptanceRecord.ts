import { isUtcDateTime } from '../spec/isoTimestamp.js';
import type { Exchange } from '../transport/exchange.js';
import { expectJsonObject, expectStatus, is2xx, RuleViolation } from './ruleViolation.js';
import { expectGeneratedNow } from './timestampPlausibility.js';

export const ACCEPTANCE_FIELDS = ['operation_id', 'vm_id', 'status', 'submitted_at'] as const;

export function expectAcceptanceRecord(exchange: Exchange): Record<string, unknown> {
  expectStatus(exchange, (s) => s === 202, '202 Accepted');
  const record = expectJsonObject(exchange, 'the operation acceptance record');
  const missing = ACCEPTANCE_FIELDS.filter((field) => typeof record[field] !== 'string');
  if (missing.length > 0)
    throw new RuleViolation(`acceptance record lacks string field(s) ${missing.join(', ')}`, exchange);
  return record;
}

/**
 * `generated-now`: the target makes its records (a sandbox, a real environment); a mock such as
 * Prism answers its examples, whose timestamps were written once, so only their form is judged.
 */
export type TimestampPlausibility = 'generated-now' | 'form-only';

export function expectFreshAcceptance(exchange: Exchange, plausibility: TimestampPlausibility): void {
  const record = expectAcceptanceRecord(exchange);
  if (record.status !== 'accepted')
    throw new RuleViolation(
      `acceptance record status is ${JSON.stringify(record.status)}, expected "accepted"`,
      exchange,
    );
  if (!isUtcDateTime(record.submitted_at)) {
    throw new RuleViolation(
      `submitted_at ${JSON.stringify(record.submitted_at)} is not an ISO 8601 UTC timestamp (Z, +00:00 or +00)`,
      exchange,
    );
  }
  if (plausibility === 'generated-now') expectGeneratedNow(exchange, 'submitted_at', record.submitted_at);
}

/** The operation and VM a 2xx answer's acceptance record names; undefined for any other answer. */
export interface AcceptanceIds {
  readonly operationId: string;
  readonly vmId: string;
}

export function acceptanceIds(exchange: Exchange): AcceptanceIds | undefined {
  const { response } = exchange;
  if (!is2xx(response.status)) return undefined;
  const record = response.json as { operation_id?: unknown; vm_id?: unknown } | undefined;
  if (typeof record?.operation_id !== 'string' || typeof record.vm_id !== 'string') return undefined;
  return { operationId: record.operation_id, vmId: record.vm_id };
}

/** The ids of a 202 acceptance record, failing the rule as expectAcceptanceRecord does when it is none. */
export function expectAcceptanceIds(exchange: Exchange): AcceptanceIds {
  const record = expectAcceptanceRecord(exchange);
  return { operationId: record.operation_id as string, vmId: record.vm_id as string };
}

/** What two acceptance records share (`operation_id "op-1"`, `vm_id "vm-1"`); empty for two distinct creates. */
export function sharedIds(a: AcceptanceIds, b: AcceptanceIds): string[] {
  return [
    ...(a.operationId === b.operationId ? [`operation_id ${JSON.stringify(a.operationId)}`] : []),
    ...(a.vmId === b.vmId ? [`vm_id ${JSON.stringify(a.vmId)}`] : []),
  ];
}

/** How a message names what an acceptance record names. */
export function describeAcceptance(ids: AcceptanceIds): string {
  return `operation ${JSON.stringify(ids.operationId)} for VM ${JSON.stringify(ids.vmId)}`;
}
