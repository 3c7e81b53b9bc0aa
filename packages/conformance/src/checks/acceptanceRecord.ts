import { isUtcDateTime } from '../spec/isoTimestamp.js';
import type { Exchange } from '../transport/exchange.js';
import { expectJsonObject, expectStatus, RuleViolation } from './ruleViolation.js';

export const ACCEPTANCE_FIELDS = ['operation_id', 'vm_id', 'status', 'submitted_at'] as const;

export function expectAcceptanceRecord(exchange: Exchange): Record<string, unknown> {
  expectStatus(exchange, (s) => s === 202, '202 Accepted');
  const record = expectJsonObject(exchange, 'the operation acceptance record');
  const missing = ACCEPTANCE_FIELDS.filter((field) => typeof record[field] !== 'string');
  if (missing.length > 0)
    throw new RuleViolation(`acceptance record lacks string field(s) ${missing.join(', ')}`, exchange);
  return record;
}

export function expectFreshAcceptance(exchange: Exchange): void {
  const record = expectAcceptanceRecord(exchange);
  if (record.status !== 'accepted')
    throw new RuleViolation(
      `acceptance record status is ${JSON.stringify(record.status)}, expected "accepted"`,
      exchange,
    );
  if (!isUtcDateTime(record.submitted_at)) {
    throw new RuleViolation(
      `submitted_at ${JSON.stringify(record.submitted_at)} is not an ISO 8601 UTC timestamp (Z or +00:00)`,
      exchange,
    );
  }
}
