import { STATUS_CODES } from 'node:http';
import type { CheckRef, ExchangeEvent, ObservedBody, Reporter } from '../run/events.js';
import { suiteVersion } from '../run/suiteVersion.js';
import { headerValue } from '../transport/exchange.js';

export const HAR_FILE = 'conformance.har';

interface HarHeader {
  readonly name: string;
  readonly value: string;
}

interface HarPage {
  readonly startedDateTime: string;
  readonly id: string;
  readonly title: string;
  readonly pageTimings: Record<string, never>;
}

const TRUNCATED = (body: ObservedBody): string =>
  `truncated by the conformance suite: the first ${body.text.length} of ${body.size} bytes`;

function harHeaders(headers: Readonly<Record<string, string>>): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function queryString(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** One HAR 1.2 entry: the request, the answer, and which check sent it. */
function harEntry(event: ExchangeEvent, pageref: string) {
  const { request, response } = event;
  const requestType = headerValue(request.headers, 'content-type') ?? '';
  const responseType = headerValue(response.headers, 'content-type') ?? '';
  return {
    pageref,
    startedDateTime: event.startedAt,
    time: event.durationMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(request.headers),
      queryString: queryString(request.url),
      ...(request.body
        ? {
            postData: {
              mimeType: requestType,
              text: request.body.text,
              ...(request.body.truncated ? { comment: TRUNCATED(request.body) } : {}),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: request.body ? request.body.size : 0,
    },
    response: {
      status: response.status,
      statusText: STATUS_CODES[response.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(response.headers),
      content: {
        size: response.body.size,
        mimeType: responseType,
        text: response.body.text,
        ...(response.body.truncated ? { comment: TRUNCATED(response.body) } : {}),
      },
      redirectURL: headerValue(response.headers, 'location') ?? '',
      headersSize: -1,
      bodySize: response.body.size,
    },
    cache: {},
    // The suite times a request from send to the last byte of its body as one span.
    timings: { send: 0, wait: event.durationMs, receive: 0 },
    comment: `${event.check.rule}: ${event.check.title}`,
    _rule: event.check.rule,
    ...(event.operationId ? { _operationId: event.operationId } : {}),
  };
}

/**
 * Every request of the run and its answer as HAR 1.2 (conformance.har), for browser dev tools and
 * HAR viewers: one page per check, each entry's comment naming its rule and check. Headers, URLs
 * and bodies come redacted in the events, and the file passes the redactor once more as written.
 */
export function harReporter(): Reporter {
  const pages: HarPage[] = [];
  const entries: ReturnType<typeof harEntry>[] = [];
  let page: (CheckRef & { id: string }) | undefined;
  let comment = '';
  return {
    name: 'har',
    observesExchanges: true,
    onEvent(event, { writeFile, print }) {
      switch (event.type) {
        case 'run-start':
          comment = `Conformance run ${event.runId} against "${event.target}" (${event.targetKind}), seed ${event.seed}, depth ${event.depth}. Tokens and other secrets are masked.`;
          return;
        case 'check-start':
          page = { ...event.check, id: `check_${pages.length + 1}` };
          return;
        case 'exchange': {
          if (!page || page.title !== event.check.title) return;
          if (!pages.some((known) => known.id === page?.id))
            pages.push({ startedDateTime: event.startedAt, id: page.id, title: page.title, pageTimings: {} });
          entries.push(harEntry(event, page.id));
          return;
        }
        case 'check-end':
          page = undefined;
          return;
        case 'run-end': {
          const har = {
            log: {
              version: '1.2',
              creator: { name: '@cloud-api/conformance', version: suiteVersion() },
              pages,
              entries,
              comment: `${comment} Verdict: ${event.outcome.verdict}.`,
            },
          };
          print(`HAR: ${writeFile(HAR_FILE, `${JSON.stringify(har, null, 2)}\n`)}`);
        }
      }
    },
  };
}
