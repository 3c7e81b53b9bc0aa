import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import { accessCases } from '../generate/accessCases.js';
import { operationRequest, usableOperations } from '../generate/operationRequest.js';
import { octalSpellingOf, overlappingIdsOf } from '../generate/workspaceForms.js';
import {
  allowsWorkspace,
  hasScope,
  identityWith,
  type NamedIdentity,
  namedIdentities,
  namedWorkspaces,
} from '../session/identities.js';
import type { Session } from '../session/session.js';
import type { ApiRequest, Exchange } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { answersForResource } from './resourceAnswers.js';
import { expectStatus, is2xx, RuleViolation } from './ruleViolation.js';
import { reportUnreachedOperations } from './unreachedOperations.js';

const notRefused = (status: number): boolean => status !== 401 && status !== 403;

/**
 * Evidence that access was granted: a success, or a 404/409 about a named resource (the target
 * looked it up, so it let the request through). A 5xx or another error shows nothing either way.
 */
function grantedAccess(op: OperationEntry, status: number): CaseVerdict {
  if (is2xx(status)) return observed;
  if (op.pathParameters.length > 0 && (status === 404 || status === 409)) return observed;
  return notApplicable(`${op.operationId} answered ${status}, neither a grant nor a refusal`);
}

const checks: Check[] = [];

/**
 * A 404 (a read's 409) in the primary workspace, where the profile's resources live, for a request the broadest
 * identity holding the scope is served: the resource was hidden from a token that holds the scope
 * and may use the workspace (a 404 standing in for a refusal, or a workspace filter comparing the
 * token's list in another type). Missing ids (the positive requests of consuming operations) are
 * 404 to everyone and show nothing.
 */
async function expectNotHiddenFrom(
  session: Session,
  identity: NamedIdentity,
  op: OperationEntry,
  exchange: Exchange,
): Promise<void> {
  const { primary } = session.profile.workspaces;
  const broadest = identityWith(session.profile, op.scope, primary);
  if (!broadest || broadest.token === identity.token) return;
  const served = await session.http.send(
    operationRequest(op, session, 'positive', { token: broadest.token, workspaceId: primary }),
  );
  if (is2xx(served.response.status))
    throw new RuleViolation(
      `${op.operationId} answered ${exchange.response.status} to identity "${identity.name}", which holds ${op.scope} and may use workspace ${primary}, and ${served.response.status} to identity "${broadest.name}" for the same request: a resource of the workspace was hidden from a token that may read it`,
      exchange,
    );
}

/** Each usable operation with each identity that lacks its scope, on the primary workspace. */
function lackingScope(session: Session) {
  const { primary } = session.profile.workspaces;
  return accessCases(
    session,
    'probe',
    [primary],
    (op, identity) => !hasScope(identity, op.scope) && allowsWorkspace(identity, primary),
  );
}

checks.push(
  defineCheck('SCOPE-1', 'answers 403 to every (operation, identity lacking its scope) pair', async (t) => {
    const session = t.session;
    const pairs = lackingScope(session);
    if (pairs.length === 0) return t.skip('profile has no identity lacking the scope of a usable operation');
    const { primary } = session.profile.workspaces;
    // A guard can be missing on one service only: every operation no pair reaches is named.
    reportUnreachedOperations(t, 'probe', new Set(pairs.map(({ op }) => op.operationId)), (op) => ({
      why: `no identity allowed on workspace ${primary} lacks ${op.scope}`,
      remedy: `add an identity allowed on workspace ${primary} that lacks ${op.scope}`,
    }));
    await t.check(
      fc.constantFrom(...pairs),
      async ({ op, identity }) => {
        const exchange = await session.http.send(
          operationRequest(op, session, 'probe', { token: identity.token }),
        );
        expectStatus(exchange, (s) => s === 403, `403: identity "${identity.name}" lacks ${op.scope}`);
        return observed;
      },
      { examples: pairs, independent: true },
    );
  }),
);

