import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxProfile } from '../src/defaultSandboxProfile.js';
import { faultCatalogue } from '../src/faultCatalogue.js';
import { faultProbes } from './faultProbes.js';
import { type Harness, startHarness } from './sandboxHarness.js';

/** Rule IDs of docs/briefing rule-ids (the conformance package owns the full catalogue). */
const KNOWN_RULES = new Set([
  'WS-1',
  'WS-2',
  'WS-3',
  'AUTH-1',
  'AUTH-2',
  'AUTH-3',
  'ENV-1',
  'ENV-2',
  'SCOPE-1',
  'SCOPE-2',
  'POLICY-1',
  'POLICY-2',
  'ASYNC-1',
  'ASYNC-2',
  'ASYNC-3',
  'IDEM-1',
  'IDEM-2',
  'BILL-1',
  'BILL-2',
  'BILL-3',
  'BILL-4',
  'BILL-5',
  'BILL-6',
  'BILL-7',
  'ERR-1',
  'ERR-2',
  'ERR-3',
  'RESP-1',
  'RESP-2',
  'PATCH-1',
  'BACKUP-1',
  'ENUM-1',
]);

const profile = defaultSandboxProfile();
let correct: Harness;
beforeAll(async () => {
  correct = await startHarness({ profile });
});
afterAll(() => correct.close());

describe('the fault catalogue', () => {
  it('has at least 25 faults with unique ids, each naming one known rule and a description', () => {
    expect(faultCatalogue.length).toBeGreaterThanOrEqual(25);
    expect(new Set(faultCatalogue.map((fault) => fault.id)).size).toBe(faultCatalogue.length);
    for (const fault of faultCatalogue) {
      expect(KNOWN_RULES.has(fault.rule), `${fault.id} names ${fault.rule}`).toBe(true);
      expect(fault.description.length).toBeGreaterThan(10);
    }
  });

  it('has a probe for every fault and no probe for a fault that does not exist', () => {
    expect(Object.keys(faultProbes).sort()).toEqual(faultCatalogue.map((fault) => fault.id).sort());
  });
});

describe.each(faultCatalogue.map((fault) => [fault.id, fault.rule] as const))('fault %s (%s)', (faultId) => {
  const probe = faultProbes[faultId];

  it('is absent from the correct sandbox', async () => {
    correct.sandbox.reset();
    const observation = await probe.observe(correct);
    expect(probe.correct(observation), JSON.stringify(observation)).toBe(true);
    expect(probe.faulty(observation), JSON.stringify(observation)).toBe(false);
  });

  it('shows in the sandbox started with it', async () => {
    const faulty = await startHarness({ profile, fault: faultId });
    try {
      const observation = await probe.observe(faulty);
      expect(probe.faulty(observation), JSON.stringify(observation)).toBe(true);
      expect(probe.correct(observation), JSON.stringify(observation)).toBe(false);
    } finally {
      await faulty.close();
    }
  });
});
