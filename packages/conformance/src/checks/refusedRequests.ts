import { randomUUID } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import { tokenPrefixes } from '../generate/authorization.js';
import { operationRequest, type RequestOverrides } from '../generate/operationRequest.js';
import { allowsWorkspace, hasScope, namedIdentities } from '../session/identities.js';
import type { Session } from '../session/session.js';
import type { Exchange } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import {
  type ConsumableTarget,
  consumableTargets,
  expectStillThere,
  judgedOnce,
} from './consumedAfterRefusal.js';
import { keepingNatRule, natRuleChanges, natRuleToChange, readNatRule } from './natRuleReader.js';
import { is4xx, RuleViolation } from './ruleViolation.js';

/**
 * How long the last refused request that could act (the one before `workspace_id 0`, which no
 * handler can act on) is given, beyond the round trip after it, to finish what a handler started
 * behind the refusal (a guard that answered before the handler it let through had written),
 * before the resource is consumed or read. A guard that answers early does so for every refusal,
 * so the first ones have had every round trip since.
 */
const SETTLE_MS = 50;

/** A request the API refuses before acting: without a token, with one that may not, or with an invalid workspace. */
interface Refusal {
  readonly why: string;
  readonly overrides: RequestOverrides;
}

/** The refusals the profile can send for `op` on the primary workspace: each one a check of its own would judge. */
function refusalsFor(session: Session, op: OperationEntry): Refusal[] {
  const { primary } = session.profile.workspaces;
  const identities = namedIdentities(session.profile);
  const lacking = identities.find((id) => !hasScope(id, op.scope) && allowsWorkspace(id, primary));
  const outside = identities.find((id) => hasScope(id, op.scope) && !allowsWorkspace(id, primary));
  const prefix = tokenPrefixes[session.profile.environment];
  return [
    { why: 'without an Authorization header', overrides: { authorization: null } },
    { why: 'with an unknown token', overrides: { token: `${prefix}conformance_unknown_refused` } },
    ...(session.profile.revokedToken
      ? [{ why: 'with the revoked token', overrides: { token: session.profile.revokedToken } }]
      : []),
    ...(lacking
      ? [
          {
            why: `by identity "${lacking.name}", which lacks ${op.scope}`,
            overrides: { token: lacking.token },
          },
        ]
      : []),
    ...(outside
      ? [
          {
            why: `by identity "${outside.name}", whose workspace policy leaves out workspace ${primary}`,
            overrides: { token: outside.token },
          },
        ]
      : []),
    { why: 'with workspace_id 0', overrides: { workspaceId: '0' } },
  ];
}

const listed = (refused: readonly Exchange[], refusals: readonly Refusal[]): string =>
  refused.map((exchange, i) => `${refusals[i]?.why} (${exchange.response.status})`).join(', ');

export const refusedRequestsChecks: readonly Check[] = [
  defineCheck(
    'REFUSE-1',
    'a delete or release refused for its token, scope, workspace policy or workspace_id leaves the resource',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const cases = consumableTargets(session, session.plan.deleteRefused, session.plan.releaseRefused);
      if (cases.length === 0)
        return t.skip(
          "the profile's resources hold no fifth resources.deletableGpuVmIds entry and no fourth resources.releasableReservedIpIds entry (a GPU VM and a reserved IP that only refused requests touch, then consumed)",
        );
      const judgeOnce = judgedOnce(async (c: ConsumableTarget): Promise<CaseVerdict> => {
        const refusals = refusalsFor(session, c.op);
        const refused: Exchange[] = [];
        for (const refusal of refusals) {
          const exchange = await session.http.send(
            operationRequest(c.op, session, 'probe', { ...refusal.overrides, pathIds: c.pathIds }),
          );
          refused.push(exchange);
          // Not refused: the rule of that refusal judges it, and the resource may rightly be gone.
          if (!is4xx(exchange.response.status))
            return notApplicable(
              `${c.what} was asked ${refusal.why} and answered ${exchange.response.status}, not refused with a 4xx, so what follows tells nothing of a refused request`,
            );
        }
        await wait(SETTLE_MS, undefined, { signal: t.signal }).catch(() => undefined);
        return expectStillThere(
          session,
          c,
          `only refused requests had named it: the ${refused.length} refused requests (${refused[0]?.request.method}: ${listed(refused, refusals)})`,
          'a guard that answers the refusal after letting the handler run',
        );
      });
      // The VM and the IP are judged side by side: neither case touches the other's resource.
      await t.check(fc.constantFrom(...cases), judgeOnce, {
        examples: cases,
        exhaustive: true,
        independent: true,
      });
    },
  ),
  defineCheck(
    'REFUSE-1',
    'a NAT rule update refused for its token, scope, workspace policy or workspace_id changes nothing',
    async (t) => {
      const { op, original } = await natRuleToChange(t);
      const { primary } = t.session.profile.workspaces;
      await keepingNatRule(t, original, () =>
        t.check(
          fc.constant('refused updates'),
          async () => {
            const refusals = refusalsFor(t.session, op);
            // A note of its own for each refusal: a rule found holding one names the request that acted.
            const notes = refusals.map(() => `conformance-refused-${randomUUID().slice(0, 8)}`);
            const refused: Exchange[] = [];
            for (const [i, refusal] of refusals.entries()) {
              const exchange = await t.session.http.send(
                operationRequest(op, t.session, 'probe', {
                  ...refusal.overrides,
                  body: JSON.stringify({ note: notes[i] }),
                }),
              );
              refused.push(exchange);
              if (!is4xx(exchange.response.status))
                return notApplicable(
                  `the NAT rule update ${refusal.why} answered ${exchange.response.status}, not refused with a 4xx, so the rule read afterwards tells nothing of a refused request`,
                );
            }
            await wait(SETTLE_MS, undefined, { signal: t.signal }).catch(() => undefined);
            const after = await readNatRule(t.session, new Set(['note']));
            if (!after) return notApplicable('the NAT rule could not be read back after the refused updates');
            const applied = notes.indexOf(String(after.note));
            if (applied >= 0)
              throw new RuleViolation(
                `the NAT rule update ${refusals[applied]?.why} was refused (${refused[applied]?.response.status}), yet the rule, read back through workspace ${primary}, holds the note it sent (${JSON.stringify(after.note)}): the refused update was carried out (a guard that answers the refusal after letting the handler run)`,
                refused[applied] as Exchange,
              );
            const changes = natRuleChanges(original, after);
            if (changes.length > 0)
              return notApplicable(
                `the NAT rule reads differently after the refused updates (${changes.join(', ')}), but holds none of the notes they sent: another writer, not these requests`,
              );
            return observed;
          },
          { maxRuns: 1 },
        ),
      );
    },
  ),
];
