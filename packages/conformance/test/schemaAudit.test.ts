import { describe, expect, it } from 'vitest';
import { formatFailure } from '../src/checks/failureReport.js';
import { createSchemaAudit, schemaAuditVerdict } from '../src/checks/schemaAudit.js';
import { createOperationRoutes, routeExchanges } from '../src/spec/operationRoutes.js';
import { createResponseValidator } from '../src/spec/responseValidator.js';
import type { Exchange } from '../src/transport/exchange.js';

const validator = createResponseValidator();
const routes = createOperationRoutes(validator.operations);
/** The audit as the suite feeds it: each exchange routed to its operation first. */
const audit = () => {
  const recorder = createSchemaAudit(validator);
  return { record: routeExchanges(routes, [recorder]), drain: () => recorder.drain() };
};

const policy = {
  organization_id: 'org-1',
  workspace_id: '1042',
  policy_id: 'bp-1',
  vm_id: 'vm-gpu-1',
  enabled: true,
  schedule: { frequency: 'daily', timezone: 'UTC', hour: 20, minute: 0, window_minutes: 30 },
  retention_days: 7,
  full_backup_interval_days: 7,
  incremental_enabled: true,
  storage_backend: 'object-storage',
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T10:00:00Z',
};

function exchange(
  method: string,
  path: string,
  status: number,
  body: unknown,
  contentType = 'application/json',
): Exchange {
  const bodyText = body === undefined ? '' : JSON.stringify(body);
  return {
    request: { method, path, query: [['workspace_id', '1042']], headers: {} },
    url: `http://target.test/v1${path}?workspace_id=1042`,
    response: {
      status,
      headers: { 'content-type': contentType },
      bodyText,
      json: body,
      isJson: body !== undefined,
      durationMs: 1,
    },
  };
}

const enablePath = '/compute/gpu-vms/vm-gpu-1/backups/enable';

