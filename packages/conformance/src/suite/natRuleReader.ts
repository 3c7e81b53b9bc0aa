import { NAT_RULE_FIELDS } from '../arbitraries/bodies.js';
import { operationRequest } from '../arbitraries/operationRequest.js';
import type { Exchange } from '../http/exchange.js';
import { expectJsonObject, RuleViolation } from './ruleViolation.js';
import type { Suite } from './suiteContext.js';

export type NatRuleFields = Readonly<Record<string, unknown>>;

/**
 * The profile's NAT rule as its own workspace shows it. The document shows no read of a rule:
 * an empty partial update changes nothing and answers the current record, so it is the read.
 */
export async function readNatRule(suite: Suite): Promise<NatRuleFields | undefined> {
  const exchange = await suite.http.send(
    operationRequest(suite.operation('updateNatPortForwardingRule'), suite, 'positive', { body: '{}' }),
  );
  if (exchange.response.status !== 200) return undefined;
  const record = expectJsonObject(exchange, 'the NAT rule record');
  return Object.fromEntries(NAT_RULE_FIELDS.filter((f) => f in record).map((f) => [f, record[f]]));
}

/** Field-by-field differences between two readings, for a message that says what changed. */
export function natRuleChanges(before: NatRuleFields, after: NatRuleFields): string[] {
  return NAT_RULE_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f])).map(
    (f) => `${f} ${JSON.stringify(before[f])} → ${JSON.stringify(after[f])}`,
  );
}

/** A refused update must have changed nothing: the rule, read again, must still read as `before`. */
export async function expectNatRuleUnchanged(
  suite: Suite,
  before: NatRuleFields,
  refused: Exchange,
  what: string,
): Promise<void> {
  const after = await readNatRule(suite);
  const changes = after ? natRuleChanges(before, after) : [];
  if (changes.length > 0)
    throw new RuleViolation(
      `the update was refused (${refused.response.status}) but ${what} changed: ${changes.join(', ')}`,
      refused,
    );
}

/** Puts the rule back as `original` showed it, if it was changed. */
export async function restoreNatRule(suite: Suite, original: NatRuleFields): Promise<void> {
  const now = await readNatRule(suite);
  if (now && natRuleChanges(original, now).length === 0) return;
  await suite.http.send(
    operationRequest(suite.operation('updateNatPortForwardingRule'), suite, 'positive', {
      body: JSON.stringify(original),
    }),
  );
}
