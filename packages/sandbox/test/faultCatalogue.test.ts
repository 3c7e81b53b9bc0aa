import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxProfile } from '../src/defaultSandboxProfile.js';
import { faultCatalogue } from '../src/faultCatalogue.js';
import { variantCatalogue } from '../src/variantCatalogue.js';
import { faultProbes } from './faultProbes.js';
import { type Harness, startHarness } from './sandboxHarness.js';

/**
 * The form of a rule ID. Whether each fault's rule exists in the rule catalogue is checked by
 * the conformance package (its catalogue cross-check): the sandbox must not depend on it.
 */
const RULE_ID = /^[A-Z]+-\d+$/;
/** A mechanism is a short kebab-case name of the bug's cause. */
const MECHANISM = /^[a-z]+(-[a-z]+)*$/;

const profile = defaultSandboxProfile();
let correct: Harness;
beforeAll(async () => {
  correct = await startHarness({ profile });
});
afterAll(() => correct.close());

describe('the fault catalogue', () => {
  it('has at least 25 faults with unique ids, each naming one rule ID, a mechanism and a description', () => {
    expect(faultCatalogue.length).toBeGreaterThanOrEqual(25);
    expect(new Set(faultCatalogue.map((fault) => fault.id)).size).toBe(faultCatalogue.length);
    for (const fault of faultCatalogue) {
      expect(fault.rule, `${fault.id} names ${fault.rule}`).toMatch(RULE_ID);
      expect(fault.mechanism, `${fault.id} has mechanism ${fault.mechanism}`).toMatch(MECHANISM);
      expect(fault.description.length).toBeGreaterThan(10);
    }
  });

  it('has faults of at least 20 distinct mechanisms: bugs of many causes, not one cause per rule', () => {
    expect(new Set(faultCatalogue.map((fault) => fault.mechanism)).size).toBeGreaterThanOrEqual(20);
  });

  it("is the README's fault and variant tables, row for row, in catalogue order", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const cell = (text: string) => text.replaceAll('|', '\\|');
    const rowsAfter = (header: string) => {
      const lines = readme.split('\n');
      const start = lines.indexOf(header) + 2;
      const end = lines.findIndex((line, index) => index >= start && !line.startsWith('| '));
      return lines.slice(start, end);
    };
    expect(rowsAfter('| Fault | Rule | Mechanism | What breaks |')).toEqual(
      faultCatalogue.map((f) => `| \`${f.id}\` | ${f.rule} | ${f.mechanism} | ${cell(f.description)} |`),
    );
    expect(rowsAfter('| Variant | Gap | Choice |')).toEqual(
      variantCatalogue.map((v) => `| \`${v.id}\` | ${v.gap} | ${cell(v.description)} |`),
    );
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
