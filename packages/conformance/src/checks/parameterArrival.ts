import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import { type BodyForm, bodyForms, type ParameterForm, parameterForms } from '../generate/arrivalForms.js';
import {
  MUTATING_OPERATIONS,
  operationRequest,
  pathIdsFor,
  usableOperations,
} from '../generate/operationRequest.js';
import { identityWith } from '../session/identities.js';
import type { Session } from '../session/session.js';
import { requestParameters } from '../spec/requestParameters.js';
import { type RequestField, requestFields } from '../spec/requestSchemas.js';
import type { ApiRequest, Exchange } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { canonicalJson, listContent } from './exchangeReading.js';
import {
  expectNatRuleUnchanged,
  keepingNatRule,
  natRuleAsRead,
  natRuleToChange,
  readNatRule,
  restoreNatRule,
} from './natRuleReader.js';
import { expectErrorDetail, expectJsonObject, is2xx, is4xx, RuleViolation } from './ruleViolation.js';
import { integerWrittenWithFraction } from './schemaAudit.js';

const NAT_UPDATE = 'updateNatPortForwardingRule';

/** One parameter of one operation, sent in one form. */
interface ParameterCase {
  readonly operationId: string;
  readonly parameter: string;
  readonly in: 'query' | 'path';
  readonly value: string;
  readonly form: ParameterForm;
}

/**
 * Operations whose well-formed request reads without changing anything: the reads, the billing
 * preflight, and (where writes are allowed) a NAT rule update with an empty body.
 */
function readingOperations(session: Session): OperationEntry[] {
  return usableOperations(session, 'positive').filter(
    (op) => !MUTATING_OPERATIONS.has(op.operationId) || op.operationId === NAT_UPDATE,
  );
}

function wellFormed(
  op: OperationEntry,
  session: Session,
  overrides: { workspaceId?: string; token?: string } = {},
) {
  return operationRequest(op, session, 'positive', {
    ...overrides,
    ...(op.operationId === NAT_UPDATE ? { body: '{}' } : {}),
  });
}

