import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import { operationRequest, usableOperations } from '../arbitraries/operationRequest.js';
import { anyOperation, everyPair } from '../arbitraries/operations.js';
import { invalidWorkspaceId } from '../arbitraries/workspaceIds.js';
import { notApplicable, observed } from '../suite/caseVerdict.js';
import { allowsWorkspace, hasScope, namedIdentities } from '../suite/identities.js';
import { expectStatus, is2xx, is4xx } from '../suite/ruleViolation.js';
import { getSuite, ruleTest } from '../suite/suiteContext.js';

ruleTest('WS-1', 'rejects a request without workspace_id on every operation (any 4xx)', async (t) => {
  const suite = getSuite();
  await t.check(
    anyOperation(suite, 'probe'),
    async (op) => {
      const exchange = await suite.http.send(operationRequest(op, suite, 'probe', { workspaceId: null }));
      expectStatus(exchange, is4xx, 'a 4xx for the missing workspace_id');
      return observed;
    },
    { examples: usableOperations(suite, 'probe'), independent: true },
  );
});

ruleTest(
  'WS-2',
  'rejects zero, negative and non-numeric workspace_id on every operation (any 4xx)',
  async (t) => {
    const suite = getSuite();
    await t.check(
      fc.tuple(anyOperation(suite, 'probe'), invalidWorkspaceId),
      async ([op, workspaceId]) => {
        const exchange = await suite.http.send(operationRequest(op, suite, 'probe', { workspaceId }));
        expectStatus(exchange, is4xx, `a 4xx for workspace_id ${JSON.stringify(workspaceId)}`);
        return observed;
      },
      {
        examples: everyPair(usableOperations(suite, 'probe'), ['0', '-1', '1.5', 'abc', '']),
        independent: true,
      },
    );
  },
);

/** 404/409 for a named resource, or 403 when it is asked through a workspace that does not hold it. */
function resourceElsewhere(op: OperationEntry, workspace: string, primary: string, status: number): boolean {
  if (op.pathParameters.length === 0) return false;
  return status === 404 || status === 409 || (workspace !== primary && status === 403);
}

ruleTest('WS-3', 'does not reject a valid workspace_id of the organization for its form', async (t) => {
  const suite = getSuite();
  const { primary, secondary } = suite.profile.workspaces;
  // Only pairs whose identity holds the operation's scope: generated whole, never filtered by
  // fc.pre, so a concurrent run plans exactly the cases a sequential one sends.
  const cases = usableOperations(suite, 'positive').flatMap((op) =>
    namedIdentities(suite.profile)
      .filter((identity) => hasScope(identity, op.scope))
      .flatMap((identity) =>
        [primary, secondary]
          .filter((ws) => allowsWorkspace(identity, ws))
          .map((workspace) => ({ op, identity, workspace })),
      ),
  );
  if (cases.length === 0) return t.skip('profile has no identity holding the scope of a usable operation');
  await t.check(
    fc.constantFrom(...cases),
    async ({ op, identity, workspace }) => {
      const exchange = await suite.http.send(
        operationRequest(op, suite, 'positive', { token: identity.token, workspaceId: workspace }),
      );
      // Resources live in the primary workspace, and consumed or missing ones answer 404/409;
      // asked through another workspace, a resource may be answered 403 or 404 (no status shown).
      expectStatus(
        exchange,
        (s) => is2xx(s) || resourceElsewhere(op, workspace, primary, s),
        `a success (or 404/409 for a resource) for workspace_id ${workspace}`,
      );
      // A 404/409 shows the resource's state, not that the workspace_id's form was accepted.
      return is2xx(exchange.response.status)
        ? observed
        : notApplicable(`${op.operationId} answered ${exchange.response.status} for a resource`);
    },
    { examples: cases, independent: true },
  );
});
