import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, test } from 'vitest';
import type { CheckResult } from '../checks/check.js';
import { acceptanceRecordAudits } from '../checks/identifierAudit.js';
import { checkRegistry } from '../checks/registry.js';
import { SCHEMA_AUDIT_CHECK, type SchemaAuditFindings, schemaAuditVerdict } from '../checks/schemaAudit.js';
import { runCheck } from '../run/checkRunner.js';
import { DEFAULT_DEPTH } from '../run/options.js';
import { planChecks, plansRunAudit } from '../run/plan.js';
import { type PreparedRun, prepareRun, type RunSettings } from '../run/runSetup.js';
import { gapText } from '../run/verdict.js';
import { createSecretRedactor } from '../secrets/secretRedactor.js';

export interface ConformanceTestOptions
  extends Partial<Pick<RunSettings, 'target' | 'profile' | 'env' | 'sandboxFault' | 'sandboxVariant'>> {
  /** Only these rules (`"WS-*,AUTH-1"`); default every rule. */
  readonly rules?: string;
  readonly depth?: number;
  readonly seed?: number;
  readonly concurrency?: number;
  readonly allowProduction?: boolean;
  /** For replay files and the created-resources log (default: a temporary directory). */
  readonly outDir?: string;
  /** Whole-run deadline from the first test on (default 600 s). */
  readonly deadlineMs?: number;
}

/** A check that ended without a verdict fails its test: in a test runner, no evidence is never a pass. */
function assertVerdict(result: CheckResult, skip: (note: string) => void): void {
  const { verdict } = result;
  if (verdict.state === 'passed') return;
  if (verdict.state === 'skipped') {
    skip(verdict.reason);
    return;
  }
  if (verdict.state === 'failed') throw new Error(verdict.errors.join('\n\n'));
  throw new Error(
    `${verdict.state}: ${verdict.reason}${'remedy' in verdict && verdict.remedy ? ` (${verdict.remedy})` : ''}`,
  );
}

/**
 * Declares one vitest test per check of the registry, run against the target in order, and the
 * run-wide audits (RESP-1's schemas, ASYNC-4's identifiers) last. Call it at the top level of a test file (or inside a `describe`).
 */
export function conformanceTests(options: ConformanceTestOptions = {}): void {
  const planOptions = options.rules !== undefined ? { rules: options.rules } : {};
  const checks = planChecks(checkRegistry, planOptions);
  const redactor = createSecretRedactor();
  const audits: SchemaAuditFindings[] = [];
  let prepared: PreparedRun | undefined;
  beforeAll(async () => {
    const { rules: _rules, outDir, deadlineMs, ...target } = options;
    prepared = await prepareRun(
      {
        ...target,
        depth: options.depth ?? DEFAULT_DEPTH,
        seed: options.seed ?? Math.floor(Math.random() * 2 ** 31),
        deadlineAt: Date.now() + (deadlineMs ?? 600_000),
        runDir: outDir ?? mkdtempSync(join(tmpdir(), 'conformance-vitest-')),
      },
      redactor,
    );
  }, 120_000);
  afterAll(() => prepared?.close());
  for (const check of checks)
    test(
      check.title,
      async (context) => {
        if (!prepared) throw new Error('the conformance target did not start (see beforeAll)');
        const { result, audit } = await runCheck(check, prepared.environment, context.signal);
        audits.push(audit);
        // A pass on part of the rule stays a pass here, but says what it left out.
        for (const gap of result.gaps ?? [])
          await context.annotate(`not checked: ${gapText(gap)}`, 'warning');
        assertVerdict(result, (note) => context.skip(note));
      },
      check.timeoutMs + 5_000,
    );
  if (checks.some((check) => check.rule === 'RESP-1'))
    test(SCHEMA_AUDIT_CHECK.title, (context) =>
      assertVerdict({ ...SCHEMA_AUDIT_CHECK, verdict: schemaAuditVerdict(audits), durationMs: 0 }, (note) =>
        context.skip(note),
      ),
    );
  for (const { check, verdictOf } of acceptanceRecordAudits)
    if (plansRunAudit(planOptions, check.rule))
      test(check.title, (context) => {
        if (!prepared) throw new Error('the conformance target did not start (see beforeAll)');
        const verdict = verdictOf(prepared.identifierAudit.findings(), prepared.session);
        assertVerdict({ ...check, verdict, durationMs: 0 }, (note) => context.skip(note));
      });
}
