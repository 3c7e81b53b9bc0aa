import { loadOpenApiDocument, operationCatalogue } from '@cloud-api/spec';
import { describe, expect, test } from 'vitest';
import { apiOperations, apiServers } from '../src/index.js';

describe('apiOperations', () => {
  const catalogue = operationCatalogue(loadOpenApiDocument());

  test('lists every operation of the spec with its method, path and flags', () => {
    expect(Object.keys(apiOperations).sort()).toEqual(catalogue.map((op) => op.operationId).sort());
    for (const op of catalogue) {
      const entry = apiOperations[op.operationId as keyof typeof apiOperations];
      expect(entry).toMatchObject({
        method: op.method,
        path: op.path,
        scope: op.scope,
        idempotencyKeyRequired: op.idempotencyKeyRequired,
        billableCreate: op.billableCreate,
        successStatus: op.successStatus,
      });
    }
  });

  test('marks create cloud VM as the billable create, and VM create and delete as keyed', () => {
    const billable = Object.values(apiOperations).filter((op) => op.billableCreate);
    expect(billable.map((op) => op.operationId)).toEqual(['createCloudVm']);
    const keyed = Object.values(apiOperations).filter((op) => op.idempotencyKeyRequired);
    expect(keyed.map((op) => op.operationId).sort()).toEqual(['createCloudVm', 'deleteGpuVm']);
  });
});

describe('apiServers', () => {
  test('binds each token prefix to one environment whose base URL ends with /v1', () => {
    expect(apiServers.map((s) => [s.environment, s.tokenPrefix])).toEqual([
      ['production', 'svc_prod_key_'],
      ['development', 'svc_dev_key_'],
    ]);
    for (const server of apiServers) expect(server.url).toMatch(/^https:\/\/[^/]+\.invalid\/v1$/);
    expect(new Set(apiServers.map((s) => s.url)).size).toBe(apiServers.length);
  });
});
