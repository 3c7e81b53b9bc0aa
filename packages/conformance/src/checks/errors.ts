import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { malformedBody } from '../generate/bodies.js';
import {
  missingId,
  operationRequest,
  type RequestOverrides,
  usableOperations,
} from '../generate/operationRequest.js';
import { anyOperation, everyPair } from '../generate/operations.js';
import { OTHER_ACCEPTS } from '../generate/otherAccepts.js';
import { invalidWorkspaceId } from '../generate/workspaceIds.js';
import { broadest, namedIdentities } from '../session/identities.js';
import type { Session } from '../session/session.js';
import type { ApiRequest, Exchange } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, type CheckContext, defineCheck } from './check.js';
import { sendJudgingDrops } from './droppedRequests.js';
import { keepingNatRule, readNatRule } from './natRuleReader.js';
import { expectErrorDetail, expectStatus, is2xx, RuleViolation } from './ruleViolation.js';
import { BACKUP_POLICY_NOT_CLEANED, CLOUD_VM_NOT_CLEANED } from './sharedRequests.js';

const withNotFound = (session: Session) =>
  usableOperations(session, 'positive').filter(
    (op) => op.pathParameters.length > 0 && op.responseKeys.includes('404'),
  );

/** What an accepted probe left on the target, for the report's created-resources list. */
function recordAccepted(t: CheckContext, operationId: string, exchange: Exchange): void {
  if (!is2xx(exchange.response.status)) return;
  const body = exchange.response.json as { vm_id?: unknown } | undefined;
  if (operationId === 'createCloudVm' && typeof body?.vm_id === 'string')
    t.recordCreated('cloud VM', body.vm_id, CLOUD_VM_NOT_CLEANED);
  if (operationId === 'enableGpuVmBackups' && typeof body?.vm_id === 'string')
    t.recordCreated('backup policy', body.vm_id, BACKUP_POLICY_NOT_CLEANED);
}

// Made once (see generate/authorization.ts): a string arbitrary is costly to make, not to reuse.
const missingIdSuffix = fc.stringMatching(/^[a-z0-9]{1,12}$/);

/**
 * An answer to a request the target must refuse, judged for its error shape. A success shows no
 * error body (which rule it breaks is the WS and AUTH rules' business): no evidence here.
 */
function judgedError(exchange: Exchange, operationId: string, request: string): CaseVerdict {
  if (is2xx(exchange.response.status))
    return notApplicable(`${operationId} answered ${exchange.response.status} to a ${request}`);
  try {
    expectErrorDetail(exchange);
  } catch (error) {
    throw new RuleViolation(`${(error as Error).message} (${request})`, exchange);
  }
  return observed;
}

const checks: Check[] = [];

checks.push(
  defineCheck('ERR-1', 'every error is a JSON object with a string detail', async (t) => {
    const session = t.session;
    const mistake = fc.oneof(
      fc.constant({ kind: 'no Authorization header', overrides: { authorization: null } as const }),
      fc.constant({ kind: 'unknown token', overrides: { token: 'svc_dev_key_conformance_unknown' } }),
      invalidWorkspaceId.map((workspaceId) => ({ kind: 'invalid workspace_id', overrides: { workspaceId } })),
      fc.constant({ kind: 'no workspace_id', overrides: { workspaceId: null } as const }),
    );
    await t.check(
      fc.tuple(anyOperation(session, 'probe'), mistake),
      async ([op, { kind, overrides }]) => {
        const exchange = await session.http.send(operationRequest(op, session, 'probe', overrides));
        return judgedError(exchange, op.operationId, `request with ${kind}`);
      },
      {
        examples: everyPair(usableOperations(session, 'probe'), [
          { kind: 'no Authorization header', overrides: { authorization: null } },
          { kind: 'invalid workspace_id', overrides: { workspaceId: '0' } },
        ]),
        independent: true,
      },
    );
  }),
);

/**
 * Requests only a router answers, before any handler of the application runs: a path under the
 * base that no endpoint has, and a GET on a path the document gives another method (POST or
 * PATCH only). Only GETs: a path may hold an endpoint the document does not show, and a GET
 * there changes nothing.
 */
function routerOnlyRequests(session: Session): { readonly what: string; readonly request: ApiRequest }[] {
  // Any identity will do: no endpoint, so no scope, is behind these paths.
  const anyone = broadest(namedIdentities(session.profile));
  const listing = (overrides: RequestOverrides = {}) =>
    operationRequest(session.operation('listBuckets'), session, 'positive', {
      ...(anyone ? { token: anyone.token } : {}),
      ...overrides,
    });
  const unknown = `/conformance-no-such-route-${randomUUID().slice(0, 8)}`;
  const otherMethod = usableOperations(session, 'positive')
    .filter((op) => ['POST', 'PATCH'].includes(op.method.toUpperCase()))
    .map((op) => {
      const request = operationRequest(op, session, 'positive', { idempotencyKey: null, body: null });
      return {
        what: `GET ${op.path} (the document gives it ${request.method} only)`,
        request: { ...request, method: 'GET' },
      };
    });
  return [
    { what: `GET ${unknown}, a path no endpoint has`, request: { ...listing(), path: unknown } },
    {
      what: `GET ${unknown} without an Authorization header`,
      request: { ...listing({ authorization: null }), path: unknown },
    },
    {
      what: `GET /compute${unknown}, under a product area`,
      request: { ...listing(), path: `/compute${unknown}` },
    },
    ...otherMethod,
  ];
}

