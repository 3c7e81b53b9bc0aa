import { type ApiOperation, apiOperations } from '@cloud-api/types';

const byMethodAndPath = new Map<string, ApiOperation>(
  Object.values(apiOperations).map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]),
);

/** The spec's operation for a request, by HTTP method and schema path (`/compute/gpu-vms/{vm_id}`). */
export function findOperation(method: string, schemaPath: string): ApiOperation | undefined {
  return byMethodAndPath.get(`${method.toUpperCase()} ${schemaPath}`);
}

/** Operation ids of the billable creates: the spec's `x-billable-create`, declared in one place. */
export const billableCreateIds: readonly string[] = Object.values(apiOperations)
  .filter((op) => op.billableCreate)
  .map((op) => op.operationId);
