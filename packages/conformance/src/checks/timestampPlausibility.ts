import { instantOf } from '../spec/isoTimestamp.js';
import type { Exchange } from '../transport/exchange.js';
import { RuleViolation } from './ruleViolation.js';

/** Against the answer's own Date header: the server's clock, so skew between machines does not count. */
const WITHIN_DATE_HEADER_MS = 5 * 60_000;
/** Against this machine's clock, when the answer has no Date header: room for skew between machines. */
const WITHIN_LOCAL_CLOCK_MS = 10 * 60_000;

function minutes(ms: number): string {
  const abs = Math.abs(ms);
  return abs >= 3_600_000 ? `${(abs / 3_600_000).toFixed(1)} h` : `${Math.round(abs / 60_000)} min`;
}

/**
 * A timestamp the server generated for the request just answered (a fresh `submitted_at`) must
 * name about now: a local wall-clock time written with `Z` is well-formed and still hours off
 * (A-TIMESTAMP-PLAUSIBILITY). A value that does not parse is left to the format rules.
 */
export function expectGeneratedNow(exchange: Exchange, field: string, value: unknown): void {
  if (typeof value !== 'string') return;
  const at = instantOf(value);
  if (Number.isNaN(at)) return;
  const dateHeader = exchange.response.headers.date;
  const serverNow = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
  const [reference, tolerance, against] = Number.isNaN(serverNow)
    ? [Date.now(), WITHIN_LOCAL_CLOCK_MS, "this machine's clock (the answer has no Date header)"]
    : [serverNow, WITHIN_DATE_HEADER_MS, `the answer's Date header (${dateHeader})`];
  const off = at - reference;
  if (Math.abs(off) > tolerance)
    throw new RuleViolation(
      `${field} ${value} is ${minutes(off)} ${off > 0 ? 'after' : 'before'} ${against}: a timestamp generated for this request must be about now in UTC (a local time written with Z is off by its zone's offset)`,
      exchange,
    );
}

/** The server's now and how far a timestamp may be from it, with what that reference is. */
function serverNow(exchange: Exchange): { at: number; tolerance: number; against: string } {
  const dateHeader = exchange.response.headers.date;
  const fromHeader = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
  return Number.isNaN(fromHeader)
    ? {
        at: Date.now(),
        tolerance: WITHIN_LOCAL_CLOCK_MS,
        against: "this machine's clock (the answer has no Date header)",
      }
    : {
        at: fromHeader,
        tolerance: WITHIN_DATE_HEADER_MS,
        against: `the answer's Date header (${dateHeader})`,
      };
}

/**
 * A timestamp in a record names a moment that has happened: one beyond the answer's Date header
 * (plus the tolerance) is a local time written with `Z` east of UTC, or a field filled wrongly.
 */
export function expectNotInFuture(exchange: Exchange, field: string, value: unknown): void {
  if (typeof value !== 'string') return;
  const at = instantOf(value);
  if (Number.isNaN(at)) return;
  const now = serverNow(exchange);
  if (at - now.at > now.tolerance)
    throw new RuleViolation(
      `${field} ${value} is ${minutes(at - now.at)} after ${now.against}: a record's timestamp cannot be in the future (a local time written with Z is off by its zone's offset)`,
      exchange,
    );
}

/** Two timestamps of one record in the order their names say (created before updated, started before completed). */
export function expectInOrder(
  exchange: Exchange,
  record: Readonly<Record<string, unknown>>,
  earlier: string,
  later: string,
): void {
  const a = typeof record[earlier] === 'string' ? instantOf(record[earlier] as string) : Number.NaN;
  const b = typeof record[later] === 'string' ? instantOf(record[later] as string) : Number.NaN;
  if (!Number.isNaN(a) && !Number.isNaN(b) && b < a)
    throw new RuleViolation(
      `${later} ${String(record[later])} is before ${earlier} ${String(record[earlier])} in the same record`,
      exchange,
    );
}
