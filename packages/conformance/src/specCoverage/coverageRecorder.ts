import type { OperationEntry } from '@cloud-api/spec';
import type { ExchangeRecorder } from '../spec/operationRoutes.js';
import { requestFields } from '../spec/requestSchemas.js';

/** What one check sent and saw, in the words of the spec: operations, response keys, fields. */
export interface CoverageDelta {
  /** `[operationId, response key]`: the key the status matched (`404`, `4XX`, `default`). */
  readonly responses: readonly (readonly [string, string])[];
  /** `[operationId, dotted field path]` of every documented body field sent. */
  readonly fields: readonly (readonly [string, string])[];
  /** `[operationId, dotted field path, value]` of every documented enum value sent. */
  readonly enumValues: readonly (readonly [string, string, string])[];
}

/** The spec response key a status falls under: the status itself, its range, or `default`. */
export function responseKeyOf(op: OperationEntry, status: number): string | undefined {
  const exact = String(status);
  if (op.responseKeys.includes(exact)) return exact;
  const range = `${exact[0]}XX`;
  if (op.responseKeys.includes(range)) return range;
  return op.responseKeys.includes('default') ? 'default' : undefined;
}

function valueAt(body: unknown, path: readonly string[]): unknown {
  let current = body;
  for (const key of path) {
    if (!current || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export interface CoverageRecorder extends ExchangeRecorder {
  /**
   * A check identified an answer as a documented response whose status the spec cannot name
   * (the billing refusal is `default`: its status is not shown), so the key is noted directly.
   */
  noteResponse(operationId: string, key: string): void;
  /** Everything recorded since the last drain. */
  drain(): CoverageDelta;
}

// Every exchange of the run passes here: entries are kept as joined strings, split once at drain.
const SEPARATOR = '\u0000';
const entry = (...parts: string[]): string => parts.join(SEPARATOR);
const parts = <T extends string[]>(joined: string): T => joined.split(SEPARATOR) as T;

/** Reads every exchange the suite has with the target and notes what it covers of the spec. */
export function createCoverageRecorder(): CoverageRecorder {
  let responses = new Set<string>();
  let fields = new Set<string>();
  let enumValues = new Set<string>();
  return {
    record(exchange, op) {
      const { request, response } = exchange;
      const key = responseKeyOf(op, response.status);
      if (key) responses.add(entry(op.operationId, key));
      // A field counts as sent when the target accepted the request carrying it: the invalid
      // values of the negative checks (answered 400) exercise validation, not the field.
      if (request.body === undefined || response.status < 200 || response.status >= 300) return;
      const documented = requestFields(op.operationId);
      if (documented.length === 0) return;
      let body: unknown;
      try {
        body = JSON.parse(request.body);
      } catch {
        return;
      }
      for (const field of documented) {
        const value = valueAt(body, field.path);
        if (value === undefined) continue;
        const name = field.path.join('.');
        fields.add(entry(op.operationId, name));
        if (field.enum?.includes(value)) enumValues.add(entry(op.operationId, name, String(value)));
      }
    },
    noteResponse(operationId, key) {
      responses.add(entry(operationId, key));
    },
    drain() {
      const delta: CoverageDelta = {
        responses: [...responses].map((joined) => parts<[string, string]>(joined)),
        fields: [...fields].map((joined) => parts<[string, string]>(joined)),
        enumValues: [...enumValues].map((joined) => parts<[string, string, string]>(joined)),
      };
      responses = new Set();
      fields = new Set();
      enumValues = new Set();
      return delta;
    },
  };
}
