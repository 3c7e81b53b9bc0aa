import { jsonResult } from '../operationResult.js';
import type { OperationHandler } from './operationContext.js';

export const listBuckets: OperationHandler = (request, services) =>
  jsonResult(200, services.store.bucketsByWorkspace.get(request.workspaceId) ?? []);
