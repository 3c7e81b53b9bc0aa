import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import { accessCases } from '../generate/accessCases.js';
import { operationRequest } from '../generate/operationRequest.js';
import {
  allowsWorkspace,
  hasScope,
  identityWith,
  namedIdentities,
  namedWorkspaces,
} from '../session/identities.js';
import type { Session } from '../session/session.js';
import type { ApiRequest } from '../transport/exchange.js';
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

/**
 * How the forbidden workspace rides along with the allowed one: the same name again, with
 * brackets (`workspace_id[]`, which a qs-style parser merges into the plain parameter while a
 * policy reading the plain name sees only the allowed value), or in a tenant header a gateway
 * sets for the services behind it and does not strip from clients' requests.
 */
const COPIES = ['repeated', 'bracketed', 'X-Workspace-Id', 'X-Tenant-Id'] as const;
const inHeader = (copy: (typeof COPIES)[number]): boolean => copy.startsWith('X-');

checks.push(
  defineCheck(
    'POLICY-1',
    'never serves a workspace outside the list when another workspace rides along (workspace_id twice or bracketed, a tenant header)',
    async (t) => {
      const session = t.session;
      const op = session.operation('listBuckets');
      const workspaces = namedWorkspaces(session.profile);
      // A policy check and a handler that read different copies of a repeated parameter (the
      // first and the last) let an allowed value carry a forbidden one past the check.
      const pairs = namedIdentities(session.profile)
        .filter((identity) => identity.workspaces !== 'all' && hasScope(identity, op.scope))
        .flatMap((identity) =>
          workspaces
            .filter((allowed) => allowsWorkspace(identity, allowed))
            .flatMap((allowed) =>
              workspaces
                .filter((forbidden) => !allowsWorkspace(identity, forbidden))
                .flatMap((forbidden) =>
                  [true, false].flatMap((forbiddenFirst) =>
                    COPIES.filter((copy) => forbiddenFirst || !inHeader(copy)).map((copy) => ({
                      identity,
                      allowed,
                      forbidden,
                      forbiddenFirst,
                      copy,
                    })),
                  ),
                ),
            ),
        );
      if (pairs.length === 0)
        return t.skip(
          `profile has no specific-workspaces identity with ${op.scope} that leaves out a profile workspace`,
        );
      const list = (
        token: string,
        values: readonly (readonly [string, string])[],
        headers: Readonly<Record<string, string>> = {},
      ) => {
        const request = operationRequest(op, session, 'positive', { token });
        return session.http.send({ ...request, query: values, headers: { ...request.headers, ...headers } });
      };
      const sameList = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
      await t.check(
        fc.constantFrom(...pairs),
        async ({ identity, allowed, forbidden, forbiddenFirst, copy }): Promise<CaseVerdict> => {
          const reader = identityWith(session.profile, op.scope, forbidden);
          if (!reader) return notApplicable(`no identity may list workspace ${forbidden}'s buckets`);
          const own = await list(identity.token, [['workspace_id', allowed]]);
          const other = await list(reader.token, [['workspace_id', forbidden]]);
          const allowedCopy = ['workspace_id', allowed] as const;
          const forbiddenCopy = [copy === 'repeated' ? 'workspace_id' : 'workspace_id[]', forbidden] as const;
          const order = inHeader(copy)
            ? [allowedCopy]
            : forbiddenFirst
              ? [forbiddenCopy, allowedCopy]
              : [allowedCopy, forbiddenCopy];
          const polluted = await list(
            identity.token,
            order,
            inHeader(copy) ? { [copy.toLowerCase()]: forbidden } : {},
          );
          const servedOther =
            is2xx(polluted.response.status) &&
            sameList(polluted.response.json, other.response.json) &&
            !sameList(polluted.response.json, own.response.json);
          if (servedOther)
            throw new RuleViolation(
              `identity "${identity.name}" may use workspace ${allowed} only; ${inHeader(copy) ? `with workspace_id=${allowed} and the header ${copy}: ${forbidden}` : `with workspace_id given twice (${order.map(([name, value]) => `${name}=${value}`).join(', then ')})`} it was served workspace ${forbidden}'s bucket list`,
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
        },
        { examples: pairs, independent: true },
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