/**
 * A SCOPE-1 check that sends each lacking-scope request written another way, which the API's
 * router may still serve while a guard keyed by the exact request misses it: refused or not found
 * both pass; served never. `only` narrows the operations (named in the skip when none is left).
 */
function respelledScopeCheck(
  description: string,
  respell: (request: ApiRequest, op: OperationEntry, session: Session) => ApiRequest,
  spelling: string,
  only?: { readonly operations: string; readonly keep: (op: OperationEntry) => boolean },
): Check {
  return defineCheck('SCOPE-1', description, async (t) => {
    const session = t.session;
    const pairs = lackingScope(session).filter(({ op }) => !only || only.keep(op));
    if (pairs.length === 0)
      return t.skip(
        `profile has no identity lacking the scope of a usable ${only?.operations ?? 'operation'}`,
      );
    await t.check(
      fc.constantFrom(...pairs),
      async ({ op, identity }) => {
        const request = operationRequest(op, session, 'probe', { token: identity.token });
        const exchange = await session.http.send(respell(request, op, session));
        expectStatus(
          exchange,
          (s) => !is2xx(s),
          `no 2xx: identity "${identity.name}" lacks ${op.scope}, ${spelling}`,
        );
        return observed;
      },
      { examples: pairs, independent: true },
    );
  });
}

checks.push(
  // A router without strict routing serves the path with a slash too; a guard bound to the exact
  // path then never runs.
  respelledScopeCheck(
    'never serves an identity lacking the scope the same path with a trailing slash',
    (request) => ({ ...request, path: `${request.path}/` }),
    "whatever the path's spelling (a 403, a 404 or a redirect passes)",
  ),
  // A case-insensitive router (Express's default) serves `/NETWORKING/RESERVED-IPS/…`, while a
  // guard table matching paths case-sensitively finds no entry and lets it through.
  respelledScopeCheck(
    "never serves an identity lacking the scope the path's fixed segments in capitals",
    (request, op) => ({ ...request, path: fixedSegmentsInCapitals(request.path, op.path) }),
    'whatever the letter case of its fixed segments (a 403 or a 404 passes)',
  ),
  // A gateway that picks the service (and so the scope) from the raw path's first segment, before
  // the service resolves `..`, checks `/compute/../networking/…` as a compute request.
  respelledScopeCheck(
    "never serves an identity lacking the scope the path reached through another service's prefix and a dot segment",
    (request, _op, session) => {
      const own = request.path.split('/')[1];
      const other = session.operations.map((op) => op.path.split('/')[1]).find((p) => p && p !== own);
      return { ...request, path: `/${other ?? 'other'}/..${request.path}`, rawPath: true };
    },
    'however the path is reached (a 403, a 404 or a 400 passes; the path is sent with its dot segment as written)',
  ),
  // A framework that honours the override header runs the operation, while a gateway whose scope
  // table is keyed by the method on the wire finds no entry for a POST. Deletes and updates only:
  // a POST to a read's path may be another endpoint (a POST to the bucket list creates a bucket).
  respelledScopeCheck(
    'never serves an identity lacking the scope the operation sent as POST with X-HTTP-Method-Override',
    (request, op) => ({
      ...request,
      method: 'POST',
      headers: { ...request.headers, 'x-http-method-override': op.method.toUpperCase() },
    }),
    'however the method is spelled (a 403, a 404 or a 405 passes)',
    { operations: 'delete or update', keep: (op) => OVERRIDDEN.has(op.method.toUpperCase()) },
  ),
);

/** The request's path with every segment the operation's template fixes written in capitals. */
function fixedSegmentsInCapitals(path: string, template: string): string {
  const fixed = template.split('/').map((segment) => !segment.includes('{'));
  return path
    .split('/')
    .map((segment, index) => (fixed[index] ? segment.toUpperCase() : segment))
    .join('/');
}

/** Methods a framework's override header turns a POST into. */
const OVERRIDDEN: ReadonlySet<string> = new Set(['DELETE', 'PATCH', 'PUT']);

