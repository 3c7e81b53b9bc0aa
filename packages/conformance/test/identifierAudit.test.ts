import { describe, expect, it } from 'vitest';
import {
  acceptanceAuditVerdict,
  createIdentifierAudit,
  identifierAuditVerdict,
} from '../src/checks/identifierAudit.js';
import { createSecretRedactor } from '../src/secrets/secretRedactor.js';
import type { Session } from '../src/session/session.js';
import { createOperationRoutes, routeExchanges } from '../src/spec/operationRoutes.js';
import { createResponseValidator } from '../src/spec/responseValidator.js';
import type { Exchange } from '../src/transport/exchange.js';
import { type AsyncStoreChoices, CORRECT_CHOICES, runOnAsyncStore } from './asyncStoreServer.js';

// ASYNC-4: "an operation record that can be polled" — so an operation_id names one operation,
// and a create's vm_id one VM, across everything the run saw accepted.

const routes = createOperationRoutes(createResponseValidator().operations);
const TOKEN = 'svc_dev_key_identifier_audit_secret';

function audited(exchanges: readonly Exchange[]) {
  const audit = createIdentifierAudit();
  const record = routeExchanges(routes, [audit]);
  for (const exchange of exchanges) record(exchange);
  return audit.findings();
}

function session(overrides: { mutations?: boolean; targetKind?: Session['targetKind'] } = {}): Session {
  return {
    targetKind: overrides.targetKind ?? 'sandbox',
    profile: { mutations: overrides.mutations ?? true },
    redactor: createSecretRedactor([TOKEN]),
    seed: 7,
  } as unknown as Session;
}

function accepted(
  method: 'POST' | 'DELETE',
  path: string,
  ids: { operation_id: string; vm_id: string },
  options: { key?: string; workspace?: string } = {},
): Exchange {
  const workspace = options.workspace ?? '1042';
  const body = { ...ids, status: 'accepted', submitted_at: '2026-11-26T10:00:00Z' };
  return {
    request: {
      method,
      path,
      query: [['workspace_id', workspace]],
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(options.key !== undefined ? { 'x-idempotency-key': options.key } : {}),
      },
    },
    url: `http://target.test/v1${path}?workspace_id=${workspace}`,
    response: {
      status: 202,
      headers: { 'content-type': 'application/json' },
      bodyText: JSON.stringify(body),
      json: body,
      isJson: true,
      durationMs: 1,
    },
  };
}

const create = (operation_id: string, vm_id: string, key: string, workspace?: string) =>
  accepted(
    'POST',
    '/compute/cloud-vms',
    { operation_id, vm_id },
    { key, ...(workspace ? { workspace } : {}) },
  );
const remove = (operation_id: string, vm: string, key: string) =>
  accepted('DELETE', `/compute/gpu-vms/${vm}`, { operation_id, vm_id: vm }, { key });

describe('identifier audit (ASYNC-4 across the run)', () => {
  it('passes distinct operations, and counts a create retried with its key as one operation', () => {
    const findings = audited([
      create('op-1', 'vm-1', 'k1'),
      create('op-1', 'vm-1', 'k1'),
      create('op-2', 'vm-2', 'k2'),
      remove('op-3', 'vm-gpu-1', 'k3'),
    ]);
    expect(findings).toEqual({ operations: 3, collisions: [], stale: [] });
    expect(identifierAuditVerdict(findings, session())).toEqual({ state: 'passed' });
  });

  it('fails one operation_id answered in two workspaces for two keys (a sequence per workspace), naming both', () => {
    const findings = audited([create('op-1', 'vm-1', 'k1', '1042'), create('op-1', 'vm-2', 'k2', '1043')]);
    const verdict = identifierAuditVerdict(findings, session());
    expect(verdict.state).toBe('failed');
    const message = verdict.state === 'failed' ? verdict.errors.join('\n') : '';
    expect(message).toContain('operation_id "op-1" was answered for two different operations');
    expect(message).toContain('createCloudVm in workspace 1042 with X-Idempotency-Key k1');
    expect(message).toContain('createCloudVm in workspace 1043 with X-Idempotency-Key k2');
    expect(message).not.toContain(TOKEN);
  });

  it('fails a create and a delete sharing an operation_id (a sequence per kind of job)', () => {
    const findings = audited([create('op-1', 'vm-1', 'k1'), remove('op-1', 'vm-gpu-1', 'k2')]);
    expect(findings.collisions.map((c) => [c.field, c.value])).toEqual([['operation_id', 'op-1']]);
  });

  it('fails two creates with their own keys answered with one vm_id', () => {
    const findings = audited([create('op-1', 'vm-1', 'k1'), create('op-2', 'vm-1', 'k2')]);
    expect(findings.collisions.map((c) => [c.field, c.value])).toEqual([['vm_id', 'vm-1']]);
  });

  it("leaves a second delete of one VM answered with the first's record to STATE-1", () => {
    const findings = audited([remove('op-1', 'vm-gpu-1', 'k1'), remove('op-1', 'vm-gpu-1', 'k2')]);
    expect(findings.collisions).toEqual([]);
  });

  it('ignores refusals and answers without an acceptance record', () => {
    const refused = {
      ...create('op-1', 'vm-1', 'k2'),
      response: { ...create('op-1', 'vm-1', 'k2').response, status: 409 },
    };
    const findings = audited([create('op-1', 'vm-1', 'k1'), refused]);
    expect(findings).toEqual({ operations: 1, collisions: [], stale: [] });
  });

  it('is inconclusive with one operation, skipped without mutations or on Prism', () => {
    const one = audited([create('op-1', 'vm-1', 'k1')]);
    expect(identifierAuditVerdict(one, session()).state).toBe('inconclusive');
    const none = audited([]);
    expect(identifierAuditVerdict(none, session({ mutations: false })).state).toBe('skipped');
    expect(identifierAuditVerdict(none, session({ targetKind: 'prism' })).state).toBe('skipped');
    // A read-only profile whose target still accepted operations is judged on them.
    const collided = audited([create('op-1', 'vm-1', 'k1'), create('op-1', 'vm-2', 'k2')]);
    expect(identifierAuditVerdict(collided, session({ mutations: false })).state).toBe('failed');
  });

  it('keeps at most three collisions', () => {
    const findings = audited(Array.from({ length: 6 }, (_, i) => create('op-1', `vm-${i}`, `k${i}`)));
    expect(findings.collisions).toHaveLength(3);
  });
});

