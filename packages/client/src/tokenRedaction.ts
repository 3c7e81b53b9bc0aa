import { maskTokenShapes } from './tokenShapes.js';

/**
 * Replaces every occurrence of the token, and any other token-shaped text, in text the client
 * puts into an error or a log entry.
 */
export type Redactor = (text: string) => string;

export const REDACTED = '[token redacted]';

export function tokenRedactor(token: string): Redactor {
  // An empty token is refused earlier; guard anyway so `split('')` never explodes the text.
  if (token.length === 0) return (text) => maskTokenShapes(text, REDACTED);
  return (text) => maskTokenShapes(text.includes(token) ? text.split(token).join(REDACTED) : text, REDACTED);
}

/** Describes a thrown value in one line, with the token removed. */
export function describeThrown(thrown: unknown, redact: Redactor): string {
  if (thrown instanceof Error) {
    const cause = thrown.cause instanceof Error ? ` (cause: ${thrown.cause.message})` : '';
    return redact(`${thrown.name}: ${thrown.message}${cause}`);
  }
  return redact(String(thrown));
}
