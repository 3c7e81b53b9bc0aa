import { type ApiOperation, apiOperations } from '@cloud-api/types';

/** Schema path → upper-case HTTP method → operation. Every request is looked up here once. */
const byPathAndMethod = new Map<string, Map<string, ApiOperation>>();
for (const operation of Object.values(apiOperations)) {
  const methods = byPathAndMethod.get(operation.path) ?? new Map<string, ApiOperation>();
  methods.set(operation.method.toUpperCase(), operation);
  byPathAndMethod.set(operation.path, methods);
}

/** The spec's operation for a request, by HTTP method and schema path (`/compute/gpu-vms/{vm_id}`). */
export function findOperation(method: string, schemaPath: string): ApiOperation | undefined {
  const methods = byPathAndMethod.get(schemaPath);
  // openapi-fetch sends upper-case methods; the fallback only serves other spellings.
  return methods === undefined ? undefined : (methods.get(method) ?? methods.get(method.toUpperCase()));
}

/** Operation ids of the billable creates: the spec's `x-billable-create`, declared in one place. */
export const billableCreateIds: readonly string[] = Object.values(apiOperations)
  .filter((op) => op.billableCreate)
  .map((op) => op.operationId);
