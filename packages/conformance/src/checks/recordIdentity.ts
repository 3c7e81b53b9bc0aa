import fc from 'fast-check';
import { operationRequest } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { expectJsonObject, RuleViolation } from './ruleViolation.js';
import { expectInOrder, expectNotInFuture } from './timestampPlausibility.js';

/** A read of one record: the request, the ids the record must show, and its timestamps' order. */
interface RecordRead {
  readonly operationId: string;
  readonly body?: string;
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
      names: { restore_id: restore },
      order: [['started_at', 'completed_at']],
    });
  if (natRule && session.profile.mutations === true)
    reads.push({
      // An empty partial update changes nothing and answers the rule: the document's only read of it.
      operationId: 'updateNatPortForwardingRule',
      body: '{}',
      names: {
        port_forward_rule_id: natRule.ruleId,
        vpc_id: natRule.vpcId,
        nat_gateway_id: natRule.natGatewayId,
      },
      order: [['created_at', 'updated_at']],
    });
  return reads;
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
          const exchange = await session.http.send(
            operationRequest(
              session.operation(read.operationId),
              session,
              'positive',
              read.body !== undefined ? { body: read.body } : {},
            ),
          );
          if (exchange.response.status !== 200)
            return notApplicable(`${read.operationId} answered ${exchange.response.status}, not the record`);
          const record = expectJsonObject(exchange, 'the record');
          for (const [field, id] of Object.entries(read.names))
            if (record[field] !== id)
              throw new RuleViolation(
                `${read.operationId} asked for ${JSON.stringify(id)} and answered a record whose ${field} is ${JSON.stringify(record[field])}: the record must name the resource the request named`,
                exchange,
              );
          if ('workspace_id' in record && String(record.workspace_id) !== workspace)
            throw new RuleViolation(
              `${read.operationId} in workspace ${workspace} answered a record whose workspace_id is ${JSON.stringify(record.workspace_id)}`,
              exchange,
            );
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

/** The recordIdentity family's checks, in the order they run. */
export const recordIdentityChecks: readonly Check[] = checks;
