import type { ServerResponse } from 'node:http';
import type { OperationResult } from './operationResult.js';
import type { SandboxBehaviour } from './sandboxBehaviour.js';

const JSON_TYPE = 'application/json';

/** Serialises results: errors as `{ detail }`, successes as the record itself. */
export class ResponseWriter {
  private readonly successType: string;
  private readonly extraFields: boolean;
  private requestCounter = 0;

  constructor(private readonly behaviour: SandboxBehaviour) {
    this.successType =
      behaviour.fault === 'success-content-type-text' ? 'text/plain; charset=utf-8' : JSON_TYPE;
    this.extraFields = behaviour.variant === 'extra-record-fields';
  }

  send(res: ServerResponse, result: OperationResult): void {
    if (res.headersSent || res.writableEnded) return;
    switch (result.kind) {
      case 'json':
        if (this.behaviour.fault === 'success-negotiated-xml' && asksForXml(res.req.headers.accept)) {
          this.write(
            res,
            result.status,
            'application/xml',
            `<?xml version="1.0"?>${asXml('result', result.body)}`,
          );
          return;
        }
        this.write(
          res,
          result.status,
          this.successType,
          this.serialise(result.status, result.body, result.floatMembers),
        );
        return;
      case 'empty':
        // A server that passes a handler's echoed body through after a 204 (PHP's built-in
        // server): the bytes follow the head on the wire, and the connection is closed after them.
        if (this.behaviour.fault === 'release-204-body-on-the-wire' && res.socket) {
          res.socket.end(
            `HTTP/1.1 ${result.status} No Content\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"released":true}`,
          );
          return;
        }
        res.writeHead(
          result.status,
          this.behaviour.fault === 'release-204-announces-body' ? { 'content-length': '2' } : {},
        );
        res.end();
        return;
      case 'error':
        this.sendError(res, result.status, result.detail, result.headers);
        return;
    }
  }

  sendError(
    res: ServerResponse,
    status: number,
    detail: string,
    headers?: Readonly<Record<string, string>>,
  ): void {
    if (res.headersSent || res.writableEnded) return;
    if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    switch (this.behaviour.fault) {
      case 'error-body-not-json':
        this.write(res, status, 'text/plain; charset=utf-8', detail);
        return;
      case 'error-without-detail':
        this.write(res, status, JSON_TYPE, JSON.stringify(this.decorate({ message: detail })));
        return;
      case 'error-detail-number':
        this.write(res, status, JSON_TYPE, JSON.stringify(this.decorate({ detail: status })));
        return;
      case 'error-page-negotiated-html':
        // The error controller negotiates: a browser's Accept list gets the framework's error page.
        if ((res.req.headers.accept ?? '').includes('text/html')) {
          this.write(
            res,
            status,
            'text/html; charset=utf-8',
            `<html><body><h1>Whitelabel Error Page</h1><p>${status}: ${detail}</p></body></html>`,
          );
          return;
        }
        this.write(res, status, JSON_TYPE, JSON.stringify(this.decorate({ detail })));
        return;
      default:
        this.write(res, status, JSON_TYPE, JSON.stringify(this.decorate({ detail })));
    }
  }

  private write(res: ServerResponse, status: number, contentType: string, text: string): void {
    if (this.behaviour.variant === 'chunked-connection-close') {
      // No Content-Length: node frames the two writes as chunks, and closes the connection after.
      res.writeHead(status, {
        'content-type': contentType === JSON_TYPE ? `${JSON_TYPE}; charset=utf-8` : contentType,
        connection: 'close',
      });
      const half = Math.floor(text.length / 2);
      res.write(text.slice(0, half));
      res.end(text.slice(half));
      return;
    }
    const bytes = Buffer.from(text, this.behaviour.fault === 'text-sent-as-latin1' ? 'latin1' : 'utf8');
    const type = this.behaviour.fault === 'content-type-twice' ? [contentType, 'text/html'] : contentType;
    res.writeHead(status, { 'content-type': type, 'content-length': bytes.byteLength });
    res.end(bytes);
  }

  /**
   * The body as JSON text, with the members the store keeps as floats written as floats. The
   * acceptance-status-given-twice fault writes a 202's `status` once more, first, by hand.
   */
  private serialise(status: number, body: unknown, floatMembers: readonly string[] = []): string {
    const text = JSON.stringify(this.decorate(body));
    const accepted = status === 202 && body && typeof body === 'object' && 'status' in body;
    if (this.behaviour.fault === 'acceptance-status-given-twice' && accepted)
      return `{"status":"queued",${text.slice(1)}`;
    // The day counts of a backup policy computed by true division (hours / 24) are floats.
    if (this.behaviour.fault === 'backup-day-counts-written-as-floats')
      return withFloats(text, ['retention_days', 'full_backup_interval_days']);
    return withFloats(text, floatMembers);
  }

  /**
   * The extra-record-fields variant: undocumented fields on every record, which clients must
   * ignore. The optional-fields-absent variant: null members left out.
   */
  private decorate(body: unknown): unknown {
    if (this.behaviour.variant === 'optional-fields-absent') return withoutNulls(body);
    if (!this.extraFields) return body;
    const requestId = `req-${(++this.requestCounter).toString(16).padStart(8, '0')}`;
    const addFields = (value: unknown): unknown =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? { ...value, request_id: requestId, sandbox_revision: 'variant-extra-fields' }
        : value;
    return Array.isArray(body) ? body.map(addFields) : addFields(body);
  }
}

/** Integer members written as a float serialiser writes a float that holds one: `8082.0`. */
function withFloats(text: string, members: readonly string[]): string {
  let written = text;
  for (const member of members)
    written = written.replace(new RegExp(`("${member}":-?\\d+)(?=[,}])`, 'g'), '$1.0');
  return written;
}

/** The value with every null member of every object left out (array items are kept). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([key, member]) => [key, withoutNulls(member)]),
  );
}

/** The success-negotiated-xml fault: an Accept that names XML before (or without) JSON gets XML. */
function asksForXml(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((part) => part.split(';')[0]?.trim().toLowerCase());
  const xml = types.findIndex((type) => type === 'application/xml' || type === 'text/xml');
  const json = types.indexOf('application/json');
  return xml !== -1 && (json === -1 || xml < json);
}

/** What an XML message converter writes for a record or a list. */
function asXml(name: string, value: unknown): string {
  if (Array.isArray(value)) return `<${name}>${value.map((item) => asXml('item', item)).join('')}</${name}>`;
  if (value && typeof value === 'object')
    return `<${name}>${Object.entries(value)
      .map(([key, member]) => asXml(key, member))
      .join('')}</${name}>`;
  const text = String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;');
  return `<${name}>${text}</${name}>`;
}
