import fc from 'fast-check';
import { accessCases } from '../generate/accessCases.js';
import { operationRequest, usableOperations } from '../generate/operationRequest.js';
import { anyOperation, everyPair } from '../generate/operations.js';
import { invalidWorkspaceId } from '../generate/workspaceIds.js';
import { allowsWorkspace, hasScope } from '../session/identities.js';
import { notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { answersForResource } from './resourceAnswers.js';
import { expectStatus, is2xx, is4xx } from './ruleViolation.js';

/**
 * workspace_id left out, or sent under another name: query names are case-sensitive, and a
 * framework that binds them without regard to case (ASP.NET Core's model binding) or maps
 * camelCase to snake_case serves a request that has no workspace_id.
 */
const WORKSPACE_NAME_MISSES = [null, 'Workspace_ID', 'WORKSPACE_ID', 'workspaceId'] as const;

const checks: Check[] = [];

checks.push(
  defineCheck('WS-1', 'rejects a request without workspace_id on every operation (any 4xx)', async (t) => {
    const session = t.session;
    await t.check(
      fc.tuple(anyOperation(session, 'probe'), fc.constantFrom(...WORKSPACE_NAME_MISSES)),
      async ([op, name]) => {
        // Prism lowers parameter names before its presence check (stoplightio/prism#329): a limit
        // of the mock, which answers for the spec's form only.
        if (name !== null && session.targetKind === 'prism')
          return notApplicable(
            `Prism matches query names without regard to letter case, so ${name} is no test of it`,
          );
        const request = operationRequest(op, session, 'probe', { workspaceId: null });
        const sent =
          name === null
            ? request
            : {
                ...request,
                query: [...request.query, [name, session.profile.workspaces.primary] as [string, string]],
              };
        const exchange = await session.http.send(sent);
        expectStatus(
          exchange,
          is4xx,
          name === null
            ? 'a 4xx for the missing workspace_id'
            : `a 4xx: the query names the workspace as ${name}, and workspace_id is missing`,
        );
        return observed;
      },
      { examples: everyPair(usableOperations(session, 'probe'), WORKSPACE_NAME_MISSES), independent: true },
    );
  }),
);

checks.push(
  defineCheck(
    'WS-2',
    'rejects zero, negative and non-numeric workspace_id on every operation (any 4xx)',
    async (t) => {
      const session = t.session;
      await t.check(
        fc.tuple(anyOperation(session, 'probe'), invalidWorkspaceId),
        async ([op, workspaceId]) => {
          const exchange = await session.http.send(operationRequest(op, session, 'probe', { workspaceId }));
          expectStatus(exchange, is4xx, `a 4xx for workspace_id ${JSON.stringify(workspaceId)}`);
          return observed;
        },
        {
          examples: everyPair(usableOperations(session, 'probe'), ['0', '-1', 'abc', '']),
          independent: true,
        },
      );
    },
  ),
);

checks.push(
  defineCheck('WS-3', 'does not reject a valid workspace_id of the organization for its form', async (t) => {
    const session = t.session;
    const { primary, secondary } = session.profile.workspaces;
    // Only pairs whose identity holds the operation's scope and may use the workspace.
    const cases = accessCases(
      session,
      'positive',
      [primary, secondary],
      (op, identity, workspace) => hasScope(identity, op.scope) && allowsWorkspace(identity, workspace),
    );
    if (cases.length === 0) return t.skip('profile has no identity holding the scope of a usable operation');
    await t.check(
      fc.constantFrom(...cases),
      async ({ op, identity, workspace }) => {
        const exchange = await session.http.send(
          operationRequest(op, session, 'positive', { token: identity.token, workspaceId: workspace }),
        );
        // Resources live in the primary workspace, and consumed or missing ones answer 404/409;
        // asked through another workspace, a resource may be answered 403 or 404 (no status shown).
        expectStatus(
          exchange,
          (s) => is2xx(s) || answersForResource(op, workspace, primary, s),
          `a success (or 404/409 for a resource) for workspace_id ${workspace}`,
        );
        // A 404/409 shows the resource's state, not that the workspace_id's form was accepted.
        return is2xx(exchange.response.status)
          ? observed
          : notApplicable(`${op.operationId} answered ${exchange.response.status} for a resource`);
      },
      { examples: cases, independent: true },
    );
  }),
);

/** The workspaceId family's checks, in the order they run. */
export const workspaceIdChecks: readonly Check[] = checks;
