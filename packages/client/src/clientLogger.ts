import type { Redactor } from './tokenRedaction.js';

/** One structured log line. It never holds the token, headers or bodies. */
export interface ClientLogEntry {
  readonly level: 'debug' | 'warn';
  readonly event: 'request' | 'response' | 'retry' | 'billing-blocked';
  readonly message: string;
  readonly method?: string;
  /** URL path of the request, without query string. */
  readonly path?: string;
  readonly status?: number;
  /** The server's request id of the answer (see `ApiError.requestId`), if it sent one. */
  readonly requestId?: string;
  readonly attempt?: number;
  readonly delayMs?: number;
  readonly durationMs?: number;
}

export type ClientLogger = (entry: ClientLogEntry) => void;

/** Wraps the caller's logger so each entry's message is redacted and a throwing logger is contained. */
export function safeLogger(logger: ClientLogger | undefined, redact: Redactor): ClientLogger | undefined {
  if (!logger) return undefined;
  return (entry) => {
    try {
      logger({ ...entry, message: redact(entry.message) });
    } catch {
      // A broken logger must not turn a successful request into a failure.
    }
  };
}
