import type { OperationEntry } from '@cloud-api/spec';
import { NAT_RULE_FIELDS } from '../generate/bodies.js';
import { operationRequest } from '../generate/operationRequest.js';
import type { Session } from '../session/session.js';
import type { Exchange } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable } from './caseVerdict.js';
import type { CheckContext, PropertyOptions } from './check.js';
import { expectJsonObject, RuleViolation } from './ruleViolation.js';

export type NatRuleFields = Readonly<Record<string, unknown>>;

/** "protocol | enum | no | default `tcp`", "note | string | no | default empty string", "enabled | boolean | no | default true". */
const NAT_RULE_DEFAULTS = { protocol: 'tcp', note: '', enabled: true } as const;

/**
 * A NAT rule record as the document lets it be read: an optional field left out has its documented
 * default (`protocol` tcp, `note` empty, `enabled` true), so a target that omits a field equal to
 * its default reads the same as one that writes it, and a restore sends it explicitly.
 */
export function natRuleAsRead(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const read: Record<string, unknown> = { ...record };
  for (const [field, value] of Object.entries(NAT_RULE_DEFAULTS)) if (!(field in read)) read[field] = value;
  return read;
}

/** Waits before each new try of an update a busy rule refused with 409: about 6 s in all. */
const BUSY_RETRY_DELAYS_MS = [200, 400, 800, 1_600, 3_200] as const;

/**
 * Sends an update again while the rule answers 409 Conflict: a rule may stay busy for a while
 * after a change (provisioning; its transitions are not shown), and refuses every update then.
 * Returns the last answer, still 409 if the rule never settled.
 */
export async function untilRuleSettles(send: () => Promise<Exchange>): Promise<Exchange> {
  let exchange = await send();
  for (const delay of BUSY_RETRY_DELAYS_MS) {
    if (exchange.response.status !== 409) return exchange;
    await new Promise((resolve) => setTimeout(resolve, delay));
    exchange = await send();
  }
  return exchange;
}

/** Fields a read may send unchanged, in the order it prefers them (the profile gives a name). */
const RESTATABLE_FIELDS = [
  'name',
  'note',
  'enabled',
  'protocol',
  'internal_ip',
  'internal_port',
  'external_port',
];

/** Statuses that refuse an empty update as invalid: the target's choice (A-NAT-UPDATE-EMPTY-BODY). */
export const refusesAsInvalid = (status: number): boolean => status === 400 || status === 422;

/**
 * The profile's NAT rule as its own workspace shows it. The document shows no read of a rule:
 * an empty partial update changes nothing and answers the current record, so it is the read.
 * A target may refuse an update that names no field (A-NAT-UPDATE-EMPTY-BODY); the read then
 * sends one field with the value the rule was last answered with (the profile's `name` before
 * any answer), never one of `changing` (fields a request under test sent, or concurrent updates
 * set, whose value may have moved since): sending such a field unchanged would hide that move.
 */
export async function readNatRule(
  session: Session,
  changing: ReadonlySet<string> = new Set(),
): Promise<NatRuleFields | undefined> {
  const record = natRuleRecordOf(await readNatRuleExchange(session, changing));
  return record ? natRuleFieldsOf(record) : undefined;
}

/** The record's documented update fields. */
const natRuleFieldsOf = (record: Readonly<Record<string, unknown>>): NatRuleFields =>
  Object.fromEntries(NAT_RULE_FIELDS.filter((f) => f in record).map((f) => [f, record[f]]));

/** The record a read was answered with (200), as the document lets it be read. */
export function natRuleRecordOf(exchange: Exchange | undefined): Record<string, unknown> | undefined {
  if (exchange?.response.status !== 200) return undefined;
  return natRuleAsRead(expectJsonObject(exchange, 'the NAT rule record'));
}

/** The read's last exchange (any status), or undefined when no read could be sent. */
export async function readNatRuleExchange(
  session: Session,
  changing: ReadonlySet<string> = new Set(),
): Promise<Exchange | undefined> {
  const empty = operationRequest(session.operation('updateNatPortForwardingRule'), session, 'positive', {
    body: '{}',
  });
  const exchange = await untilRuleSettles(() => session.http.send(empty));
  return refusesAsInvalid(exchange.response.status) ? restatingRead(session, changing) : exchange;
}

/**
 * The read of a target that refuses an empty update: an update sending one field unchanged;
 * undefined when no field can be sent so.
 */
export async function restatingRead(
  session: Session,
  changing: ReadonlySet<string> = new Set(),
): Promise<Exchange | undefined> {
  const op = session.operation('updateNatPortForwardingRule');
  const update = (body: string) => operationRequest(op, session, 'positive', { body });
  const restated = restatement(session, update('{}').path, changing);
  if (!restated) return undefined;
  return untilRuleSettles(() => session.http.send(update(JSON.stringify(restated))));
}

/** One field of the rule with the value it was last answered with, outside `changing`. */
function restatement(
  session: Session,
  path: string,
  changing: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  const rule = session.plan.natRule;
  const answered = session.natRuleRecords.latest(path);
  const ownRecord = answered && answered.port_forward_rule_id === rule?.ruleId ? answered : undefined;
  const known: Readonly<Record<string, unknown>> =
    ownRecord ?? (rule?.name !== undefined ? { name: rule.name } : {});
  const field = RESTATABLE_FIELDS.find((f) => f in known && !changing.has(f));
  return field === undefined ? undefined : { [field]: known[field] };
}

