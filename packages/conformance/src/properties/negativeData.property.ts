import fc from 'fast-check';
import { type NegativeBody, negativeBodies } from '../arbitraries/negativeBodies.js';
import { defaultBody, operationRequest, usableOperations } from '../arbitraries/operationRequest.js';
import { requestFields } from '../spec/requestSchemas.js';
import { CLOUD_VM_NOT_CLEANED } from '../suite/acceptance.js';
import { type CaseVerdict, notApplicable, observed } from '../suite/caseVerdict.js';
import {
  expectNatRuleUnchanged,
  type NatRuleFields,
  readNatRule,
  restoreNatRule,
} from '../suite/natRuleReader.js';
import { expectJsonObject, expectStatus, is2xx, is4xx, RuleViolation } from '../suite/ruleViolation.js';
import { getSuite, ruleTest } from '../suite/suiteContext.js';

ruleTest(
  'NEG-1',
  'refuses with a 4xx, and applies nothing of, every request body its schema rules out',
  async (t) => {
    const suite = getSuite();
    const ops = usableOperations(suite, 'probe').filter((op) => op.hasRequestBody);
    if (ops.length === 0) return t.skip('no operation that takes a body is usable on this profile');
    const cases = ops.flatMap((op) => {
      const valid = (defaultBody(op, suite) ?? {}) as Record<string, unknown>;
      return negativeBodies(requestFields(op.operationId), valid).map((negative) => ({ op, negative }));
    });
    const patching = ops.some((op) => op.operationId === 'updateNatPortForwardingRule');
    const natBefore: NatRuleFields | undefined = patching ? await readNatRule(suite) : undefined;
    try {
      await t.check(
        fc.constantFrom(...cases),
        async ({
          op,
          negative,
        }: {
          op: (typeof ops)[number];
          negative: NegativeBody;
        }): Promise<CaseVerdict> => {
          const exchange = await suite.http.send(
            operationRequest(op, suite, 'probe', { body: negative.body, contentType: 'application/json' }),
          );
          if (is2xx(exchange.response.status)) {
            const vmId = (exchange.response.json as { vm_id?: unknown } | undefined)?.vm_id;
            if (op.operationId === 'createCloudVm' && typeof vmId === 'string')
              t.recordCreated('cloud VM', vmId, CLOUD_VM_NOT_CLEANED);
            throw new RuleViolation(
              `${op.operationId} accepted a body where ${negative.kind} (${exchange.response.status}); the document rules it out`,
              exchange,
            );
          }
          expectStatus(exchange, is4xx, `a 4xx for a body where ${negative.kind}`);
          if (op.operationId === 'updateNatPortForwardingRule') {
            if (!natBefore)
              return notApplicable('the NAT rule could not be read, so "changed nothing" is unseen');
            await expectNatRuleUnchanged(suite, natBefore, exchange, 'the rule');
          }
          return observed;
        },
        {
          examples: cases,
          // Refused bodies change nothing, so each read-back sees the rule as it was, in any order.
          independent: true,
          ...(natBefore ? { beforeRerun: () => restoreNatRule(suite, natBefore) } : {}),
        },
      );
    } finally {
      if (natBefore)
        await restoreNatRule(suite, natBefore).catch(() =>
          t.recordCreated('NAT rule change', suite.plan.natRule?.ruleId ?? '?', 'could not be restored'),
        );
    }
  },
);

/** Fields of the rule record that the update body does not list: the client may not set them. */
const READ_ONLY_FIELDS: readonly { field: string; value: unknown }[] = [
  { field: 'status', value: 'error' },
  { field: 'port_forward_rule_id', value: 'conformance-other-rule' },
  { field: 'vpc_id', value: 'conformance-other-vpc' },
  { field: 'nat_gateway_id', value: 'conformance-other-gateway' },
  { field: 'created_at', value: '2000-01-01T00:00:00Z' },
  { field: 'updated_at', value: '2000-01-01T00:00:00Z' },
  { field: 'workspace_id', value: '999999' },
  { field: 'error_message', value: 'conformance' },
  { field: 'conformance_unknown_field', value: 'conformance' },
];

ruleTest(
  'NEG-2',
  'refuses or ignores, never applies, unknown and read-only fields in a NAT rule update',
  async (t) => {
    t.requireMutations();
    const suite = getSuite();
    if (!suite.plan.natRule) return t.skip('profile lists no resources.natRules');
    const op = suite.operation('updateNatPortForwardingRule');
    const original = await readNatRule(suite);
    if (!original)
      return t.inconclusive('the NAT rule could not be read (an empty update was not answered 200)');
    // The whole record, read-only fields included: a field may already hold the value sent.
    const baseline = expectJsonObject(
      await suite.http.send(operationRequest(op, suite, 'positive', { body: '{}' })),
      'the rule record',
    );
    try {
      await t.check(
        fc.constantFrom(...READ_ONLY_FIELDS),
        async ({ field, value }): Promise<CaseVerdict> => {
          const exchange = await suite.http.send(
            operationRequest(op, suite, 'positive', { body: JSON.stringify({ [field]: value }) }),
          );
          if (is4xx(exchange.response.status)) return observed;
          expectStatus(exchange, is2xx, `a 4xx, or a 2xx that ignores ${field}`);
          const record = expectJsonObject(exchange, 'the rule record');
          const sentValue = JSON.stringify(value);
          if (JSON.stringify(record[field]) === sentValue && JSON.stringify(baseline[field]) !== sentValue)
            throw new RuleViolation(
              `the update applied ${field}: ${JSON.stringify(value)}, a field the update body does not list`,
              exchange,
            );
          return observed;
        },
        {
          examples: READ_ONLY_FIELDS,
          // Each case judges only its own field in its own answer: no order changes a verdict.
          independent: true,
          beforeRerun: () => restoreNatRule(suite, original),
        },
      );
    } finally {
      await restoreNatRule(suite, original).catch(() =>
        t.recordCreated('NAT rule change', suite.plan.natRule?.ruleId ?? '?', 'could not be restored'),
      );
    }
  },
);
