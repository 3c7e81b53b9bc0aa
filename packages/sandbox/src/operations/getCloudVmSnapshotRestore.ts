import { jsonResult } from '../operationResult.js';
import { SANDBOX_ORGANIZATION } from '../sandboxStore.js';
import { NOT_FOUND_DETAIL, type OperationHandler } from './operationContext.js';
import { inRequestWorkspace, notInWorkspace } from './workspaceFilter.js';

/** How long the restore-not-found-cached-by-id fault keeps a 404. */
const NOT_FOUND_CACHE_MS = 30_000;

export const getCloudVmSnapshotRestore: OperationHandler = (request, services) => {
  const { store, behaviour, clock } = services;
  const restoreId = request.pathParameters.restore_id ?? '';
  // A not-found answer cached by restore id alone: a 404 in one workspace hides the restore from its own.
  const negativeCache = behaviour.fault === 'restore-not-found-cached-by-id';
  const cachedAt = negativeCache ? store.restoreNotFoundAt.get(restoreId) : undefined;
  if (cachedAt !== undefined && clock.now() - cachedAt < NOT_FOUND_CACHE_MS)
    return notInWorkspace(
      services,
      request,
      undefined,
      NOT_FOUND_DETAIL('Restore', restoreId, request.workspaceId),
    );
  const stored =
    behaviour.fault === 'restore-lookup-by-prefix'
      ? // WHERE restore_id LIKE :id || '%': a cut-off id finds the first restore it begins.
        [...store.restores.values()].find((r) => restoreId !== '' && r.restore_id.startsWith(restoreId))
      : behaviour.fault === 'restore-id-case-insensitive'
        ? // A *_ci collation: RSR-0001 and rsr-0001 are the same key.
          [...store.restores.values()].find((r) => r.restore_id.toLowerCase() === restoreId.toLowerCase())
        : behaviour.fault === 'restore-id-trimmed'
          ? store.restores.get(restoreId.replace(/^[\s\0]+|[\s\0]+$/gu, ''))
          : store.restores.get(restoreId);
  let restore: object | undefined = stored;
  if (
    restore &&
    !inRequestWorkspace(
      (restore as { workspace_id: string }).workspace_id,
      request,
      services,
      'restore-lookup-ignores-workspace',
    )
  )
    restore = undefined;
  if (!restore) {
    if (behaviour.fault !== 'unknown-restore-answers-200') {
      if (negativeCache) store.restoreNotFoundAt.set(restoreId, clock.now());
      return notInWorkspace(
        services,
        request,
        stored?.workspace_id,
        NOT_FOUND_DETAIL('Restore', restoreId, request.workspaceId),
      );
    }
    restore = {
      organization_id: SANDBOX_ORGANIZATION.id,
      workspace_id: request.workspaceId,
      restore_id: restoreId,
      source_vm_id: 'vm-unknown',
      target_mode: 'new_vm',
      recovery_point_id: 'snap-unknown',
      status: 'queued',
    };
  }
  if (behaviour.fault === 'restore-status-extra-value') restore = { ...restore, status: 'completed' };
  if (behaviour.fault === 'restore-target-mode-enum-key') {
    // Serialised from the internal enum by its key (TargetMode.NEW_VM) instead of its value.
    const { target_mode } = restore as { target_mode: string };
    restore = { ...restore, target_mode: target_mode.toUpperCase() };
  }
  if (behaviour.fault === 'restore-internal-id-exposed')
    // The row's primary key is serialised as restore_id instead of the public id.
    restore = { ...restore, restore_id: String([...store.restores.keys()].indexOf(restoreId) + 1) };
  if (behaviour.fault === 'restore-times-swapped') {
    // The view maps each column to the other's field.
    const { started_at, completed_at } = restore as { started_at: unknown; completed_at: unknown };
    restore = { ...restore, started_at: completed_at, completed_at: started_at };
  }
  if (behaviour.fault === 'restore-in-envelope') return jsonResult(200, { data: restore });
  return jsonResult(200, restore);
};
