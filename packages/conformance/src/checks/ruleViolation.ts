import type { Exchange } from '../transport/exchange.js';

/** A check found the target breaking its rule; carries the exchange that shows it. */
export class RuleViolation extends Error {
  constructor(
    message: string,
    readonly exchange?: Exchange,
  ) {
    super(message);
    this.name = 'RuleViolation';
  }
}

function statusLine(exchange: Exchange): string {
  return `${exchange.request.method} ${exchange.request.path} answered ${exchange.response.status}`;
}

export function expectStatus(
  exchange: Exchange,
  accept: (status: number) => boolean,
  expected: string,
): void {
  if (!accept(exchange.response.status))
    throw new RuleViolation(`${statusLine(exchange)}, expected ${expected}`, exchange);
}

export const is4xx = (status: number): boolean => status >= 400 && status < 500;
export const is2xx = (status: number): boolean => status >= 200 && status < 300;
/**
 * A refusal of a request as invalid: 400, which the document lists, or 422, which frameworks
 * answer for a body that parses but fails validation (A-ERROR-STATUS-UNLISTED, as NEG-1 reads it).
 */
export const isInvalidRequestRefusal = (status: number): boolean => status === 400 || status === 422;
/** How a token is refused: the document gives 401 for a bad token and 403 for one that may not act. */
export const isTokenRejection = (status: number): boolean => status === 401 || status === 403;

export function expectJsonObject(exchange: Exchange, what: string): Record<string, unknown> {
  const { response } = exchange;
  if (
    !response.isJson ||
    !response.json ||
    typeof response.json !== 'object' ||
    Array.isArray(response.json)
  ) {
    throw new RuleViolation(
      `${statusLine(exchange)} with ${response.bodyText ? 'a body that is not a JSON object' : 'an empty body'}; expected ${what}`,
      exchange,
    );
  }
  return response.json as Record<string, unknown>;
}

/** A member's JSON type as the message names it: typeof says "object" of an array and of null. */
function jsonKind(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** ERR-1's shape, also used by checks that expect a refusal. */
export function expectErrorDetail(exchange: Exchange): void {
  const body = expectJsonObject(exchange, 'a JSON error object with a string `detail`');
  if (typeof body.detail !== 'string') {
    throw new RuleViolation(
      `${statusLine(exchange)} with an error object whose \`detail\` is ${jsonKind(body.detail)}; expected a string`,
      exchange,
    );
  }
}
