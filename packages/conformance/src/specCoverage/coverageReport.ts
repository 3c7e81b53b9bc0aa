import type { OperationEntry } from '@cloud-api/spec';
import { requestFields } from '../spec/requestSchemas.js';
import type { CoverageDelta } from './coverageRecorder.js';

/** One operation's coverage: what the spec documents, and what the run sent and observed of it. */
export interface OperationCoverage {
  readonly operationId: string;
  readonly documentedResponses: readonly string[];
  readonly observedResponses: readonly string[];
  readonly documentedFields: readonly string[];
  readonly sentFields: readonly string[];
  /** `field=value` for every documented enum value; which of them were sent. */
  readonly documentedEnumValues: readonly string[];
  readonly sentEnumValues: readonly string[];
}

export interface RunCoverage {
  readonly operations: readonly OperationCoverage[];
  /** Observed (operation, documented response) pairs over all documented pairs. */
  readonly responsePairs: { readonly observed: number; readonly documented: number };
  readonly fieldPairs: { readonly sent: number; readonly documented: number };
  readonly enumValuePairs: { readonly sent: number; readonly documented: number };
}

/** Merges every check's coverage into one per-operation account against the spec. */
export function runCoverage(
  operations: readonly OperationEntry[],
  deltas: readonly CoverageDelta[],
): RunCoverage {
  const observed = new Set(deltas.flatMap((d) => d.responses.map(([op, key]) => `${op} ${key}`)));
  const sent = new Set(deltas.flatMap((d) => d.fields.map(([op, field]) => `${op} ${field}`)));
  const sentEnums = new Set(
    deltas.flatMap((d) => d.enumValues.map(([op, field, value]) => `${op} ${field}=${value}`)),
  );
  const coverage = operations.map((op): OperationCoverage => {
    const fields = requestFields(op.operationId);
    const documentedEnumValues = fields.flatMap((f) =>
      (f.enum ?? []).map((v) => `${f.path.join('.')}=${String(v)}`),
    );
    return {
      operationId: op.operationId,
      documentedResponses: op.responseKeys,
      observedResponses: op.responseKeys.filter((key) => observed.has(`${op.operationId} ${key}`)),
      documentedFields: fields.map((f) => f.path.join('.')),
      sentFields: fields.map((f) => f.path.join('.')).filter((name) => sent.has(`${op.operationId} ${name}`)),
      documentedEnumValues,
      sentEnumValues: documentedEnumValues.filter((entry) => sentEnums.has(`${op.operationId} ${entry}`)),
    };
  });
  const sum = (pick: (c: OperationCoverage) => number) => coverage.reduce((total, c) => total + pick(c), 0);
  return {
    operations: coverage,
    responsePairs: {
      observed: sum((c) => c.observedResponses.length),
      documented: sum((c) => c.documentedResponses.length),
    },
    fieldPairs: { sent: sum((c) => c.sentFields.length), documented: sum((c) => c.documentedFields.length) },
    enumValuePairs: {
      sent: sum((c) => c.sentEnumValues.length),
      documented: sum((c) => c.documentedEnumValues.length),
    },
  };
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '100.0' : ((100 * part) / whole).toFixed(1);
}

/**
 * The lines the table and the Markdown summary print: totals, then what is missing per operation.
 * A run of some rules only (a replay, `--rules`, a shard) leaves most of the spec unsent by
 * design, so it prints the totals and `partial` (why the gaps are not listed) instead.
 */
export function coverageLines(coverage: RunCoverage, partial?: string): string[] {
  const { responsePairs: r, fieldPairs: f, enumValuePairs: e } = coverage;
  const lines = [
    `Coverage: ${r.observed} of ${r.documented} documented (operation, response) pairs observed (${percent(r.observed, r.documented)} %); ${f.sent} of ${f.documented} request fields and ${e.sent} of ${e.documented} enum values sent in accepted requests`,
  ];
  if (partial !== undefined) return [...lines, `  ${partial}`];
  for (const op of coverage.operations) {
    const missing = op.documentedResponses.filter((key) => !op.observedResponses.includes(key));
    const unsent = op.documentedEnumValues.filter((value) => !op.sentEnumValues.includes(value));
    const unsentFields = op.documentedFields.filter((field) => !op.sentFields.includes(field));
    if (missing.length === 0 && unsent.length === 0 && unsentFields.length === 0) continue;
    lines.push(
      `  ${op.operationId}: ${[
        ...(missing.length ? [`responses not observed: ${missing.join(', ')}`] : []),
        ...(unsentFields.length
          ? [`fields not sent in an accepted request: ${unsentFields.join(', ')}`]
          : []),
        ...(unsent.length ? [`enum values not sent: ${unsent.join(', ')}`] : []),
      ].join('; ')}`,
    );
  }
  return lines;
}
