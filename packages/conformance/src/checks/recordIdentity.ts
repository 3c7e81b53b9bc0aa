import fc from 'fast-check';
import { operationRequest } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import type { NatRuleRef } from '../targetProfile/index.js';
import type { Exchange } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { keepingNatRule, natRuleToChange, readNatRuleExchange, untilRuleSettles } from './natRuleReader.js';
import { expectJsonObject, is2xx, is4xx, RuleViolation } from './ruleViolation.js';
import { expectInOrder, expectNotInFuture } from './timestampPlausibility.js';

/** A read of one record: the request, the ids the record must show, and its timestamps' order. */
interface RecordRead {
  readonly operationId: string;
  /** The read; undefined when it could not be sent. */
  readonly send: () => Promise<Exchange | undefined>;
  /** Field of the record → the id the request named. */
  readonly names: Readonly<Record<string, string>>;
  readonly order: readonly (readonly [string, string])[];
}

/** The records the profile names that can be read without changing anything. */
function recordReads(session: Session): RecordRead[] {
  const reads: RecordRead[] = [];
  const { restore, natRule } = session.plan;
  if (restore)
    reads.push({
      operationId: 'getCloudVmSnapshotRestore',
      send: () =>
        session.http.send(
          operationRequest(session.operation('getCloudVmSnapshotRestore'), session, 'positive'),
        ),
      names: { restore_id: restore },
      order: [['started_at', 'completed_at']],
    });
  if (natRule && session.profile.mutations === true)
    reads.push({
      // An update that changes nothing answers the rule: the document's only read of it.
      operationId: 'updateNatPortForwardingRule',
      send: () => readNatRuleExchange(session),
      names: natRuleNames(natRule),
      order: [['created_at', 'updated_at']],
    });
  return reads;
}

/** Field of a NAT rule record → the id its path names. */
const natRuleNames = (rule: NatRuleRef): Record<string, string> => ({
  port_forward_rule_id: rule.ruleId,
  vpc_id: rule.vpcId,
  nat_gateway_id: rule.natGatewayId,
});

/** The record names `names` and, where it has a workspace_id, `workspace`. */
function expectNamed(
  exchange: Exchange,
  record: Readonly<Record<string, unknown>>,
  names: Readonly<Record<string, string>>,
  workspace: string,
  what: string,
): void {
  for (const [field, id] of Object.entries(names))
    if (record[field] !== id)
      throw new RuleViolation(
        `${what} asked for ${JSON.stringify(id)} and answered a record whose ${field} is ${JSON.stringify(record[field])}: the record must name the resource the request named`,
        exchange,
      );
  if ('workspace_id' in record && String(record.workspace_id) !== workspace)
    throw new RuleViolation(
      `${what} in workspace ${workspace} answered a record whose workspace_id is ${JSON.stringify(record.workspace_id)}`,
      exchange,
    );
}

const checks: Check[] = [];

checks.push(
  defineCheck(
    'REC-1',
    'a record names the resource and workspace the request named; its timestamps are in order and not in the future',
    async (t) => {
      const session = t.session;
      const reads = recordReads(session);
      if (reads.length === 0)
        return t.skip('profile lists no resources.restoreIds, nor resources.natRules with mutations: true');
      const workspace = session.profile.workspaces.primary;
      await t.check(
        fc.constantFrom(...reads),
        async (read): Promise<CaseVerdict> => {
          const exchange = await read.send();
          if (!exchange) return notApplicable(`${read.operationId} could not be sent as a read`);
          if (exchange.response.status !== 200)
            return notApplicable(`${read.operationId} answered ${exchange.response.status}, not the record`);
          const record = expectJsonObject(exchange, 'the record');
          expectNamed(exchange, record, read.names, workspace, read.operationId);
          for (const [field, value] of Object.entries(record))
            if (field.endsWith('_at')) expectNotInFuture(exchange, field, value);
          for (const [earlier, later] of read.order) expectInOrder(exchange, record, earlier, later);
          return observed;
        },
        { examples: reads, independent: true },
      );
    },
  ),
);

checks.push(
  defineCheck(
    'REC-1',
    'a NAT rule update whose body names other ids, another workspace or organization answers and keeps the rule and workspace its request named',
    async (t) => {
      const session = t.session;
      const { op, original, record: before } = await natRuleToChange(t);
      const rule = session.plan.natRule as NatRuleRef;
      const { primary, secondary } = session.profile.workspaces;
      const names = natRuleNames(rule);
      // The body table lists none of these: a 4xx, or a 2xx that ignores them, passes; written,
      // the rule is answered under another id or workspace, or moved where its path no longer finds it.
      const cases: Record<string, string>[] = [
        ...Object.entries(names).map(([field, id]) => ({ [field]: `${id}-conformance-other` })),
        { workspace_id: secondary },
        { organization_id: 'org-conformance-other' },
      ];
      await keepingNatRule(t, original, () =>
        t.check(
          fc.constantFrom(...cases),
          async (body): Promise<CaseVerdict> => {
            const [[field, value]] = Object.entries(body) as [[string, string]];
            const sent = `${field} ${JSON.stringify(value)}`;
            const exchange = await untilRuleSettles(() =>
              session.http.send(operationRequest(op, session, 'positive', { body: JSON.stringify(body) })),
            );
            const status = exchange.response.status;
            if (status === 409) return notApplicable('the update answered 409 Conflict');
            if (status === 404)
              return notApplicable(
                'the rule its path names was not found (404) before this update: an earlier case may have moved it',
              );
            if (is2xx(status)) {
              const record = expectJsonObject(exchange, 'the updated rule record');
              expectNamed(exchange, record, names, primary, `the NAT rule update with ${sent} in its body`);
              expectSameOrganization(exchange, record, before, sent);
            } else if (!is4xx(status)) return notApplicable(`the update with ${sent} answered ${status}`);
            // Read back through its own path and workspace, the rule is still there, as it was named.
            const read = await readNatRuleExchange(session);
            if (!read) return notApplicable('the rule could not be read back after the update');
            if (read.response.status === 404)
              throw new RuleViolation(
                `after a NAT rule update with ${sent} in its body (${status}), the rule its path names answers 404 in workspace ${primary}: the update moved it`,
                read,
              );
            if (read.response.status !== 200)
              return notApplicable('the rule could not be read back after the update');
            const after = expectJsonObject(read, 'the rule record');
            expectNamed(
              read,
              after,
              names,
              primary,
              `the NAT rule, read back after an update with ${sent} in its body,`,
            );
            expectSameOrganization(read, after, before, sent);
            return observed;
          },
          { examples: cases, exhaustive: true },
        ),
      );
    },
  ),
);

/** An organization_id the rule showed before is the one it shows after. */
function expectSameOrganization(
  exchange: Exchange,
  record: Readonly<Record<string, unknown>>,
  before: Readonly<Record<string, unknown>> | undefined,
  sent: string,
): void {
  if (
    before &&
    'organization_id' in before &&
    'organization_id' in record &&
    record.organization_id !== before.organization_id
  )
    throw new RuleViolation(
      `after a NAT rule update with ${sent} in its body, the rule's organization_id is ${JSON.stringify(record.organization_id)}, not the ${JSON.stringify(before.organization_id)} it showed before: the body's value was written`,
      exchange,
    );
}

/** The recordIdentity family's checks, in the order they run. */
export const recordIdentityChecks: readonly Check[] = checks;
