import fc from 'fast-check';
import { type NegativeBody, negativeBodies } from '../generate/negativeBodies.js';
import { defaultBody, operationRequest, usableOperations } from '../generate/operationRequest.js';
import { requestFields } from '../spec/requestSchemas.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, defineCheck } from './check.js';
import { sendJudgingDrops } from './droppedRequests.js';
import {
  expectNatRuleUnchanged,
  keepingNatRule,
  type NatRuleFields,
  natRuleAsRead,
  natRuleToChange,
  readNatRule,
  refusedUpdateOptions,
} from './natRuleReader.js';
import { expectJsonObject, expectStatus, is2xx, is4xx, RuleViolation } from './ruleViolation.js';
import { CLOUD_VM_NOT_CLEANED } from './sharedRequests.js';

const checks: Check[] = [];

checks.push(
  defineCheck(
    'NEG-1',
    'refuses with a 4xx, and applies nothing of, every request body its schema rules out however leniently read (lenient coercions such as "2" for 2 are judged by PARAM-1)',
    async (t) => {
      const session = t.session;
      const ops = usableOperations(session, 'probe').filter((op) => op.hasRequestBody);
      if (ops.length === 0) return t.skip('no operation that takes a body is usable on this profile');
      const cases = ops.flatMap((op) => {
        const valid = (defaultBody(op, session) ?? {}) as Record<string, unknown>;
        return negativeBodies(requestFields(op.operationId), valid).map((negative) => ({ op, negative }));
      });
      const patching = ops.some((op) => op.operationId === 'updateNatPortForwardingRule');
      const natBefore: NatRuleFields | undefined = patching ? await readNatRule(session) : undefined;
      await keepingNatRule(t, natBefore, async () => {
        await t.check(
          fc.constantFrom(...cases),
          async ({
            op,
            negative,
          }: {
            op: (typeof ops)[number];
            negative: NegativeBody;
          }): Promise<CaseVerdict> => {
            const exchange = await sendJudgingDrops(
              session,
              operationRequest(op, session, 'probe', {
                body: negative.body,
                contentType: 'application/json',
              }),
              `a body where ${negative.kind}`,
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
              const unattributable = await expectNatRuleUnchanged(session, natBefore, exchange, 'the rule');
              if (unattributable) return unattributable;
            }
            return observed;
          },
          refusedUpdateOptions(session, natBefore, cases),
        );
      });
    },
  ),
);

/** A value of each type the update body documents that its schema rules out. */
const RULED_OUT: Readonly<Record<string, unknown>> = {
  external_port: '2300; DROP TABLE rules',
  protocol: 'icmp',
  enabled: 'no',
};

checks.push(
  defineCheck(
    'NEG-1',
    'a body naming a field twice, once with a value its schema rules out, is refused or read with the valid value',
    async (t) => {
      const session = t.session;
      const { op, original } = await natRuleToChange(t);
      // RFC 8259 leaves a repeated name to the reader: a refusal or either value is a reading, but
      // a validator reading the first copy and a store the last (gjson before encoding/json) store
      // a value the schema rules out. The valid copy restates the rule's own value: it conflicts
      // with nothing (PATCH-1).
      const cases = Object.keys(RULED_OUT)
        .filter((field) => field in original)
        .flatMap((field) => [true, false].map((validFirst) => ({ field, validFirst })));
      if (cases.length === 0) return t.skip('the NAT rule shows none of external_port, protocol, enabled');
      await keepingNatRule(t, original, () =>
        t.check(
          fc.constantFrom(...cases),
          async ({ field, validFirst }): Promise<CaseVerdict> => {
            const valid = `${JSON.stringify(field)}:${JSON.stringify(original[field])}`;
            const ruledOut = `${JSON.stringify(field)}:${JSON.stringify(RULED_OUT[field])}`;
            const body = `{${validFirst ? `${valid},${ruledOut}` : `${ruledOut},${valid}`}}`;
            const exchange = await session.http.send(
              operationRequest(op, session, 'positive', { body, contentType: 'application/json' }),
            );
            if (is4xx(exchange.response.status))
              return (await expectNatRuleUnchanged(session, original, exchange, 'the rule')) ?? observed;
            expectStatus(exchange, is2xx, `a 4xx, or 200 with ${field} read as its valid copy`);
            // A field equal to its documented default may be left out of the record (natRuleAsRead).
            const record = natRuleAsRead(expectJsonObject(exchange, 'the updated rule record'));
            const shown = JSON.stringify(record[field]);
            if (shown !== JSON.stringify(original[field]))
              throw new RuleViolation(
                `the body ${body} was accepted (${exchange.response.status}) and the rule now shows ${field} ${shown}: ${
                  shown === JSON.stringify(RULED_OUT[field])
                    ? 'a value its schema rules out was stored (the copy checked is not the copy kept)'
                    : `neither copy's value, so the ruled-out ${JSON.stringify(RULED_OUT[field])} was converted and stored instead of refused`
                }`,
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

/** The negativeData family's checks, in the order they run. */
export const negativeDataChecks: readonly Check[] = checks;
