import { readFileSync } from 'node:fs';
import { faultCatalogue } from '@cloud-api/sandbox';
import { apiDocumentPath } from '@cloud-api/spec';
import { describe, expect, it } from 'vitest';
import { ruleMatrixPath, ruleThreatsPath } from '../src/generateArtifacts.js';
import { isThreatMechanism, rules, selectRules, threatMechanisms } from '../src/ruleCatalogue/index.js';
import { declaredChecks } from '../src/traceability/declaredChecks.js';
import { renderRuleMatrix } from '../src/traceability/ruleMatrix.js';
import { renderRuleThreats } from '../src/traceability/ruleThreats.js';

const INITIAL_IDS = [
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
];

describe('rule catalogue', () => {
  const document = readFileSync(apiDocumentPath, 'utf8');
  const checks = declaredChecks();

  it('keeps every initial rule ID, each once', () => {
    const ids = rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of INITIAL_IDS) expect(ids).toContain(id);
  });

  it('quotes the document exactly', () => {
    const misquoted = rules.flatMap((rule) =>
      rule.quotes.filter((quote) => !document.includes(quote)).map((quote) => `${rule.id}: ${quote}`),
    );
    expect(misquoted).toEqual([]);
  });

  it('has at least one check for every rule', () => {
    const untested = rules
      .filter((rule) => !checks.some((check) => check.rule === rule.id))
      .map((rule) => rule.id);
    expect(untested).toEqual([]);
  });

  it('has no check that names no rule or an unknown rule', () => {
    const ids = new Set(rules.map((r) => r.id));
    expect(checks.filter((check) => !ids.has(check.rule)).map((check) => check.title)).toEqual([]);
  });

  it('explains why Prism cannot check each rule it skips', () => {
    expect(rules.filter((r) => !r.targets.includes('prism') && !r.whyNotPrism).map((r) => r.id)).toEqual([]);
  });

  it('selects rules by pattern and refuses a pattern that matches nothing', () => {
    expect(selectRules('WS-*,AUTH-1')).toEqual(['WS-1', 'WS-2', 'WS-3', 'WS-4', 'WS-5', 'AUTH-1']);
    expect(() => selectRules('WS-9')).toThrow(/"WS-9" matches no rule/);
  });

  it('has an up-to-date generated rule matrix (regenerate with `pnpm --filter @cloud-api/conformance run generate`)', () => {
    expect(readFileSync(ruleMatrixPath, 'utf8')).toBe(renderRuleMatrix(checks));
  });

  it('has up-to-date generated threat lists for the docs (regenerate with `pnpm --filter @cloud-api/conformance run generate`)', () => {
    const page = readFileSync(ruleThreatsPath, 'utf8');
    expect(page).toBe(renderRuleThreats());
    // Every rule has its section, every threat its row.
    for (const rule of rules) {
      expect(page).toContain(`### ${rule.id}: ${rule.title}\n`);
      for (const threat of rule.threats) expect(page).toContain(`| \`${threat.mechanism}\` |`);
    }
  });
});

describe('threat lists', () => {
  it('gives every rule at least three threats, each of a distinct mechanism and with its own sentence', () => {
    const short = rules
      .filter((rule) => new Set(rule.threats.map((threat) => threat.mechanism)).size < 3)
      .map((rule) => rule.id);
    expect(short).toEqual([]);
    const repeated = rules
      .filter((rule) => new Set(rule.threats.map((threat) => threat.mechanism)).size !== rule.threats.length)
      .map((rule) => rule.id);
    expect(repeated).toEqual([]);
    const notASentence = rules.flatMap((rule) =>
      rule.threats
        .filter((threat) => !/^\S.{20,}[.)]$/s.test(threat.how))
        .map((threat) => `${rule.id} ${threat.mechanism}`),
    );
    expect(notASentence).toEqual([]);
  });

  it('names every threat by a mechanism of the vocabulary', () => {
    const unknown = rules.flatMap((rule) =>
      rule.threats
        .filter((threat) => !isThreatMechanism(threat.mechanism))
        .map((threat) => `${rule.id} ${threat.mechanism}`),
    );
    expect(unknown).toEqual([]);
  });

  it('names every sandbox fault by a mechanism of the vocabulary', () => {
    expect(
      faultCatalogue
        .filter((fault) => !isThreatMechanism(fault.mechanism))
        .map((f) => `${f.id}: ${f.mechanism}`),
    ).toEqual([]);
  });

  it("lists each sandbox fault's mechanism among the threats of the rule it is written against", () => {
    // A fault is a threat someone found: the rule's list should have foreseen it.
    const unforeseen = faultCatalogue
      .filter(
        (fault) =>
          !rules.some(
            (rule) => rule.id === fault.rule && rule.threats.some((t) => t.mechanism === fault.mechanism),
          ),
      )
      .map((fault) => `${fault.id}: ${fault.rule} lists no ${fault.mechanism} threat`);
    expect(unforeseen).toEqual([]);
  });

  it('keeps a vocabulary of kebab-case words, each explained in one line and used by a threat or a fault', () => {
    const entries = Object.entries(threatMechanisms);
    expect(entries.filter(([name]) => !/^[a-z]+(-[a-z]+)*$/.test(name)).map(([name]) => name)).toEqual([]);
    expect(
      entries.filter(([, text]) => text.length < 20 || text.includes('\n')).map(([name]) => name),
    ).toEqual([]);
    const used = new Set([
      ...rules.flatMap((rule) => rule.threats.map((threat) => threat.mechanism as string)),
      ...faultCatalogue.map((fault) => fault.mechanism as string),
    ]);
    expect(entries.filter(([name]) => !used.has(name)).map(([name]) => name)).toEqual([]);
  });

  it('has the concurrency and key-space mechanisms the concurrency checks name', () => {
    for (const name of ['check-then-act-race', 'lost-update', 'non-atomic-id', 'global-key-space'])
      expect(isThreatMechanism(name)).toBe(true);
  });
});
