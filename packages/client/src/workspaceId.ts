import { WorkspaceIdError } from './errors.js';

/**
 * The client sends only canonical positive decimal integers: digits, no sign, no leading zero.
 * The spec's pattern also admits leading zeros (A-WORKSPACE-ID-LEADING-ZEROS), but the document
 * does not say the server accepts them, so the client refuses them rather than guess.
 */
const CANONICAL_WORKSPACE_ID = /^[1-9][0-9]*$/;

/** Returns the canonical string form of a workspace id, or throws `WorkspaceIdError`. */
export function canonicalWorkspaceId(value: unknown, source: string): string {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value > 0) return String(value);
    throw new WorkspaceIdError(
      `${source} ${String(value)} is not a positive whole number; workspace_id must be a positive decimal integer such as "1042". Nothing was sent.`,
      String(value),
    );
  }
  if (typeof value === 'string' && CANONICAL_WORKSPACE_ID.test(value)) return value;
  const shown = typeof value === 'string' ? JSON.stringify(value) : typeof value;
  const hint =
    typeof value === 'string' && /^0+[1-9][0-9]*$/.test(value)
      ? ` Write it without leading zeros: "${value.replace(/^0+/, '')}".`
      : '';
  throw new WorkspaceIdError(
    `${source} ${shown} is not a positive decimal integer (digits only, no sign, no leading zero, not 0).${hint} Nothing was sent.`,
    typeof value === 'string' ? value : String(value),
  );
}
