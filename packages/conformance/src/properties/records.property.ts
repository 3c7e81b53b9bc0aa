import fc from 'fast-check';
import { NAT_RULE_FIELDS, natRulePatch } from '../arbitraries/bodies.js';
import { operationRequest } from '../arbitraries/operationRequest.js';
import { notApplicable, observed } from '../suite/caseVerdict.js';
import { expectJsonObject, expectStatus, RuleViolation } from '../suite/ruleViolation.js';
import { getSuite, ruleTest } from '../suite/suiteContext.js';

ruleTest(
  'PATCH-1',
  'a NAT rule update changes only the sent fields and returns the updated record',
  async (t) => {
    t.requireMutations();
    const suite = getSuite();
    const rule = suite.plan.natRule;
    if (!rule) return t.skip('profile lists no resources.natRules');
    const op = suite.operation('updateNatPortForwardingRule');
    const patch = (body: unknown) =>
      suite.http.send(operationRequest(op, suite, 'positive', { body: JSON.stringify(body) }));
    // An empty partial update changes nothing and shows the current record.
    const baseline = await patch({});
    expectStatus(baseline, (s) => s === 200, '200 with the rule record for an empty partial update');
    const original = expectJsonObject(baseline, 'the rule record');
    let previous = original;
    try {
      await t.check(natRulePatch, async (update) => {
        const exchange = await patch(update);
        // A conflict with the rule's state is allowed, but shows nothing about partial updates.
        if (exchange.response.status === 409) return notApplicable('the update answered 409 Conflict');
        expectStatus(exchange, (s) => s === 200, '200 with the updated rule record');
        const record = expectJsonObject(exchange, 'the updated rule record');
        for (const field of NAT_RULE_FIELDS) {
          const sent = field in update;
          const expected = sent ? (update as Record<string, unknown>)[field] : previous[field];
          if (!sent && !(field in previous)) continue;
          if (JSON.stringify(record[field]) !== JSON.stringify(expected)) {
            throw new RuleViolation(
              `${field} is ${JSON.stringify(record[field])} after the update; expected ${JSON.stringify(expected)} (${sent ? 'the value sent' : 'unsent, so unchanged'})`,
              exchange,
            );
          }
        }
        previous = record;
        return observed;
      });
    } finally {
      // Put the rule back as it was: the only cleanup a PATCH needs.
      const restore = Object.fromEntries(
        NAT_RULE_FIELDS.filter((f) => f in original).map((f) => [f, original[f]]),
      );
      await patch(restore).catch(() =>
        t.recordCreated('NAT rule change', rule.ruleId, 'could not be restored: the target did not answer'),
      );
    }
  },
);

const DEFAULTS = { retention_days: 7, full_backup_interval_days: 7, incremental_enabled: true } as const;
const SCHEDULE_DEFAULTS = { timezone: 'UTC', hour: 20, minute: 0, window_minutes: 30 } as const;

ruleTest(
  'BACKUP-1',
  'enabling backups with an empty body applies the documented defaults; a second enable answers 409 or the same policy',
  async (t) => {
    t.requireMutations();
    const suite = getSuite();
    const vmId = suite.plan.gpuVmForDefaults;
    if (!vmId) return t.skip('profile lists no resources.gpuVmIds');
    const op = suite.operation('enableGpuVmBackups');
    const enable = () =>
      suite.http.send(operationRequest(op, suite, 'positive', { pathIds: { vm_id: vmId }, body: '{}' }));
    const first = await enable();
    if (first.response.status === 409)
      return t.inconclusive(
        `the first enable on GPU VM ${vmId} answered 409: it already has a backup policy, so the defaults cannot be observed (list a GPU VM without one in resources.gpuVmIds)`,
      );
    t.recordCreated(
      'backup policy',
      vmId,
      'not cleaned up: the document specifies no way to disable backups',
    );
    await t.check(
      fc.constant(vmId),
      async () => {
        expectStatus(first, (s) => s === 200, '200 with the backup policy');
        const policy = expectJsonObject(first, 'the backup policy');
        for (const [field, value] of Object.entries(DEFAULTS)) {
          if (policy[field] !== value)
            throw new RuleViolation(
              `${field} is ${JSON.stringify(policy[field])}; the documented default is ${JSON.stringify(value)}`,
              first,
            );
        }
        const schedule = (policy.schedule ?? {}) as Record<string, unknown>;
        for (const [field, value] of Object.entries(SCHEDULE_DEFAULTS)) {
          if (schedule[field] !== value)
            throw new RuleViolation(
              `schedule.${field} is ${JSON.stringify(schedule[field])}; the documented default is ${JSON.stringify(value)}`,
              first,
            );
        }
        const again = await enable();
        expectStatus(
          again,
          (s) => s === 409 || s === 200,
          '409, or 200 with the existing policy (A-BACKUP-ENABLE-TWICE)',
        );
        if (again.response.status === 200) {
          const second = expectJsonObject(again, 'the existing backup policy');
          if (second.policy_id !== policy.policy_id) {
            throw new RuleViolation(
              `a second enable answered 200 with policy ${JSON.stringify(second.policy_id)}, not the existing ${JSON.stringify(policy.policy_id)}`,
              again,
            );
          }
        }
        return observed;
      },
      { maxRuns: 1 },
    );
  },
);