checks.push(
  defineCheck(
    'ERR-1',
    'errors a router answers before any handler (a path no endpoint has, a method the path does not take) are JSON objects with a string detail too',
    async (t) => {
      const session = t.session;
      const cases = routerOnlyRequests(session);
      await t.check(
        fc.constantFrom(...cases),
        async ({ what, request }) => {
          const exchange = await session.http.send(request);
          // A success is an endpoint the document does not show: no error to judge.
          if (exchange.response.status < 400)
            return notApplicable(
              `${what} answered ${exchange.response.status}: an endpoint the document does not show`,
            );
          return judgedError(exchange, request.path, what);
        },
        { examples: cases, exhaustive: true, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'ERR-1',
    'every error is a JSON object with a string detail whatever format the Accept header asks for',
    async (t) => {
      const session = t.session;
      // An error controller that negotiates (Spring's) answers a browser's Accept list with an
      // HTML page: the errors a client meets most, a missing token and a missing resource.
      const mistakes = [
        ...usableOperations(session, 'probe').map((op) => ({
          op,
          kind: 'no Authorization header',
          overrides: { authorization: null } as const,
        })),
        ...withNotFound(session).map((op) => ({
          op,
          kind: 'an id that does not exist',
          overrides: {
            pathIds: Object.fromEntries(op.pathParameters.map((name) => [name, missingId(name)])),
          },
        })),
      ];
      const cases = mistakes.flatMap((mistake) => OTHER_ACCEPTS.map((accept) => ({ ...mistake, accept })));
      if (cases.length === 0) return t.skip('no operation is usable on this profile');
      await t.check(
        fc.constantFrom(...cases),
        async ({ op, kind, overrides, accept }) => {
          const request = operationRequest(op, session, 'probe', overrides);
          const exchange = await session.http.send({ ...request, headers: { ...request.headers, accept } });
          return judgedError(
            exchange,
            op.operationId,
            `request with ${kind}, Accept: ${accept}; all responses are JSON, whatever the Accept header asks`,
          );
        },
        { examples: cases, exhaustive: true, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck('ERR-2', 'answers 404 for a resource that does not exist', async (t) => {
    const session = t.session;
    const ops = withNotFound(session);
    if (ops.length === 0)
      return t.skip('no usable operation lists 404 (read-only profile without resources.restoreIds?)');
    await t.check(
      fc.tuple(fc.constantFrom(...ops), missingIdSuffix),
      async ([op, suffix]) => {
        const pathIds = Object.fromEntries(
          op.pathParameters.map((name) => [name, `${missingId(name)}-${suffix}`]),
        );
        const exchange = await session.http.send(operationRequest(op, session, 'positive', { pathIds }));
        expectStatus(exchange, (s) => s === 404, '404 for a resource that does not exist');
        expectErrorDetail(exchange);
        return observed;
      },
      { examples: everyPair(ops, ['x']), independent: true },
    );
  }),
);

/** A real id of the profile changed by one character: another identifier, since ids are opaque. */
interface NearMiss {
  readonly operationId: string;
  readonly pathIds: Readonly<Record<string, string>>;
  /** The path parameter changed, the real id and the near miss. */
  readonly parameter: string;
  readonly real: string;
  readonly near: string;
}

function nearMisses(session: Session): NearMiss[] {
  const { plan } = session;
  const usable = new Set(usableOperations(session, 'positive').map((op) => op.operationId));
  const targets: { operationId: string; pathIds: Record<string, string> }[] = [];
  if (plan.restore && usable.has('getCloudVmSnapshotRestore'))
    targets.push({ operationId: 'getCloudVmSnapshotRestore', pathIds: { restore_id: plan.restore } });
  // An empty partial update changes nothing, even where a loose lookup finds the real rule.
  if (plan.natRule && usable.has('updateNatPortForwardingRule'))
    targets.push({
      operationId: 'updateNatPortForwardingRule',
      pathIds: {
        vpc_id: plan.natRule.vpcId,
        nat_gateway_id: plan.natRule.natGatewayId,
        port_forwarding_rule_id: plan.natRule.ruleId,
      },
    });
  return targets.flatMap(({ operationId, pathIds }) =>
    Object.entries(pathIds).flatMap(([parameter, real]) =>
      [`${real}0`, ...(real.length > 1 ? [real.slice(0, -1)] : [])].map((near) => ({
        operationId,
        pathIds: { ...pathIds, [parameter]: near },
        parameter,
        real,
        near,
      })),
    ),
  );
}

checks.push(
  defineCheck('ERR-2', 'answers 404 for an id one character longer or shorter than a real one', async (t) => {
    const session = t.session;
    const cases = nearMisses(session);
    if (cases.length === 0)
      return t.skip('profile lists no resources.restoreIds, nor resources.natRules with mutations allowed');
    await t.check(
      fc.constantFrom(...cases),
      async ({ operationId, pathIds, parameter, real, near }) => {
        const op = session.operation(operationId);
        const body = op.hasRequestBody ? { body: '{}' } : {};
        const exchange = await session.http.send(
          operationRequest(op, session, 'positive', { pathIds, ...body }),
        );
        // A prefix or numeric lookup finds the real resource for a near miss: ids are opaque.
        expectStatus(
          exchange,
          (s) => s === 404,
          `404: ${parameter} ${JSON.stringify(near)} names no resource (it is not ${JSON.stringify(real)})`,
        );
        const own = await session.http.send(operationRequest(op, session, 'positive', body));
        if (!is2xx(own.response.status))
          return notApplicable(
            `${operationId} answered ${own.response.status} for the real ${parameter} too, so the 404 shows no strict lookup`,
          );
        return observed;
      },
      { examples: cases, independent: true },
    );
  }),
);

const oddPathId = fc.oneof(
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
  fc.constantFrom('..', '%2e%2e', 'ü', '💥', ' ', 'a'.repeat(2048), '%00', '\u0000', '${x}', '{}'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
);

/**
 * Any text as a workspace_id, and the values parsers and databases choke on: a number past any
 * integer column, an exponent past any float, digits a digit test passes and a parser refuses.
 */
const oddWorkspaceId = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom(
    '9'.repeat(400),
    '1e999',
    '-0',
    '\u00b9\u2070\u2074\u00b2',
    '\u2460',
    '\u00bd',
    '1042\u0000',
  ),
);

checks.push(
  defineCheck('ERR-3', 'never answers 5xx to malformed bodies, wrong types or odd encodings', async (t) => {
    const session = t.session;
    const withBody = usableOperations(session, 'probe').filter((op) => op.hasRequestBody);
    const withPath = usableOperations(session, 'positive').filter((op) => op.pathParameters.length > 0);
    const cases = fc.oneof(
      ...(withBody.length > 0
        ? [
            fc.tuple(fc.constantFrom(...withBody), malformedBody).map(([op, body]) => ({
              op,
              kind: body.kind,
              overrides: { body: body.body, contentType: body.contentType },
            })),
          ]
        : []),
      ...(withPath.length > 0
        ? [
            fc.tuple(fc.constantFrom(...withPath), oddPathId).map(([op, id]) => ({
              op,
              kind: 'odd path parameter',
              overrides: { pathIds: Object.fromEntries(op.pathParameters.map((name) => [name, id])) },
            })),
          ]
        : []),
      fc
        .tuple(anyOperation(session, 'probe'), oddWorkspaceId)
        .map(([op, workspaceId]) => ({ op, kind: 'random workspace_id', overrides: { workspaceId } })),
    );
    // A body with wrong types may still be one the document allows (a negative port: bounds are
    // not shown), and an accepted one changes the target: the NAT rule is put back, creates and
    // enabled backups are recorded.
    const patching = withBody.some((op) => op.operationId === 'updateNatPortForwardingRule');
    const natBefore = patching ? await readNatRule(session) : undefined;
    await keepingNatRule(t, natBefore, () =>
      t.check(
        cases,
        async ({ op, kind, overrides }) => {
          const exchange = await sendJudgingDrops(
            session,
            operationRequest(op, session, 'probe', overrides),
            kind,
          );
          expectStatus(exchange, (s) => s < 500, `a status below 500 for ${kind}`);
          recordAccepted(t, op.operationId, exchange);
          return observed;
        },
        {
          examples: withBody.flatMap((op) => [
            ...['{', '[1,', '"text"', '{"__proto__":{"polluted":true}}'].map((body) => ({
              op,
              kind: 'malformed or non-object JSON',
              overrides: { body, contentType: 'application/json' },
            })),
            // "Content-Type: application/json when a body is sent": every body-taking operation meets the others.
            ...['text/plain', 'application/x-www-form-urlencoded'].map((contentType) => ({
              op,
              kind: `a JSON body sent as ${contentType}`,
              overrides: { body: '{}', contentType },
            })),
          ]),
          independent: true,
        },
      ),
    );
  }),
);

/** The errors family's checks, in the order they run. */
export const errorsChecks: readonly Check[] = checks;
