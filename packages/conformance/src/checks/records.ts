import fc from 'fast-check';
import {
  awkwardValueUpdates,
  NAT_RULE_FIELDS,
  natRulePatch,
  unshownAddressRange,
  unshownPortBounds,
  unshownTextLimits,
} from '../generate/bodies.js';
import { operationRequest } from '../generate/operationRequest.js';
import type { Exchange } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import {
  expectNatRuleUnchanged,
  keepingNatRule,
  natRuleAsRead,
  natRuleRecordOf,
  natRuleToChange,
  notRestoredCleanup,
  readNatRule,
  refusesAsInvalid,
  restatingRead,
  restoreNatRule,
  untilRuleSettles,
} from './natRuleReader.js';
import {
  expectJsonObject,
  expectStatus,
  is4xx,
  isInvalidRequestRefusal,
  RuleViolation,
} from './ruleViolation.js';
import { BACKUP_POLICY_NOT_CLEANED } from './sharedRequests.js';
import { expectGeneratedNow, expectInOrder } from './timestampPlausibility.js';

/** Two timestamps naming the same instant, whatever their spelling; other values compared as JSON. */
function sameInstant(a: unknown, b: unknown): boolean {
  if (
    typeof a === 'string' &&
    typeof b === 'string' &&
    !Number.isNaN(Date.parse(a)) &&
    !Number.isNaN(Date.parse(b))
  )
    return Date.parse(a) === Date.parse(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

const checks: Check[] = [];

checks.push(
  defineCheck(
    'PATCH-1',
    'a NAT rule update changes only the sent fields and returns the updated record',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const rule = session.plan.natRule;
      if (!rule) return t.skip('profile lists no resources.natRules');
      const op = session.operation('updateNatPortForwardingRule');
      const patch = (body: unknown) =>
        session.http.send(operationRequest(op, session, 'positive', { body: JSON.stringify(body) }));
      // An empty partial update changes nothing and shows the current record, once the rule is
      // not busy (a 409 while it settles after a change is the document's conflict).
      // A target that refuses an update naming no field (A-NAT-UPDATE-EMPTY-BODY) is read by one
      // sending a field unchanged (restatingRead).
      const read = async (): Promise<Record<string, unknown> | undefined> => {
        const current = await untilRuleSettles(() => patch({}));
        if (current.response.status === 409) return undefined;
        if (refusesAsInvalid(current.response.status)) return natRuleRecordOf(await restatingRead(session));
        expectStatus(current, (s) => s === 200, '200 with the rule record for an empty partial update');
        return natRuleAsRead(expectJsonObject(current, 'the rule record'));
      };
      const busy =
        'the NAT rule could not be read: it answered 409 Conflict for about 6 s (it stayed busy), or refused an empty partial update and one sending a field unchanged (the profile gives its name: resources.natRules[0].name)';
      const original = await read();
      if (!original)
        return t.inconclusive(
          busy,
          "list a NAT rule that settles after a change in resources.natRules; where the target refuses an update naming no field (400 or 422), give the rule's current name there too",
        );
      // The rule as the last case left it; unknown after a failed case, which may have applied
      // part of its update: the next case (a shrunk one) reads it again, so its verdict never
      // rests on state the failure left behind.
      let previous: Record<string, unknown> | undefined = original;
      try {
        await t.check(
          natRulePatch(original.internal_ip),
          async (update) => {
            const before = previous ?? (await read());
            previous = undefined;
            if (!before) return notApplicable(busy);
            const exchange = await patch(update);
            // A refusal the document allows is no verdict on the update, but a refused update is
            // refused whole: one that left some of its fields written (an UPDATE per field, a
            // constraint failing on a later one) fails.
            const refused = async (why: string): Promise<CaseVerdict> =>
              (await expectNatRuleUnchanged(session, before, exchange, `NAT rule ${rule.ruleId}`)) ??
              notApplicable(why);
            // A conflict with the rule's state is allowed, but shows nothing about partial updates.
            if (exchange.response.status === 409) return refused('the update answered 409 Conflict');
            const unshown = unshownTextLimits(update);
            const status = exchange.response.status;
            if (isInvalidRequestRefusal(status) && unshown)
              return refused(
                `the update with ${unshown} was refused (${status}): which lengths and characters a field allows is not shown`,
              );
            const outOfRange = isInvalidRequestRefusal(status)
              ? (unshownAddressRange(update, before) ?? unshownPortBounds(update))
              : undefined;
            if (outOfRange) return refused(outOfRange);
            expectStatus(exchange, (s) => s === 200, '200 with the updated rule record');
            const record = natRuleAsRead(expectJsonObject(exchange, 'the updated rule record'));
            for (const field of NAT_RULE_FIELDS) {
              const sent = field in update;
              const expected = sent ? (update as Record<string, unknown>)[field] : before[field];
              if (!sent && !(field in before)) continue;
              if (JSON.stringify(record[field]) !== JSON.stringify(expected)) {
                throw new RuleViolation(
                  `${field} is ${JSON.stringify(record[field])} after the update; expected ${JSON.stringify(expected)} (${sent ? 'the value sent' : 'unsent, so unchanged'})`,
                  exchange,
                );
              }
            }
            // The rule was created once: an update (an INSERT OR REPLACE) does not make it anew.
            if ('created_at' in before && !sameInstant(record.created_at, before.created_at))
              throw new RuleViolation(
                `created_at is ${JSON.stringify(record.created_at)} after the update; it was ${JSON.stringify(before.created_at)} (the rule was created once, and the update did not send it)`,
                exchange,
              );
            previous = record;
            return observed;
          },
          { examples: awkwardValueUpdates },
        );
      } finally {
        // Put the rule back as it was (the only cleanup a PATCH needs), every field it showed or
        // defaults to written out, and say so in the report when it does not read so afterwards.
        await restoreNatRule(session, original).catch((error: unknown) =>
          t.recordCreated('NAT rule change', rule.ruleId, notRestoredCleanup(error)),
        );
      }
    },
  ),
);

checks.push(
  defineCheck(
    'PATCH-1',
    "a NAT rule update restating the rule's own values answers 200 with them: it conflicts with nothing",
    async (t) => {
      const session = t.session;
      const { op, original } = await natRuleToChange(t);
      // A uniqueness check that forgets to leave the rule itself out ("port already forwarded")
      // refuses the rule its own port; a restore of the rule after any change does the same.
      const fields = NAT_RULE_FIELDS.filter((field) => field in original);
      const cases: Record<string, unknown>[] = [
        ...fields.map((field) => ({ [field]: original[field] })),
        Object.fromEntries(fields.map((field) => [field, original[field]])),
      ];
      await keepingNatRule(t, original, () =>
        t.check(
          fc.constantFrom(...cases),
          async (update) => {
            const exchange = await untilRuleSettles(() =>
              session.http.send(operationRequest(op, session, 'positive', { body: JSON.stringify(update) })),
            );
            // Still 409: a conflict with itself only if the rule is not simply busy, i.e. the
            // empty update (which changes nothing) is answered 200.
            if (exchange.response.status === 409 && !(await readNatRule(session)))
              return notApplicable(
                'the rule stayed busy (409 to an empty update too), so no update could be judged',
              );
            expectStatus(
              exchange,
              (s) => s === 200,
              `200 with the updated rule record: the update restates the rule's current ${Object.keys(update).join(', ')}, which conflicts with nothing but the rule itself`,
            );
            const record = natRuleAsRead(expectJsonObject(exchange, 'the updated rule record'));
            for (const [field, value] of Object.entries(update))
              if (JSON.stringify(record[field]) !== JSON.stringify(value))
                throw new RuleViolation(
                  `${field} is ${JSON.stringify(record[field])} after an update that restated it as ${JSON.stringify(value)}`,
                  exchange,
                );
            return observed;
          },
          { examples: cases, exhaustive: true },
        ),
      );
    },
  ),
);

/**
 * The answer is the policy of the VM the path named, in the request's workspace; a policy this
 * request created was created and updated about now, in that order.
 */
function expectPolicyOf(
  exchange: Exchange,
  policy: Readonly<Record<string, unknown>>,
  vmId: string,
  workspace: string,
  created: boolean,
): void {
  if (policy.vm_id !== vmId)
    throw new RuleViolation(
      `backups were enabled for GPU VM ${JSON.stringify(vmId)} and the policy answered names vm_id ${JSON.stringify(policy.vm_id)}: it must be that VM's policy`,
      exchange,
    );
  if (String(policy.workspace_id) !== workspace)
    throw new RuleViolation(
      `backups were enabled in workspace ${workspace} and the policy's workspace_id is ${JSON.stringify(policy.workspace_id)}`,
      exchange,
    );
  expectEnabled(exchange, policy);
  if (created)
    for (const field of ['created_at', 'updated_at']) expectGeneratedNow(exchange, field, policy[field]);
  expectInOrder(exchange, policy, 'created_at', 'updated_at');
}

/** "Enables automated backups": the policy the enable answers with is enabled, not pending a worker. */
function expectEnabled(exchange: Exchange, policy: Readonly<Record<string, unknown>>): void {
  if (policy.enabled !== true)
    throw new RuleViolation(
      `the backup policy answered to "enable backups" has enabled ${JSON.stringify(policy.enabled)}; "Enables automated backups and creates the VM backup policy." makes it true`,
      exchange,
    );
}

const DEFAULTS = { retention_days: 7, full_backup_interval_days: 7, incremental_enabled: true } as const;
const SCHEDULE_DEFAULTS = { timezone: 'UTC', hour: 20, minute: 0, window_minutes: 30 } as const;

checks.push(
  defineCheck(
    'BACKUP-1',
    'enabling backups with an empty body applies the documented defaults; a second enable answers 409 or the same policy',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const vmId = session.plan.gpuVmForDefaults;
      if (!vmId) return t.skip('profile lists no resources.gpuVmIds');
      const op = session.operation('enableGpuVmBackups');
      const enable = () =>
        session.http.send(
          operationRequest(op, session, 'positive', { pathIds: { vm_id: vmId }, body: '{}' }),
        );
      const first = await enable();
      if (first.response.status === 409)
        return t.inconclusive(
          `the first enable on GPU VM ${vmId} answered 409: it already has a backup policy, so the defaults cannot be observed (list a GPU VM without one in resources.gpuVmIds)`,
        );
      t.recordCreated('backup policy', vmId, BACKUP_POLICY_NOT_CLEANED);
      await t.check(
        fc.constant(vmId),
        async () => {
          expectStatus(first, (s) => s === 200, '200 with the backup policy');
          const policy = expectJsonObject(first, 'the backup policy');
          expectEnabled(first, policy);
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
  ),
);

const FREQUENCIES = ['hourly', 'daily', 'weekly'] as const;

/**
 * The schedule's time zone and day of the week, one pair per VM beside FREQUENCIES: the default
 * zone with the day explicitly null ("no, nullable"), another zone (IANA names: the values a
 * target accepts are not shown, so a refusal of the name is no verdict), and the weekly schedule
 * with its day (3: a weekday whether days count from 0 or from 1).
 */
const SCHEDULE_PLACES = [
  { timezone: 'UTC', day_of_week: null },
  { timezone: 'America/New_York' },
  { timezone: 'Europe/Berlin', day_of_week: 3 },
] as const;
type SchedulePlace = { readonly timezone: string; readonly day_of_week?: number | null };

/** A full enable-backups body inside ranges every implementation accepts (A-POSITIVE-BACKUP-VALUES). */
const explicitBackupValues = fc
  .record({
    retention_days: fc.integer({ min: 1, max: 14 }),
    full_backup_interval_days: fc.integer({ min: 1, max: 7 }),
    incremental_enabled: fc.boolean(),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    window_minutes: fc.integer({ min: 30, max: 60 }),
  })
  // A full backup no rarer than the retention keeps one (a target may refuse an interval past it).
  .map((values) => ({
    ...values,
    full_backup_interval_days: Math.min(values.full_backup_interval_days, values.retention_days),
  }));

/** What BACKUP-2 asks of each of its GPU VMs (the profile's third to eighth), in order. */
const BACKUP_2_QUESTIONS = [
  'an hourly schedule with explicit values, after a refused enable that must leave no policy',
  'a daily schedule at hour 0 with explicit values',
  'a partial body on day_of_week 0 whose unsent fields take their defaults',
  'a weekly schedule without day_of_week (none invented)',
  'a retention of 35 days (kept or refused, never capped)',
  'daily full backups with incrementals on (kept or refused, never turned off)',
] as const;

checks.push(
  defineCheck(
    'BACKUP-2',
    'enabling backups with explicit values answers a policy showing every value sent, and a second enable still shows them',
    async (t) => {
      t.requireMutations();
      const session = t.session;
      const vms = session.plan.gpuVmsForValues;
      if (vms.length === 0)
        return t.skip(
          'profile lists fewer than 3 resources.gpuVmIds (the third to eighth carry explicit values)',
        );
      // Each VM past the profile's last asks its question of no one: said, never passed over.
      const unasked = BACKUP_2_QUESTIONS.slice(vms.length);
      if (unasked.length > 0)
        t.notChecked(
          unasked.join('; '),
          `list ${unasked.length} more GPU VM${unasked.length === 1 ? '' : 's'} without a backup policy in resources.gpuVmIds (BACKUP-2 asks one question of each of the third to eighth)`,
        );
      const op = session.operation('enableGpuVmBackups');
      // One body per VM, drawn from the run's seed: each VM can be enabled once.
      const values = fc.sample(explicitBackupValues, { seed: session.seed, numRuns: vms.length });
      const cases = vms.map((vmId, index) => {
        const { hour, minute, window_minutes, ...top } = values[index] as (typeof values)[number];
        const frequency = FREQUENCIES[index % FREQUENCIES.length] as string;
        // Both booleans in every run, false first: a dropped false is the classic echo bug.
        const incremental_enabled = index === 0 ? false : index === 1 ? true : top.incremental_enabled;
        // The third sends a partial body (retention only) and a partial schedule (its frequency and
        // day only): the fields it leaves out take their documented defaults, not an ORM's column
        // default, a zero value or the server's own zone. Its day is 0, where `day_of_week or None`
        // reads no day; refused (whether days count from 0 is not shown), it is sent again with
        // day 3. The first leaves out the hour of its hourly schedule ("hour ... 20" whatever the
        // frequency, not a null "unused for hourly").
        const partial = index === 2;
        // The second sends hour 0 in every run: `hour || 20` reads midnight as the default.
        const times = partial
          ? {}
          : index === 0
            ? { minute, window_minutes }
            : { hour: index === 1 ? 0 : hour, minute, window_minutes };
        const { retention_days, ...rest } = top;
        // Three more VMs, where the profile lists them, one question each, so that a legitimate
        // refusal of one says nothing about the others: a weekly schedule without its day (default
        // none, not Sunday); a retention past a month (kept as sent, or refused; never capped); a
        // full backup every day with incrementals on (kept, or refused; never turned off).
        if (index === 3)
          return { vmId, body: { schedule: { frequency: 'weekly', timezone: 'Europe/Berlin' } } };
        if (index === 4)
          return { vmId, body: { retention_days: 35, schedule: { frequency: 'daily', timezone: 'UTC' } } };
        if (index === 5)
          return {
            vmId,
            body: {
              full_backup_interval_days: 1,
              incremental_enabled: true,
              schedule: { frequency: 'daily', timezone: 'UTC' },
            },
          };
        return {
          vmId,
          // The first VM is first sent a schedule no target accepts: refused, it must leave no policy.
          ...(index === 0 ? { refusedFirst: true } : {}),
          ...(partial ? { dayZeroFirst: true } : {}),
          body: {
            // The partial body's full backups come every 7 days (the default): no rarer than its retention.
            retention_days: partial ? Math.max(retention_days, 7) : retention_days,
            ...(partial ? {} : { ...rest, incremental_enabled }),
            // Who asked is not a field of the policy record: sent (the body documents it), not compared.
            ...(index === 1 ? { requested_by: 'conformance-suite' } : {}),
            schedule: {
              frequency,
              ...(partial
                ? { day_of_week: 0 }
                : (SCHEDULE_PLACES[index % SCHEDULE_PLACES.length] as SchedulePlace)),
              ...times,
            },
          },
        };
      });
      const enabled = new Map<string, Record<string, unknown>>();
      // The body each VM's policy was created with, when it is not its case's first body.
      const acceptedBodies = new Map<string, Record<string, unknown>>();
      // Each VM's refused enable before its first accepted one, and what made it invalid.
      const refusedBefore = new Map<string, { readonly exchange: Exchange; readonly what: string }>();
      const enable = (vmId: string, body: unknown) =>
        session.http.send(
          operationRequest(op, session, 'positive', { pathIds: { vm_id: vmId }, body: JSON.stringify(body) }),
        );
      await t.check(
        fc.constantFrom(...cases),
        async ({ vmId, body: caseBody, ...c }): Promise<CaseVerdict> => {
          if ('refusedFirst' in c && !enabled.has(vmId) && !refusedBefore.has(vmId)) {
            // A policy row committed before the scheduler checks the schedule outlives the refusal.
            const refused = await enable(vmId, { schedule: { frequency: 'fortnightly' } });
            if (is4xx(refused.response.status))
              refusedBefore.set(vmId, {
                exchange: refused,
                what: 'with schedule frequency "fortnightly" (not one of hourly, daily, weekly)',
              });
          }
          let body: Record<string, unknown> = acceptedBodies.get(vmId) ?? caseBody;
          let exchange = await enable(vmId, body);
          if (
            'dayZeroFirst' in c &&
            !enabled.has(vmId) &&
            isInvalidRequestRefusal(exchange.response.status)
          ) {
            // Whether days count from 0 is not shown: the defaults are asked again with day 3.
            refusedBefore.set(vmId, { exchange, what: 'with schedule day_of_week 0' });
            body = { ...body, schedule: { ...(body.schedule as object), day_of_week: 3 } };
            acceptedBodies.set(vmId, body);
            exchange = await enable(vmId, body);
          }
          const first = enabled.get(vmId);
          if (first) {
            // A later answer about the same policy must still show what was sent.
            expectStatus(exchange, (s) => s === 409 || s === 200, '409, or 200 with the existing policy');
            if (exchange.response.status === 409) return observed;
          } else {
            const refused = refusedBefore.get(vmId);
            if (exchange.response.status === 409 && refused && session.freshResources)
              throw new RuleViolation(
                `GPU VM ${vmId} was ${session.freshResources}; its only enable before, ${refused.what}, was refused (${refused.exchange.response.status}), and yet this enable answered 409: the refused enable left a backup policy behind`,
                exchange,
              );
            if (exchange.response.status === 409)
              return notApplicable(
                `GPU VM ${vmId} already had a backup policy (409), so the values cannot be observed`,
              );
            const zone = (body.schedule as { timezone?: string }).timezone;
            const status = exchange.response.status;
            if (isInvalidRequestRefusal(status) && zone !== undefined && zone !== 'UTC')
              return notApplicable(
                `the time zone ${zone} was refused (${status}): which zone names a target accepts is not shown`,
              );
            const sent = body as { retention_days?: number; full_backup_interval_days?: number };
            if (isInvalidRequestRefusal(status) && (sent.retention_days ?? 0) > 30)
              return notApplicable(
                `a retention of ${sent.retention_days} days was refused (${status}): the bounds of retention_days are not shown`,
              );
            if (isInvalidRequestRefusal(status) && sent.full_backup_interval_days === 1)
              return notApplicable(
                `a full backup every day with incrementals on was refused (${status}): which combinations a target accepts is not shown`,
              );
            expectStatus(exchange, (s) => s === 200, '200 with the new backup policy');
            t.recordCreated('backup policy', vmId, BACKUP_POLICY_NOT_CLEANED);
          }
          const policy = expectJsonObject(exchange, 'the backup policy');
          enabled.set(vmId, policy);
          expectPolicyOf(exchange, policy, vmId, session.profile.workspaces.primary, first === undefined);
          const schedule = (policy.schedule ?? {}) as Record<string, unknown>;
          const {
            schedule: sentSchedule,
            requested_by: _requestedBy,
            ...sentTop
          } = body as { schedule: Record<string, unknown>; requested_by?: string };
          const mismatches = [
            ...Object.entries(sentTop)
              .filter(([field, value]) => policy[field] !== value)
              .map(([f, v]) => `${f} sent ${JSON.stringify(v)}, shows ${JSON.stringify(policy[f])}`),
            // A null sent to a nullable field may come back null or absent (A-OPTIONAL-FIELD-ABSENT).
            ...Object.entries(sentSchedule)
              .filter(
                ([field, value]) => (value === null ? (schedule[field] ?? null) : schedule[field]) !== value,
              )
              .map(
                ([f, v]) => `schedule.${f} sent ${JSON.stringify(v)}, shows ${JSON.stringify(schedule[f])}`,
              ),
            // What the body and its schedule left out take their documented defaults.
            ...Object.entries(DEFAULTS)
              .filter(([field, value]) => !(field in sentTop) && policy[field] !== value)
              .map(
                ([f, v]) =>
                  `${f} not sent, so its default ${JSON.stringify(v)}, shows ${JSON.stringify(policy[f])}`,
              ),
            ...Object.entries(SCHEDULE_DEFAULTS)
              .filter(([field, value]) => !(field in sentSchedule) && schedule[field] !== value)
              .map(
                ([f, v]) =>
                  `schedule.${f} not sent, so its default ${JSON.stringify(v)}, shows ${JSON.stringify(schedule[f])}`,
              ),
            // "day_of_week | integer | no, nullable | none": no day is invented for a schedule sent without one.
            ...(!('day_of_week' in sentSchedule) && (schedule.day_of_week ?? null) !== null
              ? [
                  `schedule.day_of_week not sent (its default is none), shows ${JSON.stringify(schedule.day_of_week)}`,
                ]
              : []),
          ];
          if (mismatches.length > 0)
            throw new RuleViolation(
              `the policy does not show what was sent: ${mismatches.join('; ')}`,
              exchange,
            );
          return observed;
        },
        { examples: cases, maxRuns: 1 },
      );
    },
  ),
);

/** The records family's checks, in the order they run. */
export const recordsChecks: readonly Check[] = checks;
