import fc from 'fast-check';
import { operationRequest } from '../generate/operationRequest.js';
import { type CaseVerdict, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { natRuleToChange, notRestoredCleanup, restoreNatRule } from './natRuleReader.js';
import { expectJsonObject, expectStatus, is2xx, is4xx, RuleViolation } from './ruleViolation.js';

const checks: Check[] = [];

/**
 * Members the update body does not list: fields of the record the client may not set, an unknown
 * one, and documented fields spelt in another letter case. The rule's ids and workspace are REC-1's
 * (a MUST: the rule must stay the one its path names); written here, they would move the rule away
 * from every later check (JSON member names are case-sensitive;
 * Go's encoding/json and ASP.NET Core's web defaults match them case-insensitively), each with
 * the field it would land on.
 */
const READ_ONLY_FIELDS: readonly { field: string; value: unknown; landsOn?: string }[] = [
  { field: 'NOTE', value: 'conformance-note-in-capitals', landsOn: 'note' },
  { field: 'Name', value: 'conformance-name-capitalised', landsOn: 'name' },
  { field: 'ENABLED', value: false, landsOn: 'enabled' },
  // A value the field's enum rules out: stored, the record breaks ENUM-1 and RESP-1 too (MUST).
  { field: 'PROTOCOL', value: 'icmp', landsOn: 'protocol' },
  { field: 'status', value: 'error' },
  { field: 'created_at', value: '2000-01-01T00:00:00Z' },
  { field: 'updated_at', value: '2000-01-01T00:00:00Z' },
  { field: 'error_message', value: 'conformance' },
  { field: 'conformance_unknown_field', value: 'conformance' },
];

checks.push(
  defineCheck(
    'NEG-2',
    'refuses or ignores, never applies, unknown and read-only fields in a NAT rule update',
    async (t) => {
      const session = t.session;
      // The whole record, read-only fields included: a field may already hold the value sent.
      const { op, original, record: baseline } = await natRuleToChange(t);
      try {
        await t.check(
          fc.constantFrom(...READ_ONLY_FIELDS),
          async ({ field, value, landsOn }): Promise<CaseVerdict> => {
            const exchange = await session.http.send(
              operationRequest(op, session, 'positive', { body: JSON.stringify({ [field]: value }) }),
            );
            if (is4xx(exchange.response.status)) return observed;
            expectStatus(exchange, is2xx, `a 4xx, or a 2xx that ignores ${field}`);
            const record = expectJsonObject(exchange, 'the rule record');
            const sentValue = JSON.stringify(value);
            const target = landsOn ?? field;
            if (
              JSON.stringify(record[target]) === sentValue &&
              JSON.stringify(baseline[target]) !== sentValue
            ) {
              // A target that writes what it is sent takes its own value back the same way: a rule
              // left in status "error" would refuse every later check's update.
              if (!landsOn && field in baseline)
                await session.http
                  .send(
                    operationRequest(op, session, 'positive', {
                      body: JSON.stringify({ [field]: baseline[field] }),
                    }),
                  )
                  .catch(() => undefined);
              throw new RuleViolation(
                landsOn
                  ? `the update applied a member named ${field} to ${landsOn}: ${landsOn} is now ${sentValue}. The update body lists ${landsOn}, not ${field}; JSON member names are case-sensitive, so ${field} is an unknown member (a decoder that matches names case-insensitively)`
                  : `the update applied ${field}: ${sentValue}, a field the update body does not list`,
                exchange,
              );
            }
            return observed;
          },
          {
            examples: READ_ONLY_FIELDS,
            // Each case judges only its own field in its own answer: no order changes a verdict.
            independent: true,
            beforeRerun: () => restoreNatRule(session, original),
          },
        );
      } finally {
        await restoreNatRule(session, original).catch((error: unknown) =>
          t.recordCreated('NAT rule change', session.plan.natRule?.ruleId ?? '?', notRestoredCleanup(error)),
        );
      }
    },
  ),
);

/**
 * The unlistedMembers family's checks. They run after every other check that updates the NAT
 * rule: a target that writes a status from the body may leave the rule refusing every update.
 */
export const unlistedMembersChecks: readonly Check[] = checks;
