import type { OperationEntry } from '@cloud-api/spec';

/**
 * An answer that speaks of the resource a request names, not of the caller's access: 404 or 409
 * (missing, or consumed by an earlier request), and, asked through a workspace other than the
 * primary one that holds the profile's resources, 403 as well (the document shows no status for
 * a resource asked through another workspace). Never for an operation that names no resource.
 */
export function answersForResource(
  op: OperationEntry,
  workspace: string,
  primary: string,
  status: number,
): boolean {
  if (op.pathParameters.length === 0) return false;
  return status === 404 || status === 409 || (workspace !== primary && status === 403);
}