/** Field-by-field differences between two readings, for a message that says what changed. */
export function natRuleChanges(before: NatRuleFields, after: NatRuleFields): string[] {
  return NAT_RULE_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f])).map(
    (f) => `${f} ${JSON.stringify(before[f])} → ${JSON.stringify(after[f])}`,
  );
}

/** The fields a request's body sets; undefined when the body is no JSON object (any field may be hit). */
function fieldsSent(request: Exchange['request']): Set<string> | undefined {
  try {
    const body: unknown = JSON.parse(request.body ?? '');
    return body && typeof body === 'object' && !Array.isArray(body) ? new Set(Object.keys(body)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A refused update must have changed nothing: the rule, read again, must still read as `before`.
 * A partial update can change only the fields it sends, so a change in those fails; a change only
 * in fields it did not send is not this request's doing (a stale read, another writer) and is no
 * verdict either way: the returned case says why.
 */
export async function expectNatRuleUnchanged(
  session: Session,
  before: NatRuleFields,
  refused: Exchange,
  what: string,
): Promise<CaseVerdict | undefined> {
  const sent = fieldsSent(refused.request);
  const after = await readNatRule(session, sent ?? new Set(NAT_RULE_FIELDS));
  if (!after)
    return notApplicable(
      `${what} could not be read back after the refused update, so whether it changed is not known`,
    );
  const changed = NAT_RULE_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
  if (changed.length === 0) return undefined;
  const changes = natRuleChanges(before, after);
  if (sent && !changed.some((field) => sent.has(field)))
    return notApplicable(
      `${what} reads differently after the refused update, but only in fields it did not send (${changes.join(', ')}): a stale read or another writer, not this request`,
    );
  throw new RuleViolation(
    `the update was refused (${refused.response.status}) but ${what} changed: ${changes.join(', ')}`,
    refused,
  );
}

export class NatRuleNotRestored extends Error {}

/** What the report says of a rule a check changed and could not put back. */
export function notRestoredCleanup(error: unknown): string {
  return error instanceof NatRuleNotRestored
    ? error.message
    : 'could not be restored: the target did not answer';
}

/**
 * Puts the rule back as `original` showed it, if it was changed; throws, saying what the target
 * answered, when the rule does not read as `original` afterwards.
 */
export async function restoreNatRule(session: Session, original: NatRuleFields): Promise<void> {
  const now = await readNatRule(session);
  if (now && natRuleChanges(original, now).length === 0) return;
  const fields = Object.fromEntries(
    NAT_RULE_FIELDS.filter((f) => f in original).map((f) => [f, original[f]]),
  );
  const put = await untilRuleSettles(() =>
    session.http.send(
      operationRequest(session.operation('updateNatPortForwardingRule'), session, 'positive', {
        body: JSON.stringify(fields),
      }),
    ),
  );
  if (put.response.status !== 200)
    throw new NatRuleNotRestored(`could not be restored: the update answered ${put.response.status}`);
  const after = await readNatRule(session);
  const left = after ? natRuleChanges(original, after) : ['the rule could not be read back'];
  if (left.length > 0) throw new NatRuleNotRestored(`could not be restored: ${left.join(', ')}`);
}

/**
 * Runs `body`, then puts the NAT rule back as `before` showed it, whatever happened (a target that
 * applied a refused update included); a rule it cannot put back is recorded for the report.
 */
export async function keepingNatRule(
  t: CheckContext,
  before: NatRuleFields | undefined,
  body: () => Promise<void>,
): Promise<void> {
  try {
    await body();
  } finally {
    if (before)
      await restoreNatRule(t.session, before).catch((error: unknown) =>
        t.recordCreated('NAT rule change', t.session.plan.natRule?.ruleId ?? '?', notRestoredCleanup(error)),
      );
  }
}

/**
 * Property options for refused NAT rule updates: refused cases change nothing, so each read-back
 * sees the rule as it was, in any order; a concurrent failure is looked for again from the rule
 * as it was.
 */
export function refusedUpdateOptions(
  session: Session,
  before: NatRuleFields | undefined,
  examples: readonly unknown[],
): PropertyOptions {
  return {
    examples,
    independent: true,
    ...(before ? { beforeRerun: () => restoreNatRule(session, before) } : {}),
  };
}

/**
 * The NAT rule a check that changes it works on, read as it is now: the check is skipped without
 * mutations or a listed rule, and inconclusive when the rule cannot be read.
 */
export async function natRuleToChange(t: CheckContext): Promise<{
  readonly op: OperationEntry;
  readonly original: NatRuleFields;
  /** The whole record, read-only fields and ids included. */
  readonly record: Readonly<Record<string, unknown>>;
}> {
  t.requireMutations();
  if (!t.session.plan.natRule) return t.skip('profile lists no resources.natRules');
  const op = t.session.operation('updateNatPortForwardingRule');
  const record = natRuleRecordOf(await readNatRuleExchange(t.session));
  if (!record)
    return t.session.plan.natRule.name === undefined
      ? t.inconclusive(
          'the NAT rule could not be read: an empty partial update was not answered 200, and the profile gives no name to send unchanged instead',
          "list a NAT rule of the primary workspace that can be updated in resources.natRules; where the target refuses an update naming no field (400 or 422), also give the rule's current name there (resources.natRules[0].name)",
        )
      : t.inconclusive(
          "the NAT rule could not be read: neither an empty partial update nor one sending the profile's name unchanged was answered 200",
          'list a NAT rule of the primary workspace that can be updated in resources.natRules, with its current name',
        );
  return { op, original: natRuleFieldsOf(record), record };
}