checks.push(
  defineCheck(
    'SCOPE-2',
    'never refuses with 401/403 an identity holding the scope and the workspace',
    async (t) => {
      const session = t.session;
      const { primary, secondary } = session.profile.workspaces;
      // Every read in the primary workspace, where the resources live, before any through the
      // secondary: a not-found answer cached without its workspace then hides a resource that was
      // served (ISO-1 tells it from a resource that is gone by what the run saw served first).
      const cases = accessCases(
        session,
        'positive',
        [primary, secondary],
        (op, identity, workspace) => hasScope(identity, op.scope) && allowsWorkspace(identity, workspace),
      ).sort((a, b) => Number(a.workspace !== primary) - Number(b.workspace !== primary));
      if (cases.length === 0)
        return t.skip('profile has no identity holding the scope of a usable operation');
      await t.check(
        fc.constantFrom(...cases),
        async ({ op, identity, workspace }) => {
          const exchange = await session.http.send(
            operationRequest(op, session, 'positive', { token: identity.token, workspaceId: workspace }),
          );
          expectStatus(
            exchange,
            (s) => notRefused(s) || answersForResource(op, workspace, primary, s),
            `no 401/403: identity "${identity.name}" holds ${op.scope} and may use workspace ${workspace}`,
          );
          // A read cannot conflict with anything: its 409 hides the resource as a 404 does. An
          // update's 409 can be another update in flight, so only its 404 is compared.
          const { status } = exchange.response;
          if (workspace === primary && (status === 404 || (status === 409 && op.method === 'get')))
            await expectNotHiddenFrom(session, identity, op, exchange);
          return grantedAccess(op, exchange.response.status);
        },
        { examples: cases, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'POLICY-1',
    'answers 403 to a specific-workspaces identity on a workspace outside its list',
    async (t) => {
      const session = t.session;
      const workspaces = namedWorkspaces(session.profile);
      const cases = accessCases(
        session,
        'probe',
        workspaces,
        (op, identity, workspace) =>
          identity.workspaces !== 'all' &&
          hasScope(identity, op.scope) &&
          !allowsWorkspace(identity, workspace),
      );
      if (cases.length === 0)
        return t.skip('profile has no specific-workspaces identity that leaves out a profile workspace');
      reportUnreachedOperations(t, 'probe', new Set(cases.map(({ op }) => op.operationId)), (op) => ({
        why: `no specific-workspaces identity holds ${op.scope} and leaves out a profile workspace`,
        remedy: `give ${op.scope} to a specific-workspaces identity that leaves out one of the profile's workspaces`,
      }));
      await t.check(
        fc.constantFrom(...cases),
        async ({ op, identity, workspace }) => {
          const exchange = await session.http.send(
            operationRequest(op, session, 'probe', { token: identity.token, workspaceId: workspace }),
          );
          expectStatus(
            exchange,
            (s) => s === 403,
            `403: identity "${identity.name}" may not use workspace ${workspace}`,
          );
          return observed;
        },
        { examples: cases, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'POLICY-1',
    "never serves a specific-workspaces identity a workspace written with an allowed one's digits (a part of it, a digit more, a neighbour, its octal digits after a zero)",
    async (t) => {
      const session = t.session;
      // Workspace-level operations: a resource of the primary workspace is not found elsewhere
      // anyway, so only a list or a decision shows that the workspace itself was let through.
      const ops = usableOperations(session, 'positive').filter((op) => !op.path.includes('{'));
      const cases = namedIdentities(session.profile).flatMap((identity) => {
        const list = identity.workspaces;
        if (list === 'all') return [];
        const digitsOf = [...new Set(list.flatMap(overlappingIdsOf))]
          .filter((other) => !list.includes(other))
          .map((workspace) => ({
            workspace,
            how: 'a policy that compares workspaces by substring, prefix or range',
          }));
        const octal = list.flatMap((allowed) => {
          const spelling = octalSpellingOf(allowed);
          // Read as decimal, it must name a workspace the list leaves out.
          if (spelling === undefined || list.includes(spelling.slice(1))) return [];
          return [
            {
              workspace: spelling,
              how: `decimal ${spelling.slice(1)}, which a parser honouring radix prefixes reads as octal ${allowed}`,
            },
          ];
        });
        const others = [...digitsOf, ...octal];
        return ops
          .filter((op) => hasScope(identity, op.scope))
          .flatMap((op) => others.map((other) => ({ op, identity, ...other })));
      });
      if (cases.length === 0)
        return t.skip(
          'profile has no specific-workspaces identity holding the scope of the bucket list or the billing preflight',
        );
      await t.check(
        fc.constantFrom(...cases),
        async ({ op, identity, workspace, how }) => {
          const exchange = await session.http.send(
            operationRequest(op, session, 'positive', { token: identity.token, workspaceId: workspace }),
          );
          if (is2xx(exchange.response.status))
            throw new RuleViolation(
              `${op.operationId} served workspace ${workspace} (${exchange.response.status}) to identity "${identity.name}", whose workspace policy selects only ${(identity.workspaces as readonly string[]).join(', ')}: requests to other workspaces return 403 (${how})`,
              exchange,
            );
          return observed;
        },
        { examples: cases, independent: true },
      );
    },
  ),
);

/**
 * How the forbidden workspace rides along with the allowed one: the same name again, with
 * brackets (`workspace_id[]`, which a qs-style parser merges into the plain parameter while a
 * policy reading the plain name sees only the allowed value), or in a tenant header a gateway
 * sets for the services behind it and does not strip from clients' requests.
 */
const COPIES = ['repeated', 'bracketed', 'X-Workspace-Id', 'X-Tenant-Id'] as const;

/** One way of sending the allowed workspace with a forbidden one riding along. */
interface RideAlong {
  readonly allowed: string;
  readonly forbidden: string;
  readonly copy: (typeof COPIES)[number];
  readonly forbiddenFirst: boolean;
}

const inHeader = (copy: RideAlong['copy']): boolean => copy.startsWith('X-');

/** Every ride-along of `forbidden` beside `allowed`: each copy, and the query copies in both orders. */
function rideAlongs(allowed: string, forbidden: string): RideAlong[] {
  return [true, false].flatMap((forbiddenFirst) =>
    COPIES.filter((copy) => forbiddenFirst || !inHeader(copy)).map((copy) => ({
      allowed,
      forbidden,
      copy,
      forbiddenFirst,
    })),
  );
}

/** The request `request` with its workspace given as `ride` says. */
function withRideAlong(request: ApiRequest, ride: RideAlong): ApiRequest {
  const allowedCopy = ['workspace_id', ride.allowed] as const;
  const forbiddenCopy = [
    ride.copy === 'repeated' ? 'workspace_id' : 'workspace_id[]',
    ride.forbidden,
  ] as const;
  const query = inHeader(ride.copy)
    ? [allowedCopy]
    : ride.forbiddenFirst
      ? [forbiddenCopy, allowedCopy]
      : [allowedCopy, forbiddenCopy];
  const headers = inHeader(ride.copy) ? { [ride.copy.toLowerCase()]: ride.forbidden } : {};
  return { ...request, query, headers: { ...request.headers, ...headers } };
}

/** How a message names the ride-along the request carried. */
function describeRideAlong(request: ApiRequest, ride: RideAlong): string {
  return inHeader(ride.copy)
    ? `with workspace_id=${ride.allowed} and the header ${ride.copy}: ${ride.forbidden}`
    : `with workspace_id given twice (${request.query.map(([name, value]) => `${name}=${value}`).join(', then ')})`;
}

/** A ride-along sent by an identity: on the bucket list, or on a restore of the primary workspace. */
interface RideAlongCase {
  readonly on: 'bucket list' | 'restore';
  readonly identity: NamedIdentity;
  readonly ride: RideAlong;
}

/**
 * Bucket lists: every specific-workspaces identity holding the scope, from each workspace it may
 * use, with each it may not riding along.
 */
function bucketListRideAlongs(session: Session): RideAlongCase[] {
  const op = session.operation('listBuckets');
  const workspaces = namedWorkspaces(session.profile);
  return namedIdentities(session.profile)
    .filter((identity) => identity.workspaces !== 'all' && hasScope(identity, op.scope))
    .flatMap((identity) =>
      workspaces
        .filter((allowed) => allowsWorkspace(identity, allowed))
        .flatMap((allowed) =>
          workspaces
            .filter((forbidden) => !allowsWorkspace(identity, forbidden))
            .flatMap((forbidden) =>
              rideAlongs(allowed, forbidden).map((ride) => ({ on: 'bucket list' as const, identity, ride })),
            ),
        ),
    );
}

/**
 * A restore of the primary workspace (where the profile's resources live), asked for by each
 * specific-workspaces identity kept out of it, from a workspace it may use with the primary one
 * riding along.
 */
function restoreRideAlongs(session: Session): RideAlongCase[] {
  if (!session.plan.restore) return [];
  const op = session.operation('getCloudVmSnapshotRestore');
  const home = session.profile.workspaces.primary;
  return namedIdentities(session.profile)
    .filter(
      (identity) =>
        identity.workspaces !== 'all' && hasScope(identity, op.scope) && !allowsWorkspace(identity, home),
    )
    .flatMap((identity) => {
      const allowed = namedWorkspaces(session.profile).find(
        (workspace) => workspace !== home && allowsWorkspace(identity, workspace),
      );
      return allowed
        ? rideAlongs(allowed, home).map((ride) => ({ on: 'restore' as const, identity, ride }))
        : [];
    });
}

/** The bucket list case: the answer must not be the forbidden workspace's list. */
async function judgeBucketListRideAlong(
  session: Session,
  { identity, ride }: RideAlongCase,
): Promise<CaseVerdict> {
  const op = session.operation('listBuckets');
  const { allowed, forbidden } = ride;
  const reader = identityWith(session.profile, op.scope, forbidden);
  if (!reader) return notApplicable(`no identity may list workspace ${forbidden}'s buckets`);
  const list = (token: string, workspace: string) =>
    session.http.send(operationRequest(op, session, 'positive', { token, workspaceId: workspace }));
  const sameList = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  const own = await list(identity.token, allowed);
  const other = await list(reader.token, forbidden);
  const request = withRideAlong(operationRequest(op, session, 'positive', { token: identity.token }), ride);
  const polluted = await session.http.send(request);
  const servedOther =
    is2xx(polluted.response.status) &&
    sameList(polluted.response.json, other.response.json) &&
    !sameList(polluted.response.json, own.response.json);
  if (servedOther)
    throw new RuleViolation(
      `identity "${identity.name}" may use workspace ${allowed} only; ${describeRideAlong(request, ride)} it was served workspace ${forbidden}'s bucket list`,
      polluted,
    );
  if (!is2xx(own.response.status) || !is2xx(other.response.status))
    return notApplicable(
      `the bucket lists of workspaces ${allowed} and ${forbidden} could not both be read (${own.response.status}, ${other.response.status})`,
    );
  if (sameList(own.response.json, other.response.json))
    return notApplicable(
      `workspaces ${allowed} and ${forbidden} list the same buckets, so no answer can tell which one was served`,
    );
  return observed;
}

/**
 * The restore case: the answer must not be the primary workspace's restore. A list can come from
 * a cache keyed by the workspace the policy read, and then shows the allowed list whatever the
 * handler would read; one resource of the forbidden workspace served shows the handler's reading.
 */
async function judgeRestoreRideAlong(
  session: Session,
  { identity, ride }: RideAlongCase,
): Promise<CaseVerdict> {
  const op = session.operation('getCloudVmSnapshotRestore');
  const restoreId = session.plan.restore ?? '';
  const home = ride.forbidden;
  const read = (token: string, workspace: string) =>
    session.http.send(
      operationRequest(op, session, 'positive', {
        token,
        workspaceId: workspace,
        pathIds: { restore_id: restoreId },
      }),
    );
  const isThisRestore = (exchange: Exchange): boolean =>
    is2xx(exchange.response.status) &&
    (exchange.response.json as { restore_id?: unknown } | undefined)?.restore_id === restoreId;
  // The ride-along first: a read cache the plain reads below fill cannot answer it.
  const request = withRideAlong(
    operationRequest(op, session, 'positive', { token: identity.token, pathIds: { restore_id: restoreId } }),
    ride,
  );
  const polluted = await session.http.send(request);
  const reader = identityWith(session.profile, op.scope, home);
  const inHome = reader ? await read(reader.token, home) : undefined;
  if (!inHome || !isThisRestore(inHome))
    return notApplicable(
      `restore ${restoreId} could not be read in workspace ${home}${inHome ? ` (${inHome.response.status})` : ': no identity may read it there'}, so no answer can show it served`,
    );
  if (!isThisRestore(polluted)) return observed;
  const own = await read(identity.token, ride.allowed);
  if (isThisRestore(own))
    return notApplicable(
      `workspace ${ride.allowed} serves restore ${restoreId} too (ISO-1 judges that), so the answer does not show which workspace was read`,
    );
  throw new RuleViolation(
    `identity "${identity.name}" may use workspace ${ride.allowed} only, not ${home}; ${describeRideAlong(request, ride)} it was served restore ${restoreId} of workspace ${home}, which it gets ${own.response.status} for in workspace ${ride.allowed}`,
    polluted,
  );
}

checks.push(
  defineCheck(
    'POLICY-1',
    'never serves a workspace outside the list when another workspace rides along (workspace_id twice or bracketed, a tenant header): its bucket list, or a restore',
    async (t) => {
      const session = t.session;
      // A policy check and a handler that read different copies of a repeated parameter (the
      // first and the last) let an allowed value carry a forbidden one past the check.
      const lists = bucketListRideAlongs(session);
      const restores = restoreRideAlongs(session);
      const cases = [...lists, ...restores];
      if (cases.length === 0)
        return t.skip('profile has no specific-workspaces identity that leaves out a profile workspace');
      if (lists.length === 0)
        t.notChecked(
          'the bucket list with a forbidden workspace riding along',
          `give ${session.operation('listBuckets').scope} to a specific-workspaces identity that leaves out a profile workspace`,
        );
      if (restores.length === 0)
        t.notChecked(
          'a restore of the primary workspace asked for through another workspace with the primary riding along',
          session.plan.restore
            ? `add an identity holding ${session.operation('getCloudVmSnapshotRestore').scope} whose workspace policy selects the secondary workspace and not the primary one`
            : 'list a restore of the primary workspace in resources.restoreIds',
        );
      await t.check(
        fc.constantFrom(...cases),
        (rideAlong) =>
          rideAlong.on === 'restore'
            ? judgeRestoreRideAlong(session, rideAlong)
            : judgeBucketListRideAlong(session, rideAlong),
        { examples: cases, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'POLICY-2',
    'lets an entire-organization identity use every workspace of the organization',
    async (t) => {
      const session = t.session;
      const { primary, secondary } = session.profile.workspaces;
      const cases = accessCases(
        session,
        'positive',
        [primary, secondary],
        (op, identity) => identity.workspaces === 'all' && hasScope(identity, op.scope),
      );
      if (cases.length === 0) return t.skip('profile has no entire-organization identity');
      await t.check(
        fc.constantFrom(...cases),
        async ({ op, identity, workspace }) => {
          const exchange = await session.http.send(
            operationRequest(op, session, 'positive', { token: identity.token, workspaceId: workspace }),
          );
          expectStatus(
            exchange,
            (s) => is2xx(s) || answersForResource(op, workspace, primary, s),
            `a success (404/409 for a resource) for identity "${identity.name}" on workspace ${workspace}`,
          );
          return grantedAccess(op, exchange.response.status);
        },
        { examples: cases, independent: true },
      );
    },
  ),
);

/** The authorization family's checks, in the order they run. */
export const authorizationChecks: readonly Check[] = checks;
