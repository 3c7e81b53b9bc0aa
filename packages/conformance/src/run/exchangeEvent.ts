import { loadOpenApiDocument, operationCatalogue } from '@cloud-api/spec';
import { redactHeaders } from '../checks/failureReport.js';
import type { SecretRedactor } from '../secrets/secretRedactor.js';
import { createOperationRoutes } from '../spec/operationRoutes.js';
import type { Exchange } from '../transport/exchange.js';
import type { CheckRef, ExchangeEvent, ObservedBody } from './events.js';

/**
 * Longest body an `exchange` event carries, in characters. Far above any record of this API, so a
 * report shows real answers whole; a target that sends megabytes costs each report 16 KiB.
 */
export const EXCHANGE_BODY_LIMIT = 16_384;

/** Redacted, then cut (`redactHead`): a cut first could split a secret and leave half of it unmasked. */
function observedBody(text: string, redactor: SecretRedactor): ObservedBody {
  const truncated = text.length > EXCHANGE_BODY_LIMIT;
  return {
    text: redactor.redactHead(text, EXCHANGE_BODY_LIMIT),
    size: Buffer.byteLength(text),
    truncated,
  };
}

/**
 * Builds the `exchange` events of a run. Made only when a reporter observes exchanges, so a run
 * without one neither routes nor copies its traffic.
 */
export function exchangeEvents(
  redactor: SecretRedactor,
): (check: CheckRef, exchange: Exchange) => ExchangeEvent {
  const routes = createOperationRoutes(operationCatalogue(loadOpenApiDocument()));
  return (check, { request, response, url }) => {
    const redactedUrl = redactor.redact(url);
    const operationId = routes.find(request.method, request.path)?.operationId;
    // `startedAt` is on this process's performance clock; without it (a test double), count back from now.
    const sentAt = performance.timeOrigin + (response.startedAt ?? performance.now() - response.durationMs);
    return {
      type: 'exchange',
      check,
      method: request.method,
      url: redactedUrl,
      status: response.status,
      durationMs: response.durationMs,
      startedAt: new Date(sentAt).toISOString(),
      ...(operationId ? { operationId } : {}),
      request: {
        method: request.method,
        url: redactedUrl,
        headers: redactHeaders(request.headers, redactor),
        ...(request.body !== undefined ? { body: observedBody(request.body, redactor) } : {}),
      },
      response: {
        status: response.status,
        headers: redactHeaders(response.headers, redactor),
        body: observedBody(response.bodyText, redactor),
      },
    };
  };
}