describe('schema audit (RESP-1 on every answer of the run)', () => {
  it('finds a success answer lacking a required field, whichever check asked for it', () => {
    const recorder = audit();
    const { storage_backend: _dropped, ...incomplete } = policy;
    recorder.record(exchange('POST', enablePath, 200, incomplete));
    const delta = recorder.drain();
    expect(delta.validatedSuccesses).toBe(0);
    expect(delta.violations.map((v) => [v.operationId, v.responseKey, v.problem])).toEqual([
      [
        'enableGpuVmBackups',
        '200',
        "body does not match the spec's enableGpuVmBackups 200 schema: (body) must have required property 'storage_backend'",
      ],
    ]);
  });

  it('counts valid success answers as evidence and holds declared errors to the error shape', () => {
    const recorder = audit();
    recorder.record(exchange('POST', enablePath, 200, policy));
    recorder.record(exchange('POST', enablePath, 409, { detail: 'backups already enabled' }));
    recorder.record(exchange('POST', enablePath, 404, 'not found', 'text/plain'));
    const delta = recorder.drain();
    expect(delta.validatedSuccesses).toBe(1);
    expect(delta.violations.map((v) => [v.exchange.response.status, v.problem])).toEqual([
      [404, 'Content-Type is "text/plain"; all responses are JSON'],
    ]);
    // Drained: the next check starts with nothing.
    expect(recorder.drain()).toEqual({ validatedSuccesses: 0, violations: [] });
  });

  it('fails a JSON answer declared compressed (Content-Encoding gzip) when identity was asked: a client would find no JSON', () => {
    const recorder = audit();
    const gzipped = exchange('POST', enablePath, 200, policy);
    recorder.record({
      ...gzipped,
      response: { ...gzipped.response, headers: { ...gzipped.response.headers, 'content-encoding': 'gzip' } },
    });
    const identity = exchange('POST', enablePath, 200, policy);
    recorder.record({
      ...identity,
      response: {
        ...identity.response,
        headers: { ...identity.response.headers, 'content-encoding': 'identity' },
      },
    });
    const delta = recorder.drain();
    expect(delta.validatedSuccesses).toBe(1);
    expect(delta.violations.map((v) => v.problem)).toEqual([
      'Content-Encoding is "gzip" although the request accepted identity only: a client decodes the body and finds no JSON there',
    ]);
  });

  it('fails an answer that gives a member twice with different values; the same value twice reads alike and passes', () => {
    const recorder = audit();
    // The policy's text with `"enabled":true` written as `replacement`, parsed as JSON.parse reads it.
    const policyWith = (replacement: string): Exchange => {
      const answer = exchange('POST', enablePath, 200, policy);
      const text = JSON.stringify(policy).replace('"enabled":true', replacement);
      return { ...answer, response: { ...answer.response, bodyText: text, json: JSON.parse(text) } };
    };
    recorder.record(policyWith('"enabled":false,"enabled":true'));
    recorder.record(policyWith('"enabled":true,"enabled":true'));
    const delta = recorder.drain();
    expect(delta.validatedSuccesses).toBe(1);
    expect(delta.violations.map((v) => v.problem)).toEqual([
      'the answer gives a member twice with different values, which JSON parsers read differently: $.enabled is given twice, as false and true',
    ]);
  });

  it('fails a documented integer written with a fraction or an exponent, but not a value beyond any integer type the server echoes', () => {
    const recorder = audit();
    const rulePath = '/networking/vpcs/vpc-1/nat-gateways/natgw-1/port-forwarding-rules/pfr-1';
    const rule = {
      port_forward_rule_id: 'pfr-1',
      vpc_id: 'vpc-1',
      nat_gateway_id: 'natgw-1',
      organization_id: 'org-1',
      workspace_id: '1042',
      name: 'ssh',
      protocol: 'tcp',
      external_port: 2222,
      internal_ip: '10.0.1.15',
      internal_port: 22,
      enabled: true,
      status: 'available',
      created_at: '2026-11-22T10:00:00Z',
      updated_at: '2026-11-22T10:00:00Z',
    };
    // The rule's text with its ports spelled as given, parsed as JSON.parse reads it.
    const ruleWith = (externalPort: string, internalPort = '22'): Exchange => {
      const answer = exchange('PATCH', rulePath, 200, rule);
      const text = JSON.stringify(rule)
        .replace('"external_port":2222', `"external_port":${externalPort}`)
        .replace('"internal_port":22', `"internal_port":${internalPort}`);
      return { ...answer, response: { ...answer.response, bodyText: text, json: JSON.parse(text) } };
    };
    recorder.record(ruleWith('1e+300'));
    recorder.record(ruleWith('2.222e3'));
    recorder.record(ruleWith('1e+300', '22.0'));
    const delta = recorder.drain();
    expect(delta.validatedSuccesses).toBe(1);
    expect(delta.violations.map((v) => v.problem.split(':')[0])).toEqual([
      'external_port is written 2.222e3',
      'internal_port is written 22.0',
    ]);
  });

  it('fails an answer the transport found unreadable one way only (not UTF-8, Content-Type twice)', () => {
    const recorder = audit();
    const answer = exchange('POST', enablePath, 200, policy);
    const defects = ['the body is not valid UTF-8 (JSON between systems must be UTF-8)'];
    recorder.record({ ...answer, response: { ...answer.response, wireDefects: defects } });
    expect(recorder.drain().violations.map((v) => v.problem)).toEqual(defects);
  });

  it('leaves alone what the spec does not declare: unknown paths, and statuses only `default` covers', () => {
    const recorder = audit();
    recorder.record(exchange('GET', '/no/such/path', 200, 'x', 'text/plain'));
    recorder.record(exchange('POST', '/compute/cloud-vms', 502, '<html>bad gateway</html>', 'text/html'));
    expect(recorder.drain()).toEqual({ validatedSuccesses: 0, violations: [] });
  });

  it('keeps a few distinct violations per check, not one per request', () => {
    const recorder = audit();
    for (let i = 0; i < 50; i++) recorder.record(exchange('POST', enablePath, 200, { enabled: 'yes' }));
    expect(recorder.drain().violations).toHaveLength(1);
  });

  it("turns the checks' audits into one RESP-1 outcome: failed on any violation, inconclusive without evidence", () => {
    const violation = {
      rule: 'RESP-1',
      test: 'audit',
      seed: 1,
      path: undefined,
      counterexample: undefined,
      message: 'enableGpuVmBackups answered 200: body does not match',
    };
    expect(schemaAuditVerdict([{ validatedSuccesses: 3, violations: [] }]).state).toBe('passed');
    expect(schemaAuditVerdict([{ validatedSuccesses: 0, violations: [] }]).state).toBe('inconclusive');
    const failed = schemaAuditVerdict([
      { validatedSuccesses: 9, violations: [] },
      {
        validatedSuccesses: 0,
        violations: [{ report: violation, alike: violation.message, during: 'a check' }],
      },
    ]);
    expect(failed.state).toBe('failed');
    if (failed.state !== 'failed') return;
    expect(failed.failures.map((f) => f.rule)).toEqual(['RESP-1']);
    expect(failed.errors.join('\n')).toContain('enableGpuVmBackups answered 200');
    expect(failed.errors).toEqual([formatFailure(violation)]);
  });

  it('prints one violation per operation, status and problem, saying how many answers showed it; the report keeps every one', () => {
    const seen = (check: string, problem = 'error object without detail') => {
      const alike = `checkResourceEligibility answered 401: ${problem}`;
      return {
        alike,
        during: check,
        report: {
          rule: 'RESP-1',
          test: 'every answer of the run',
          seed: 1,
          path: undefined,
          counterexample: undefined,
          message: `${alike} (seen during "${check}"; reproduce with --rules X --seed 1)`,
        },
      };
    };
    const failed = schemaAuditVerdict([
      { validatedSuccesses: 1, violations: [seen('A-1 one'), seen('A-1 one')] },
      { validatedSuccesses: 1, violations: [seen('B-2 two'), seen('B-2 two', 'body is not JSON')] },
    ]);
    if (failed.state !== 'failed') throw new Error(failed.state);
    expect(failed.failures).toHaveLength(4);
    expect(failed.errors).toHaveLength(2);
    expect(failed.errors[0]).toMatch(
      /error object without detail \(seen during "A-1 one".*\); 2 more answers showed the same, in 2 checks in all/,
    );
    expect(failed.errors[1]).toMatch(/body is not JSON/);
    expect(failed.errors[1]).not.toMatch(/more answer/);
  });
});
