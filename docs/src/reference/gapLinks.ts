import type { OpenApiDocument } from '@cloud-api/spec';

/** The ids a spec object names in `x-not-shown` and `x-assumptions`. */
export function gapIds(object: unknown): string[] {
  if (object === null || typeof object !== 'object') return [];
  const record = object as Record<string, unknown>;
  const ids = [record['x-not-shown'], record['x-assumptions']].flatMap((list) =>
    Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [],
  );
  return [...new Set(ids)];
}

/**
 * Links from a page at `pageDir` depth to the gap's row in "What the document leaves
 * unspecified"; an id the registries do not hold fails the build rather than linking nowhere.
 */
export function gapLink(id: string, document: OpenApiDocument, fromDir: '..' | '.'): string {
  const known =
    document['x-not-shown'].some((gap) => gap.id === id) ||
    document['x-assumptions'].some((assumption) => assumption.id === id);
  if (!known) throw new Error(`the spec names ${id}, which is neither in x-not-shown nor in x-assumptions`);
  return `[${id}](${fromDir}/guides/unspecified.md#${id})`;
}

/** A one-line summary of a gap or assumption, for lists on reference pages. */
export function gapSummary(id: string, document: OpenApiDocument): string {
  const gap = document['x-not-shown'].find((entry) => entry.id === id);
  if (gap) return `not shown: “${gap.quote.replace(/\s+/g, ' ')}”`;
  const assumption = document['x-assumptions'].find((entry) => entry.id === id);
  return assumption ? `assumption: ${assumption.subject} → ${assumption.choice}`.replace(/\s+/g, ' ') : id;
}

/**
 * The success status as a table cell; a status the document does not number (the spec's
 * assumption) carries the link to that assumption, so it never reads as the document's word.
 */
export function successStatusCell(
  operation: { readonly path: string; readonly method: string; readonly successStatus: number },
  document: OpenApiDocument,
): string {
  const raw = document.paths[operation.path]?.[operation.method] as
    | { responses?: Record<string, unknown> }
    | undefined;
  const ids = gapIds(raw?.responses?.[String(operation.successStatus)]);
  const links = ids.map((id) => gapLink(id, document, '..')).join(', ');
  return ids.length > 0 ? `${operation.successStatus} (assumed: ${links})` : String(operation.successStatus);
}
