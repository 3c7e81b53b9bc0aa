import { type OpenApiDocument, resolveLocalRef } from './openApiDocument.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What the spec says about one operation, flattened for the tools downstream. */
export interface OperationEntry {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** The one scope the operation needs. */
  readonly scope: string;
  /** Path parameter names, in path order. */
  readonly pathParameters: readonly string[];
  /** Answers 202 with an operation acceptance record. */
  readonly async: boolean;
  /** Requires `X-Idempotency-Key`. */
  readonly idempotencyKeyRequired: boolean;
  /** A billable create: preceded by the billing eligibility preflight. */
  readonly billableCreate: boolean;
  readonly hasRequestBody: boolean;
  /** The success status the spec declares (a number, e.g. 200, 202, 204). */
  readonly successStatus: number;
  /** Every response key the spec declares: numbers, ranges such as `4XX`, and `default`. */
  readonly responseKeys: readonly string[];
  readonly notShown: readonly string[];
}

const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

interface RawOperation {
  operationId: string;
  summary: string;
  tags: string[];
  'x-scope': string;
  'x-async'?: boolean;
  'x-billable-create'?: boolean;
  'x-not-shown'?: string[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

/** Lists every operation of the spec in path order. */
export function operationCatalogue(doc: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as RawOperation | undefined;
      if (!op) continue;
      const parameters = (op.parameters ?? []).map((p) => resolveLocalRef(doc, p));
      const responseKeys = Object.keys(op.responses);
      const success = responseKeys.find((key) => /^2\d\d$/.test(key));
      if (!success) throw new Error(`${op.operationId} declares no numbered 2xx response`);
      entries.push({
        operationId: op.operationId,
        method,
        path,
        summary: op.summary,
        tag: op.tags[0] ?? '',
        scope: op['x-scope'],
        pathParameters: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string),
        async: op['x-async'] === true,
        idempotencyKeyRequired: parameters.some(
          (p) => p.in === 'header' && p.name.toLowerCase() === 'x-idempotency-key' && p.required === true,
        ),
        billableCreate: op['x-billable-create'] === true,
        hasRequestBody: op.requestBody !== undefined,
        successStatus: Number(success),
        responseKeys,
        notShown: op['x-not-shown'] ?? [],
      });
    }
  }
  return entries;
}
