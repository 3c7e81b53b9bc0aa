import { describe, expect, it } from 'vitest';
import { findCheck } from '../src/checks/registry.js';
import { NAT_RULE_FIELDS } from '../src/generate/bodies.js';
import { runCheck } from '../src/run/checkRunner.js';
import { environmentWith, fakeTransport } from './fakeTarget.js';

const readOnlyIds = findCheck(
  'REC-1 a NAT rule update whose body names other ids, another workspace or organization answers and keeps the rule and workspace its request named',
);
const never = new AbortController().signal;
const PATH = '/networking/vpcs/vpc-1/nat-gateways/natgw-1/port-forwarding-rules/pfr-1';
/** The update body table's fields: the only ones a correct target writes. */
const DOCUMENTED: ReadonlySet<string> = new Set(NAT_RULE_FIELDS);

/**
 * One NAT rule of workspace 1042, updated by PATCH. `unlisted`: what the update does with body
 * members the body table does not list: ignore them, refuse the request, or write them onto the
 * row (mass assignment, which can rename the rule or move it to another workspace).
 */
function natRuleTarget(unlisted: 'ignore' | 'refuse' | 'write') {
  let rule: Record<string, unknown> = {
    port_forward_rule_id: 'pfr-1',
    vpc_id: 'vpc-1',
    nat_gateway_id: 'natgw-1',
    workspace_id: '1042',
    organization_id: 'org-1',
    name: 'ssh',
    protocol: 'tcp',
    external_port: 2222,
    internal_ip: '10.0.0.5',
    internal_port: 22,
    note: '',
    enabled: true,
    status: 'available',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };
  let at = `/networking/vpcs/${rule.vpc_id}/nat-gateways/${rule.nat_gateway_id}/port-forwarding-rules/${rule.port_forward_rule_id}`;
  return fakeTransport((request) => {
    const workspace = request.query.find(([name]) => name === 'workspace_id')?.[1];
    if (request.method !== 'PATCH' || request.path !== at || workspace !== rule.workspace_id)
      return { status: 404, body: { detail: 'no such rule here' } };
    const body = JSON.parse(request.body ?? '{}') as Record<string, unknown>;
    const extra = Object.keys(body).filter((field) => !DOCUMENTED.has(field));
    if (extra.length > 0 && unlisted === 'refuse')
      return { status: 400, body: { detail: `unknown ${extra[0]}` } };
    const written =
      unlisted === 'write'
        ? body
        : Object.fromEntries(Object.entries(body).filter(([f]) => DOCUMENTED.has(f)));
    rule = { ...rule, ...written };
    at = `/networking/vpcs/${rule.vpc_id}/nat-gateways/${rule.nat_gateway_id}/port-forwarding-rules/${rule.port_forward_rule_id}`;
    return { status: 200, body: rule };
  });
}

const profile = {
  mutations: true,
  resources: { natRules: [{ vpcId: 'vpc-1', natGatewayId: 'natgw-1', ruleId: 'pfr-1' }] },
} as const;

describe('REC-1: a NAT rule update naming read-only ids keeps the rule its request named', () => {
  const check = readOnlyIds ?? expect.fail('the REC-1 read-only ids check is not in the registry');

  it('passes a target that ignores the members, and one that refuses them', async () => {
    for (const unlisted of ['ignore', 'refuse'] as const) {
      const { result } = await runCheck(check, environmentWith(natRuleTarget(unlisted), profile), never);
      expect(result.verdict, unlisted).toEqual({ state: 'passed' });
    }
  });

  it('fails a target that writes the body onto the rule, naming the member it wrote', async () => {
    const { result } = await runCheck(check, environmentWith(natRuleTarget('write'), profile), never);
    expect(result.verdict.state).toBe('failed');
    if (result.verdict.state !== 'failed') return;
    expect(result.verdict.errors.join('\n')).toMatch(
      /the NAT rule update with port_forward_rule_id "pfr-1-conformance-other" in its body asked for "pfr-1" and answered a record whose port_forward_rule_id is "pfr-1-conformance-other"/,
    );
  });

  it(`reads the rule at ${PATH} through workspace 1042 only`, async () => {
    const http = natRuleTarget('ignore');
    await runCheck(check, environmentWith(http, profile), never);
    expect(
      new Set(
        http.sent.map((request) => `${request.path}?${request.query.map((q) => q.join('=')).join('&')}`),
      ),
    ).toEqual(new Set([`${PATH}?workspace_id=1042`]));
  });
});
