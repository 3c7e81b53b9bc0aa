import type { Redactor } from './tokenRedaction.js';

/**
 * Response headers that may carry the server's id of a request. The document shows no such
 * header, so the client reads the usual names, first found wins; support can trace a failure
 * with it.
 */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-correlation-id'] as const;

/** The answer's request id, token removed (it goes into errors and log entries). */
export function requestIdOf(headers: Headers, redact: Redactor): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value !== null && value !== '') return redact(value);
  }
  return undefined;
}

/** The response headers as a plain record (lower-case names), token removed from every value. */
export function headerRecord(headers: Headers, redact: Redactor): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = redact(value);
  });
  return record;
}
