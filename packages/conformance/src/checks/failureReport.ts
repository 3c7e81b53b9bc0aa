import type { SecretRedactor } from '../secrets/secretRedactor.js';
import type { Exchange } from '../transport/exchange.js';

/** Everything needed to understand and re-run one failure; secrets already redacted. */
export interface FailureReport {
  readonly rule: string;
  readonly test: string;
  readonly seed: number | undefined;
  readonly path: string | undefined;
  readonly counterexample: string | undefined;
  readonly message: string;
  readonly request?: { method: string; url: string; headers: Record<string, string>; body?: string };
  readonly response?: { status: number; headers: Record<string, string>; body: string };
  readonly replayFile?: string;
  /** The command that re-runs exactly this case against the same target, as the user ran the CLI. */
  readonly replayCommand?: string;
}

const MAX_BODY = 2000;

/** The body redacted and cut to MAX_BODY characters (`redactHead`: no half of a secret at the cut). */
function clip(text: string, redactor: SecretRedactor): string {
  const head = redactor.redactHead(text, MAX_BODY);
  return text.length > MAX_BODY ? `${head}… (${text.length} chars)` : head;
}

export function redactHeaders(
  headers: Readonly<Record<string, string>>,
  redactor: SecretRedactor,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      name.toLowerCase() === 'authorization' ? redactAuthorization(value, redactor) : redactor.redact(value),
    ]),
  );
}

/** Keeps the scheme (it is what AUTH-1 varies) and masks whatever credential follows. */
function redactAuthorization(value: string, redactor: SecretRedactor): string {
  const scheme = /^(\S+)(\s+)(.*)$/s.exec(value);
  if (!scheme) return redactor.redact(value);
  return redactor.redact(scheme[3] ? `${scheme[1]}${scheme[2]}[redacted]` : value);
}

export function describeExchange(
  exchange: Exchange | undefined,
  redactor: SecretRedactor,
): Pick<FailureReport, 'request' | 'response'> {
  if (!exchange) return {};
  const { request, response } = exchange;
  return {
    request: {
      method: request.method,
      url: redactor.redact(exchange.url),
      headers: redactHeaders(request.headers, redactor),
      ...(request.body !== undefined ? { body: clip(request.body, redactor) } : {}),
    },
    response: {
      status: response.status,
      headers: redactHeaders(response.headers, redactor),
      body: response.bodyTooLarge
        ? '(larger than maxResponseBytes: not read)'
        : clip(response.bodyText, redactor),
    },
  };
}

/**
 * A body on one line, its line breaks written `\n`: a target's text must not start lines of the
 * report of its own, such as a table row or "Verdict: PASSED".
 */
function oneLine(body: string): string {
  return body
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/[\u2028\u2029\u0085]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function formatFailure(report: FailureReport): string {
  const lines = [`[${report.rule}] ${report.message}`];
  if (report.seed !== undefined) lines.push(`  seed: ${report.seed}  path: ${report.path ?? '-'}`);
  if (report.counterexample !== undefined) lines.push(`  counterexample: ${report.counterexample}`);
  if (report.request) {
    lines.push(`  request: ${report.request.method} ${report.request.url}`);
    for (const [name, value] of Object.entries(report.request.headers)) lines.push(`    ${name}: ${value}`);
    if (report.request.body !== undefined) lines.push(`    body: ${oneLine(report.request.body)}`);
  }
  if (report.response) {
    lines.push(`  response: ${report.response.status}`);
    const type = report.response.headers['content-type'];
    if (type) lines.push(`    content-type: ${type}`);
    lines.push(`    body: ${oneLine(report.response.body) || '(empty)'}`);
  }
  if (report.replayCommand) lines.push(`  replay: ${report.replayCommand}`);
  return lines.join('\n');
}
