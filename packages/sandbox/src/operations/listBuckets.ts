import { errorResult, jsonResult } from '../operationResult.js';
import type { OperationHandler } from './operationContext.js';

/** The region table of the bucket-list-region-lookup-crash fault: it lacks the sandbox's region. */
const REGION_NAMES: ReadonlyMap<string, { readonly displayName: string }> = new Map([
  ['eu-ams-1', { displayName: 'Amsterdam 1' }],
]);

/** How long the bucket-list-cached-without-workspace fault keeps a list. */
const LIST_CACHE_MS = 60_000;

export const listBuckets: OperationHandler = (request, services) => {
  const { store, clock } = services;
  const buckets = store.bucketsByWorkspace.get(request.workspaceId) ?? [];
  switch (services.behaviour.fault) {
    case 'bucket-list-cached-without-workspace': {
      // A read-through cache keyed by the route alone: the first list read is every workspace's.
      const cached = store.bucketListCache;
      if (cached && clock.now() - cached.at < LIST_CACHE_MS) return jsonResult(200, cached.buckets);
      store.bucketListCache = { buckets, at: clock.now() };
      return jsonResult(200, buckets);
    }
    case 'bucket-list-organization-wide':
      // The query filters by the caller's organization, not by workspace_id.
      return jsonResult(200, [...store.bucketsByWorkspace.values()].flat());
    case 'bucket-list-paginated':
      return jsonResult(200, { items: buckets, next: null });
    case 'bucket-list-serialised-from-set':
      // JSON.stringify(new Set(...)) is "{}".
      return jsonResult(200, new Set(buckets));
    case 'empty-bucket-list-404':
      // An empty result is taken for a missing resource (a findOrFail on the collection).
      return buckets.length === 0
        ? errorResult(404, `No buckets found in workspace ${request.workspaceId}.`)
        : jsonResult(200, buckets);
    case 'bucket-list-envelope-on-canary':
      // One request in eight reaches a canary instance running the next version, which pages lists.
      store.bucketListsServed++;
      return store.bucketListsServed % 8 === 0
        ? jsonResult(200, { items: buckets, next_page_token: null })
        : jsonResult(200, buckets);
    case 'empty-bucket-list-null':
      // A nil slice marshals as null.
      return jsonResult(200, buckets.length === 0 ? null : buckets);
    case 'bucket-list-region-lookup-crash':
      try {
        return jsonResult(
          200,
          buckets.map((bucket) => ({
            ...bucket,
            region: (REGION_NAMES.get(bucket.region) as { displayName: string }).displayName,
          })),
        );
      } catch {
        // Reading displayName of undefined: the generic handler's 500.
        return errorResult(500, 'Internal Server Error');
      }
    default:
      return jsonResult(200, buckets);
  }
};
