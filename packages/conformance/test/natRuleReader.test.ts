import { describe, expect, it } from 'vitest';
import { expectNatRuleUnchanged, type NatRuleFields, readNatRule } from '../src/checks/natRuleReader.js';
import { RuleViolation } from '../src/checks/ruleViolation.js';
import type { Exchange } from '../src/transport/exchange.js';
import { environmentWith, fakeTransport } from './fakeTarget.js';

const before: NatRuleFields = {
  name: 'ssh-bastion',
  protocol: 'tcp',
  external_port: 2201,
  internal_ip: '10.0.0.5',
  internal_port: 22,
  note: '',
  enabled: true,
};

/** A session whose NAT rule reads as `now` (an empty update is the document's only read). */
function sessionReading(now: NatRuleFields) {
  const http = fakeTransport(() => ({ status: 200, body: now }));
  return environmentWith(http, {
    resources: { natRules: [{ vpcId: 'vpc-1', natGatewayId: 'natgw-1', ruleId: 'pfr-1' }] },
  }).session;
}

const refused = (body: string): Exchange => ({
  request: {
    method: 'PATCH',
    path: '/networking/vpcs/vpc-1/nat-gateways/natgw-1/port-forwarding-rules/pfr-1',
    query: [['workspace_id', '2001']],
    headers: {},
    body,
  },
  url: 'http://fake.invalid/v1/…',
  response: { status: 404, headers: {}, bodyText: '', json: undefined, isJson: false, durationMs: 1 },
});

describe('expectNatRuleUnchanged: a refused update changed nothing it could have changed', () => {
  it('passes a rule that reads as before', async () => {
    await expect(
      expectNatRuleUnchanged(sessionReading(before), before, refused('{"note":"x"}'), 'the rule'),
    ).resolves.toBeUndefined();
  });

  it('fails a change in a field the refused request sent', async () => {
    const session = sessionReading({ ...before, note: 'x' });
    await expect(
      expectNatRuleUnchanged(session, before, refused('{"note":"x"}'), 'the rule'),
    ).rejects.toThrow(/^the update was refused \(404\) but the rule changed: note "" → "x"$/);
  });

  it('blames no one for a change only in fields the request did not send (a stale read, another writer): no verdict', async () => {
    const session = sessionReading({ ...before, name: 'conformance-overlap-name' });
    const verdict = await expectNatRuleUnchanged(session, before, refused('{"note":"x"}'), 'the rule');
    expect(verdict).toEqual({
      observed: false,
      why: 'the rule reads differently after the refused update, but only in fields it did not send (name "ssh-bastion" → "conformance-overlap-name"): a stale read or another writer, not this request',
    });
  });

  it('fails any change after a body that is no JSON object, which could have touched any field', async () => {
    const session = sessionReading({ ...before, name: 'other' });
    await expect(expectNatRuleUnchanged(session, before, refused('[1]'), 'the rule')).rejects.toThrow(
      RuleViolation,
    );
    await expect(expectNatRuleUnchanged(session, before, refused('{"note":'), 'the rule')).rejects.toThrow(
      RuleViolation,
    );
  });
});

/**
 * A target that refuses an update naming no field (A-NAT-UPDATE-EMPTY-BODY) and applies any
 * other, answering the rule as it then is; `sent` lists the bodies it received.
 */
function strictTarget(rule: Record<string, unknown>, name?: string) {
  const http = fakeTransport((request) => {
    const update = JSON.parse(request.body ?? '{}') as Record<string, unknown>;
    if (Object.keys(update).length === 0) return { status: 400, body: { detail: 'name a field' } };
    Object.assign(rule, update);
    return { status: 200, body: { ...rule, port_forward_rule_id: 'pfr-1' } };
  });
  const session = environmentWith(http, {
    mutations: true,
    resources: {
      natRules: [
        { vpcId: 'vpc-1', natGatewayId: 'natgw-1', ruleId: 'pfr-1', ...(name !== undefined ? { name } : {}) },
      ],
    },
  }).session;
  return { session, bodies: () => http.sent.map((request) => request.body) };
}

describe('readNatRule on a target that refuses an empty update', () => {
  it("sends the profile's name unchanged, then a field of the rule as it was last answered, never one that is changing", async () => {
    const rule = { ...before };
    const { session, bodies } = strictTarget(rule, 'ssh-bastion');
    await expect(readNatRule(session)).resolves.toEqual(before);
    // The rule as last answered is known now: a read while the name is changing sends the note.
    await expect(readNatRule(session, new Set(['name']))).resolves.toEqual(before);
    expect(bodies()).toEqual(['{}', '{"name":"ssh-bastion"}', '{}', '{"note":""}']);
    expect(rule).toEqual(before);
  });

  it('reads nothing, and sends nothing but the empty update, without a name in the profile', async () => {
    const { session, bodies } = strictTarget({ ...before });
    await expect(readNatRule(session)).resolves.toBeUndefined();
    expect(bodies()).toEqual(['{}']);
  });

  it('leaves a refused update unjudged, never passed, when the rule cannot be read back', async () => {
    const { session } = strictTarget({ ...before });
    const verdict = await expectNatRuleUnchanged(session, before, refused('{"note":"x"}'), 'the rule');
    expect(verdict).toEqual({
      observed: false,
      why: 'the rule could not be read back after the refused update, so whether it changed is not known',
    });
  });

  it('does not send a field the refused request sent: a change it made stays visible', async () => {
    // The refused request's note was written anyway; a read that sent the note back would hide it.
    const rule = { ...before };
    const { session, bodies } = strictTarget(rule, 'ssh-bastion');
    await readNatRule(session);
    rule.note = 'x';
    await expect(
      expectNatRuleUnchanged(session, before, refused('{"note":"x","name":"y"}'), 'the rule'),
    ).rejects.toThrow(/note "" → "x"/);
    expect(bodies().at(-1)).toBe('{"enabled":true}');
  });
});
