import type { OperationEntry } from '@cloud-api/spec';
import fc from 'fast-check';
import { operationRequest, usableOperations } from '../generate/operationRequest.js';
import { invalidFormsOf, nonCanonicalFormsOf, type WorkspaceForm } from '../generate/workspaceForms.js';
import { identityWith } from '../session/identities.js';
import type { Session } from '../session/session.js';
import type { Exchange } from '../transport/exchange.js';
import { type CaseVerdict, notApplicable, observed } from './caseVerdict.js';
import { type Check, type CheckContext, defineCheck } from './check.js';
import { expectStatus, is2xx, is4xx, RuleViolation } from './ruleViolation.js';

interface FormCase {
  readonly op: OperationEntry;
  readonly workspace: string;
  readonly token: string;
  readonly form: WorkspaceForm;
}

/** Every (operation, profile workspace, form) an identity allowed on that workspace can send. */
function formCases(session: Session, formsOf: (id: string) => WorkspaceForm[]): FormCase[] {
  const { primary, secondary } = session.profile.workspaces;
  return usableOperations(session, 'probe').flatMap((op) =>
    [primary, secondary].flatMap((workspace) => {
      const identity = identityWith(session.profile, op.scope, workspace);
      return identity
        ? formsOf(workspace).map((form) => ({ op, workspace, token: identity.token, form }))
        : [];
    }),
  );
}

/**
 * The metamorphic relation: the derived form is refused while the real ID, in the same request,
 * is granted. Without the grant a refusal shows nothing (a server refusing everything, or a
 * resource that is not in that workspace, answers 4xx to both).
 */
async function checkForms(
  t: CheckContext,
  session: Session,
  formsOf: (id: string) => WorkspaceForm[],
  /** As the rule says it: a MUST rule's forms must be rejected, a SHOULD rule's should. */
  ought: 'must' | 'should',
): Promise<void> {
  const cases = formCases(session, formsOf);
  if (cases.length === 0) return t.skip('profile has no identity allowed on its workspaces');
  const controls = new Map<string, Promise<Exchange | undefined>>();
  const control = (c: FormCase): Promise<Exchange | undefined> => {
    const key = `${c.op.operationId} ${c.workspace}`;
    let answer = controls.get(key);
    if (!answer) {
      // The real ID in a request that changes nothing: positive probes of consuming operations
      // name a missing resource; a create is never sent as a control.
      const positive = usableOperations(session, 'positive').some(
        (op) => op.operationId === c.op.operationId,
      );
      answer = positive
        ? session.http.send(
            operationRequest(c.op, session, 'positive', { token: c.token, workspaceId: c.workspace }),
          )
        : Promise.resolve(undefined);
      controls.set(key, answer);
    }
    return answer;
  };
  // A served form stops the property at its case: the other forms of that operation and
  // workspace are asked too (once), so the report names every spelling served, not one.
  const servedAlike = new Map<string, Promise<string[]>>();
  const otherFormsServed = (c: FormCase): Promise<string[]> => {
    const key = `${c.op.operationId} ${c.workspace}`;
    let served = servedAlike.get(key);
    if (!served) {
      served = (async () => {
        const values: string[] = [];
        for (const other of cases)
          if (other.op === c.op && other.workspace === c.workspace) {
            const answer = await session.http.send(
              operationRequest(c.op, session, 'probe', { token: c.token, workspaceId: other.form.value }),
            );
            if (is2xx(answer.response.status)) values.push(JSON.stringify(other.form.value));
          }
        return values;
      })();
      servedAlike.set(key, served);
    }
    return served;
  };
  await t.check(
    fc.constantFrom(...cases),
    async (c): Promise<CaseVerdict> => {
      // The control (once per operation and workspace) goes out beside the probe; the run's
      // in-flight bound still holds, so at concurrency 1 they go one after the other.
      const [exchange, real] = await Promise.all([
        session.http.send(
          operationRequest(c.op, session, 'probe', { token: c.token, workspaceId: c.form.value }),
        ),
        control(c),
      ]);
      if (is2xx(exchange.response.status)) {
        const served = await otherFormsServed(c);
        throw new RuleViolation(
          `${c.op.operationId} served workspace_id ${JSON.stringify(c.form.value)} (${c.form.kind} of workspace ${c.workspace}) with ${exchange.response.status}; it ${ought} be rejected, not read as ${c.workspace}. Of the ${ought === 'must' ? 'invalid' : 'non-canonical'} forms of ${c.workspace}, it served ${served.length > 0 ? served.join(', ') : 'this one'}`,
          exchange,
        );
      }
      expectStatus(
        exchange,
        is4xx,
        `a 4xx for workspace_id ${JSON.stringify(c.form.value)} (${c.form.kind})`,
      );
      if (!real) return notApplicable(`${c.op.operationId}: no request with the real ID changes nothing`);
      if (!is2xx(real.response.status))
        return notApplicable(
          `${c.op.operationId} answered ${real.response.status} with the real workspace_id ${c.workspace} too`,
        );
      return observed;
    },
    { examples: cases, independent: true },
  );
}

const checks: Check[] = [];

checks.push(
  defineCheck(
    'WS-4',
    'rejects negative and non-numeric forms of a real workspace_id that the real one is served with',
    async (t) => {
      await checkForms(t, t.session, invalidFormsOf, 'must');
    },
  ),
);

checks.push(
  defineCheck(
    'WS-5',
    'does not serve non-canonical spellings (+, spaces, a newline, _, decimals, exponent, hex, other digits) as the workspace',
    async (t) => {
      await checkForms(t, t.session, nonCanonicalFormsOf, 'should');
    },
  ),
);

/** The workspaceForms family's checks, in the order they run. */
export const workspaceFormsChecks: readonly Check[] = checks;