/** An acceptance record as a flagged workspace or a retry might answer it. */
const withRecord = (exchange: Exchange, record: Record<string, unknown>): Exchange => {
  const json = { ...(exchange.response.json as Record<string, unknown>), ...record };
  return { ...exchange, response: { ...exchange.response, json, bodyText: JSON.stringify(json) } };
};

describe('acceptance audit (ASYNC-2 across the run)', () => {
  it('fails an operation first answered "pending" in another workspace, naming it and the workspace', () => {
    const findings = audited([
      create('op-1', 'vm-1', 'k1'),
      withRecord(create('op-2', 'vm-2', 'k2', '1043'), { status: 'pending' }),
    ]);
    const verdict = acceptanceAuditVerdict(findings, session());
    expect(verdict.state).toBe('failed');
    expect(verdict.state === 'failed' && verdict.failures[0]?.message).toMatch(
      /createCloudVm in workspace 1043 with X-Idempotency-Key k2 was first answered with status "pending", not "accepted"/,
    );
  });

  it('fails a first record whose submitted_at is no UTC timestamp', () => {
    const findings = audited([
      withRecord(create('op-1', 'vm-1', 'k1'), { submitted_at: '2026-11-26 10:00:00' }),
    ]);
    expect(acceptanceAuditVerdict(findings, session()).state).toBe('failed');
  });

  it('judges first answers only: a retry may report the operation as it stands now', () => {
    const findings = audited([
      create('op-1', 'vm-1', 'k1'),
      withRecord(create('op-1', 'vm-1', 'k1'), { status: 'running' }),
      remove('op-2', 'gvm-1', 'k2'),
      withRecord(remove('op-2', 'gvm-1', 'k3'), { status: 'running' }),
    ]);
    expect(findings.stale).toEqual([]);
    expect(acceptanceAuditVerdict(findings, session())).toEqual({ state: 'passed' });
  });

  it('is inconclusive with no operation, skipped without mutations', () => {
    expect(acceptanceAuditVerdict(audited([]), session()).state).toBe('inconclusive');
    expect(acceptanceAuditVerdict(audited([]), session({ mutations: false })).state).toBe('skipped');
  });
});

describe('ASYNC-4 against an independent server on an async store', () => {
  async function verdicts(choices: AsyncStoreChoices, rules: string) {
    const outcome = await runOnAsyncStore(choices, { rules, depth: 5, seed: 7 });
    return {
      states: outcome.tests.filter((t) => t.rule === 'ASYNC-4').map((t) => t.state),
      messages: outcome.tests.flatMap((t) => t.failures.map((f) => f.message)).join('\n'),
      verdict: outcome.verdict,
    };
  }

  it("passes one naming operations by UUID, with the CONC rules' creates in the same run", async () => {
    const result = await verdicts(CORRECT_CHOICES, 'ASYNC-4,CONC-2');
    expect(result.messages).toBe('');
    // Two workspaces' creates, the same body twice, and the run-wide audit.
    expect(result.states).toEqual(['passed', 'passed', 'passed']);
  });

  it('fails one numbering operations per workspace, in its own check and in the run-wide audit', async () => {
    const result = await verdicts({ ...CORRECT_CHOICES, operationIds: 'per-workspace' }, 'ASYNC-4');
    // The same body twice stays in one workspace, where its numbers do not repeat.
    expect(result.states).toEqual(['failed', 'passed', 'failed']);
    expect(result.messages).toMatch(/operation_id "op-1" was answered for two different operations/);
    expect(result.verdict).toBe('failed');
  });
});