function encodePair(name: string, value: string): string {
  return `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

/** The well-formed request with one parameter replaced by its form, spelled as the form says. */
function withForm(op: OperationEntry, session: Session, c: ParameterCase): ApiRequest {
  const base = wellFormed(op, session);
  if (c.in === 'query') {
    const pairs = base.query.map(([name, value]) => {
      if (name !== c.parameter) return encodePair(name, value);
      const one = `${encodeURIComponent(name)}=${c.form.encoded}`;
      return c.form.twice ? `${one}&${one}` : one;
    });
    return { ...base, encodedQuery: pairs.join('&') };
  }
  const ids = pathIdsFor(op, session, 'positive') ?? {};
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    name === c.parameter ? c.form.encoded : encodeURIComponent(ids[name] ?? ''),
  );
  return { ...base, path };
}

/** Every (operation, parameter, form) derived from the parameters' schemas. */
function parameterCases(session: Session, ops: readonly OperationEntry[]): ParameterCase[] {
  return ops.flatMap((op) => {
    const base = wellFormed(op, session);
    const ids = pathIdsFor(op, session, 'positive') ?? {};
    return requestParameters(op.operationId).flatMap((parameter) => {
      if (parameter.in === 'header') return [];
      const value =
        parameter.in === 'query'
          ? base.query.find(([name]) => name === parameter.name)?.[1]
          : ids[parameter.name];
      if (value === undefined) return [];
      return parameterForms(parameter, value).map((form) => ({
        operationId: op.operationId,
        parameter: parameter.name,
        in: parameter.in as 'query' | 'path',
        value,
        form,
      }));
    });
  });
}

function parsedBody(exchange: Exchange): unknown {
  return exchange.response.isJson ? exchange.response.json : exchange.response.bodyText;
}

/**
 * One way two answers differ. `field` names the record field that differs; without one, the status
 * code, the list or the whole body differs.
 */
interface Difference {
  readonly field?: string;
  readonly text: string;
}

/**
 * Where two answers differ: the status, the members of a list, or the fields of a record. A body
 * nested too deep to walk (a `metadata` map may hold anything) is compared as text.
 */
function differences(a: Exchange, b: Exchange): Difference[] {
  try {
    return fieldDifferences(a, b);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return a.response.bodyText === b.response.bodyText
      ? []
      : [{ text: 'the body (nested too deep to compare field by field)' }];
  }
}

function fieldDifferences(a: Exchange, b: Exchange): Difference[] {
  if (a.response.status !== b.response.status)
    return [{ text: `status ${a.response.status} → ${b.response.status}` }];
  const x = parsedBody(a);
  const y = parsedBody(b);
  if (Array.isArray(x) && Array.isArray(y)) {
    return listContent(x) === listContent(y)
      ? []
      : [{ text: `a list of ${x.length} item(s) → a list of ${y.length} item(s) that differ` }];
  }
  if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
    const left = x as Record<string, unknown>;
    const right = y as Record<string, unknown>;
    return [...new Set([...Object.keys(left), ...Object.keys(right)])]
      .filter((key) => canonicalJson(left[key]) !== canonicalJson(right[key]))
      .map((key) => ({
        field: key,
        text: `${key} ${JSON.stringify(left[key])} → ${JSON.stringify(right[key])}`,
      }));
  }
  return canonicalJson(x) === canonicalJson(y) ? [] : [{ text: 'the body' }];
}

/**
 * Whether a difference shows that another record or workspace was read: another status code, list
 * or body, or another value in a field that names the record (its workspace or organization, or a
 * field that held an id the request named). Other fields (a status, a timestamp, a target VM) can
 * differ between two reads of one record.
 */
function namesAnotherRecord(difference: Difference, named: ReadonlySet<string>, record: unknown): boolean {
  const { field } = difference;
  if (field === undefined || field === 'workspace_id' || field === 'organization_id') return true;
  const held = record && typeof record === 'object' ? (record as Record<string, unknown>)[field] : undefined;
  return typeof held === 'string' && named.has(held);
}

const listed = (found: readonly Difference[]): string => found.map((d) => d.text).join('; ');

function describe(c: ParameterCase): string {
  return `${c.parameter} ${JSON.stringify(c.value)} ${c.form.twice ? 'given twice' : `with ${c.form.kind}`} (sent as ${c.form.encoded})`;
}

const checks: Check[] = [];

checks.push(
  defineCheck(
    'PARAM-1',
    'reads a query or path parameter sent in another form (other digits, whitespace, control characters, percent-encoding, letter case, twice) as the value it spells, or refuses it; never as another workspace or record',
    async (t) => {
      const session = t.session;
      const ops = readingOperations(session);
      const cases = parameterCases(session, ops);
      if (cases.length === 0) return t.skip('no operation that only reads is usable on this profile');
      const byId = new Map(ops.map((op) => [op.operationId, op]));
      const answers = new Map<string, Promise<Exchange | undefined>>();
      const once = (key: string, send: () => Promise<Exchange | undefined>) => {
        const known = answers.get(key);
        if (known) return known;
        const answer = send();
        answers.set(key, answer);
        return answer;
      };
      const control = (op: OperationEntry) =>
        once(`${op.operationId} primary`, () => session.http.send(wellFormed(op, session)));
      // Another workspace's answer: shows whether the primary's answer names its workspace at all.
      const elsewhere = (op: OperationEntry) =>
        once(`${op.operationId} secondary`, async () => {
          const secondary = session.profile.workspaces.secondary;
          const identity = identityWith(session.profile, op.scope, secondary);
          return identity
            ? session.http.send(wellFormed(op, session, { workspaceId: secondary, token: identity.token }))
            : undefined;
        });
      await t.check(
        fc.constantFrom(...cases),
        async (c): Promise<CaseVerdict> => {
          const op = byId.get(c.operationId) as OperationEntry;
          const [real, exchange] = await Promise.all([
            control(op),
            session.http.send(withForm(op, session, c)),
          ]);
          if (!real || !is2xx(real.response.status))
            return notApplicable(
              `${c.operationId} answered ${real?.response.status} with the well-formed value too`,
            );
          const status = exchange.response.status;
          if (is4xx(status)) {
            expectErrorDetail(exchange);
            return observed;
          }
          if (!is2xx(status))
            throw new RuleViolation(
              `${c.operationId} answered ${status} to ${describe(c)}; a value in another form must be refused with a 4xx and the error shape, or read as the value it spells`,
              exchange,
            );
          let changed = differences(real, exchange);
          if (changed.length > 0) {
            // Fields that change between two well-formed reads (a status, an updated_at) say nothing.
            const again = await session.http.send(wellFormed(op, session));
            // A whole answer that moves (another status, list or body) makes every such difference moot.
            const key = (d: Difference) => d.field ?? 'the whole answer';
            const moving = new Set(differences(real, again).map(key));
            changed = changed.filter((d) => !moving.has(key(d)));
          }
          if (changed.length > 0) {
            if (c.form.reading === 'other') return observed;
            // The same record (every id agrees) in another state is a read at another moment, or a
            // cache keyed by the URL's spelling: no sign of which value was read.
            const named = new Set([...Object.values(pathIdsFor(op, session, 'positive') ?? {}), c.value]);
            if (!changed.some((d) => namesAnotherRecord(d, named, parsedBody(real))))
              return notApplicable(
                `${c.operationId} answered ${describe(c)} with the same record in another state (${listed(changed)}): a change between the reads or a cache keyed by the URL, not a value read as another`,
              );
            throw new RuleViolation(
              `${c.operationId} served ${describe(c)} with ${status}, but not as ${JSON.stringify(c.value)}: ${listed(changed)}. It must be refused, or read as exactly the value it spells`,
              exchange,
            );
          }
          // Answered exactly as the well-formed value: that shows which value was read only if
          // another workspace answers otherwise (two empty bucket lists show nothing).
          const other = await elsewhere(op);
          if (!other || differences(real, other).length === 0)
            return notApplicable(
              `${c.operationId} answers the same in workspaces ${session.profile.workspaces.primary} and ${session.profile.workspaces.secondary}, so an answer cannot show which one was read`,
            );
          if (c.form.reading === 'same') return observed;
          throw new RuleViolation(
            `${c.operationId} answered ${describe(c)} — another ${c.parameter} — with ${status} and exactly the answer of ${JSON.stringify(c.value)}: it was read as ${JSON.stringify(c.value)} (a parser that wraps or truncates, a URL decoded twice, or a handler that never reads ${c.parameter}), not as the value sent`,
            exchange,
          );
        },
        { examples: cases, exhaustive: true, independent: true },
      );
    },
  ),
);

/** One NAT rule field sent, in one form, as an update. */
interface BodyCase {
  readonly field: string;
  readonly form: BodyForm;
}

/** A value of `field` other than the rule's current one, so an update shows whether it landed. */
function changedValue(field: RequestField, current: unknown): unknown {
  switch (field.type) {
    case 'integer':
      // A port-like positive value, whatever the rule holds (bounds are not shown: it may be negative).
      return typeof current === 'number' && current >= 1 && current < 65_535 ? current + 1 : 8081;
    case 'boolean':
      return current !== true;
    case 'string':
      return field.enum
        ? (field.enum.find((v) => v !== current) ?? current)
        : typeof current === 'string'
          ? current
          : '';
    default:
      return current;
  }
}

checks.push(
  defineCheck(
    'PARAM-1',
    'stores a NAT rule field sent in another form (a number as text or as 8082.0, true for 1, a boolean as text or 0/1, an enum in another case, text as a number or a boolean, an integer 2^32 away) as the value it spells, typed as the document types it, or refuses it and changes nothing',
    async (t) => {
      const { op, original } = await natRuleToChange(t);
      const session = t.session;
      const cases: BodyCase[] = requestFields(op.operationId)
        .filter((field) => field.path.length === 1)
        .flatMap((field) => {
          const name = field.path[0] as string;
          return [
            ...bodyForms(field, changedValue(field, original[name])),
            // No field of the update is nullable: a null is refused, or leaves the field as it was
            // (read as "not sent"); a null stored, or a value made of it, is neither.
            {
              kind: 'null, which no field of the update may hold',
              sent: null,
              means: original[name],
              accepted: `left as it was (${JSON.stringify(original[name])}), as if not sent`,
            },
          ].map((form) => ({ field: name, form }));
        });
      if (cases.length === 0) return t.skip('the NAT rule update has no typed field to send in another form');
      const update = (field: string, form: BodyForm) =>
        session.http.send(
          operationRequest(op, session, 'positive', {
            body: `{${JSON.stringify(field)}:${form.json ?? JSON.stringify(form.sent)}}`,
          }),
        );
      await keepingNatRule(t, original, async () => {
        await t.check(
          fc.constantFrom(...cases),
          async ({ field, form }): Promise<CaseVerdict> => {
            const sent = `${field} ${form.json ?? JSON.stringify(form.sent)} (${form.kind})`;
            try {
              const exchange = await update(field, form);
              const status = exchange.response.status;
              if (status === 409) return notApplicable('the update answered 409 Conflict');
              if (is4xx(status)) {
                expectErrorDetail(exchange);
                const unattributable = await expectNatRuleUnchanged(session, original, exchange, 'the rule');
                return unattributable ?? observed;
              }
              if (!is2xx(status))
                throw new RuleViolation(
                  `the NAT rule update answered ${status} to ${sent}; it must be refused with a 4xx and the error shape, or stored as ${JSON.stringify(form.means)}`,
                  exchange,
                );
              const record = natRuleAsRead(expectJsonObject(exchange, 'the updated rule record'));
              // JavaScript reads 8082.0 as 8082: the answer's text shows a float kept as sent.
              const written = integerWrittenWithFraction(exchange.response.bodyText, field)?.text;
              if (JSON.stringify(record[field]) !== JSON.stringify(form.means) || written !== undefined)
                throw new RuleViolation(
                  `the NAT rule update accepted ${sent} (${status}) and answered ${field} ${written ?? JSON.stringify(record[field])}; accepted, it must be ${form.accepted ?? `stored as ${JSON.stringify(form.means)}, typed as the document types it`}`,
                  exchange,
                );
              const after = await readNatRule(session, new Set([field]));
              if (after && JSON.stringify(after[field]) !== JSON.stringify(form.means))
                throw new RuleViolation(
                  `the NAT rule update accepted ${sent} and answered it as ${JSON.stringify(form.means)}, but the rule read back has ${field} ${JSON.stringify(after[field])}`,
                  exchange,
                );
              return observed;
            } finally {
              // A rule that cannot be put back here is recorded once, by keepingNatRule below.
              await restoreNatRule(session, original).catch(() => undefined);
            }
          },
          { examples: cases, exhaustive: true },
        );
      });
    },
  ),
);

/** The parameterArrival family's checks, in the order they run. */
export const parameterArrivalChecks: readonly Check[] = checks;
