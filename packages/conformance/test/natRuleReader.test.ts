import { describe, expect, it } from 'vitest';
import { expectNatRuleUnchanged, type NatRuleFields } from '../src/checks/natRuleReader.js';
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
