import fc from 'fast-check';
import { MUTATING_OPERATIONS, operationRequest, usableOperations } from '../generate/operationRequest.js';
import { anyOperation } from '../generate/operations.js';
import { OTHER_ACCEPTS } from '../generate/otherAccepts.js';
import { identityWith, namedWorkspaces } from '../session/identities.js';
import type { Session } from '../session/session.js';
import type { Exchange } from '../transport/exchange.js';
import { notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { expectJsonObject, expectStatus, is2xx, RuleViolation } from './ruleViolation.js';
import { acceptedRelease, consumedFixture } from './sharedRequests.js';

const checks: Check[] = [];

checks.push(
  defineCheck(
    'RESP-1',
    'every answer is JSON and validates against the spec schema for its operation and status',
    async (t) => {
      const session = t.session;
      await t.check(
        anyOperation(session, 'positive'),
        async (op) => {
          const exchange = await session.http.send(operationRequest(op, session, 'positive'));
          const { response } = exchange;
          const result = session.validator.check(op.operationId, response.status, response.json);
          if (!result.responseKey)
            throw new RuleViolation(
              `${op.operationId} answered ${response.status}, a status the spec does not declare for it`,
              exchange,
            );
          if (!result.expectsBody) return observed;
          const type = response.headers['content-type'] ?? '';
          if (!/json/i.test(type))
            throw new RuleViolation(
              `Content-Type is ${JSON.stringify(type)}; all responses are JSON`,
              exchange,
            );
          if (!response.isJson) throw new RuleViolation('the body is not valid JSON', exchange);
          if (result.mustErrors.length > 0) {
            throw new RuleViolation(
              `body does not match the spec's ${op.operationId} ${result.responseKey} schema: ${result.mustErrors.join('; ')}`,
              exchange,
            );
          }
          // The rule is about successes returning the resource: error answers alone are no evidence of it.
          return is2xx(response.status)
            ? observed
            : notApplicable(`${op.operationId} answered ${response.status}, not a success`);
        },
        { examples: usableOperations(session, 'positive'), independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'RESP-1',
    'answers JSON whatever format the Accept header asks for (XML, a browser list, plain text, anything)',
    async (t) => {
      const session = t.session;
      const cases = usableOperations(session, 'positive')
        .filter((op) => !MUTATING_OPERATIONS.has(op.operationId))
        .flatMap((op) => OTHER_ACCEPTS.map((accept) => ({ op, accept })));
      if (cases.length === 0) return t.skip('no operation that only reads is usable on this profile');
      await t.check(
        fc.constantFrom(...cases),
        async ({ op, accept }) => {
          const request = operationRequest(op, session, 'positive');
          const exchange = await session.http.send({ ...request, headers: { ...request.headers, accept } });
          const { response } = exchange;
          if (response.bodyText === '') return observed;
          const type = response.headers['content-type'] ?? '';
          if (!/json/i.test(type) || !response.isJson)
            throw new RuleViolation(
              `${op.operationId} asked with Accept: ${accept} answered ${response.status} with Content-Type ${JSON.stringify(type)}${response.isJson ? '' : ' and a body that is not JSON'}; all responses are JSON, whatever the Accept header asks`,
              exchange,
            );
          return observed;
        },
        { examples: cases, exhaustive: true, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck('RESP-2', 'release reserved IP answers 204 with no body', async (t) => {
    t.requireMutations();
    const session = t.session;
    await t.check(
      fc.constant('releaseReservedIp'),
      async () => {
        const { exchange } = await acceptedRelease(session);
        const consumed = consumedFixture(
          session,
          exchange,
          'a reserved IP',
          'resources.releasableReservedIpIds',
        );
        if (consumed) return consumed;
        expectStatus(exchange, (s) => s === 204, '204 No Content');
        if (exchange.response.bodyText.length > 0)
          throw new RuleViolation(
            `204 came with a ${exchange.response.bodyText.length}-byte body; expected none`,
            exchange,
          );
        // HTTP clients drop what follows a 204 (Node's parser refuses it: a wire defect), so a
        // body the target meant to send shows there, or in its headers: a length above zero, or chunks.
        const after = exchange.response.wireDefects?.find((defect) => defect.startsWith('bytes came after'));
        if (after)
          throw new RuleViolation(`204 came with a body sent after it: ${after}; expected none`, exchange);
        const { headers } = exchange.response;
        const length = headers['content-length'];
        if ((length !== undefined && length.trim() !== '0') || headers['transfer-encoding'] !== undefined)
          throw new RuleViolation(
            `204 came with ${length !== undefined ? `Content-Length: ${length}` : `Transfer-Encoding: ${headers['transfer-encoding']}`}: a body was sent; expected none`,
            exchange,
          );
        return observed;
      },
      { maxRuns: 1 },
    );
  }),
);

checks.push(
  defineCheck('RESP-3', 'the bucket list is the list itself, a JSON array, not an envelope', async (t) => {
    const session = t.session;
    const op = session.operation('listBuckets');
    // Every workspace the profile names: one without buckets shows how an empty list is written
    // (a Go nil slice serialises as null).
    const tokenFor = (workspace: string) => identityWith(session.profile, op.scope, workspace)?.token;
    const readable = namedWorkspaces(session.profile).filter(
      (workspace) => tokenFor(workspace) !== undefined,
    );
    if (readable.length === 0) return t.skip(`profile has no identity holding ${op.scope} on its workspaces`);
    await t.check(
      fc.constantFrom(...readable),
      async (workspace) => {
        const exchange = await session.http.send(
          operationRequest(op, session, 'positive', {
            workspaceId: workspace,
            token: tokenFor(workspace) ?? '',
          }),
        );
        // A workspace the profile names, read by an identity allowed there: its list exists even
        // when it holds no bucket ("not found" is for a resource, not an empty collection).
        if (exchange.response.status === 404)
          throw new RuleViolation(
            `list buckets in workspace ${workspace}, by an identity holding ${op.scope} there, answered 404; the operation's success is "bucket list", an empty one too ("404 Not Found | The resource was not found" names no empty collection)`,
            exchange,
          );
        if (!is2xx(exchange.response.status))
          return notApplicable(
            `list buckets in workspace ${workspace} answered ${exchange.response.status}, not a bucket list`,
          );
        expectBucketArray(exchange, 'the bucket list');
        return observed;
      },
      { independent: true, examples: readable, exhaustive: true },
    );
    // Every bucket list the run was served, whichever check asked for it.
    const { served, notArrays } = session.servedBucketLists.seen();
    const [wrapped] = notArrays;
    if (wrapped) {
      const { request, response } = wrapped;
      expectBucketArray(
        wrapped,
        `of the ${served} bucket lists served during the run, ${notArrays.length === 3 ? 'at least 3 were' : notArrays.length === 1 ? 'one was' : `${notArrays.length} were`} not a JSON array; the first, to GET ${request.path}?${request.encodedQuery ?? request.query.map(([k, v]) => `${k}=${v}`).join('&')} (${response.status}: ${JSON.stringify(response.bodyText.slice(0, 160))}),`,
      );
    }
  }),
);

/** "A successful response returns the resource itself, not an envelope": a list is a JSON array. */
function expectBucketArray(exchange: Exchange, what: string): void {
  const list = exchange.response.json;
  if (Array.isArray(list)) return;
  throw new RuleViolation(
    `${what} is ${
      list === null
        ? 'null'
        : typeof list === 'object'
          ? `an object with ${
              Object.keys(list)
                .map((k) => JSON.stringify(k))
                .join(', ') || 'no fields'
            } (an envelope)`
          : exchange.response.isJson
            ? `a JSON ${typeof list}`
            : 'not JSON'
    }; "A successful response returns the resource itself, not an envelope."`,
    exchange,
  );
}

const ENUMS: Record<string, Record<string, readonly string[]>> = {
  getCloudVmSnapshotRestore: {
    status: ['queued', 'running', 'succeeded', 'failed', 'cancelled'],
    target_mode: ['replace', 'new_vm', 'volume_only'],
    recovery_point_type: ['backup', 'snapshot'],
  },
  updateNatPortForwardingRule: {
    status: ['provisioning', 'available', 'error', 'deleting'],
    protocol: ['tcp', 'udp'],
  },
  enableGpuVmBackups: { last_status: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] },
};

checks.push(
  defineCheck(
    'ENUM-1',
    'enum fields of restores, NAT rules and backup policies take only documented values',
    async (t) => {
      const session = t.session;
      const ops = Object.keys(ENUMS)
        .map((id) => session.operation(id))
        .filter((op) => anyOperationIds(session).has(op.operationId));
      if (ops.length === 0)
        return t.skip(
          'profile offers no restore (resources.restoreIds) and no mutations for NAT rules or backups',
        );
      // Every restore the profile lists, not the first only: restores in other states (running,
      // failed) carry other fields, and each answer also goes through RESP-1's schema audit.
      const restoreIds = session.profile.resources?.restoreIds ?? [];
      const cases = ops.flatMap((op) =>
        op.operationId === 'getCloudVmSnapshotRestore' && restoreIds.length > 1
          ? restoreIds.map((restoreId) => ({ op, pathIds: { restore_id: restoreId } }))
          : [{ op, pathIds: {} }],
      );
      await t.check(
        fc.constantFrom(...cases),
        async ({ op, pathIds }) => {
          const exchange = await session.http.send(operationRequest(op, session, 'positive', { pathIds }));
          // 409 on a second enable is allowed; other rules judge other statuses. Either way no record.
          if (exchange.response.status !== 200)
            return notApplicable(`${op.operationId} answered ${exchange.response.status}, not a record`);
          const record = expectJsonObject(exchange, 'the record');
          let checked = 0;
          for (const [field, allowed] of Object.entries(ENUMS[op.operationId] ?? {})) {
            if (!(field in record) || record[field] === undefined) continue;
            checked++;
            if (!allowed.includes(record[field] as string)) {
              throw new RuleViolation(
                `${field} is ${JSON.stringify(record[field])}, not one of ${allowed.join(', ')}`,
                exchange,
              );
            }
          }
          return checked > 0 ? observed : notApplicable(`the ${op.operationId} record carries no enum field`);
        },
        { examples: cases, independent: true },
      );
    },
  ),
);

function anyOperationIds(session: Session): Set<string> {
  return new Set(usableOperations(session, 'positive').map((op) => op.operationId));
}

/** The responses family's checks, in the order they run. */
export const responsesChecks: readonly Check[] = checks;
