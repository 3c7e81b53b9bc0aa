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
  const at = Date.parse(value);
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
