import { availableParallelism } from 'node:os';
import { rules } from '../ruleCatalogue/index.js';
import { loadSandboxModule } from '../targets/sandboxTarget.js';
import { type MutantJob, type MutantRunEnd, PREFLIGHT_RULE } from './mutantJob.js';
import { mutantThreads } from './mutantThreads.js';
import {
  mechanismGaps,
  type RuleKill,
  renderRuleKills,
  renderThreatKills,
  ruleKills,
  type ThreatTotals,
  threatTotals,
} from './ruleKills.js';
import { suiteCliExecutor } from './suiteCliExecutor.js';

export interface MutantResult {
  readonly kind: 'fault' | 'variant';
  readonly id: string;
  /** The rule the fault breaks (faults only). */
  readonly rule?: string;
  /** The bug's cause (faults only), from the sandbox catalogue. */
  readonly mechanism?: string;
  readonly failedRules: readonly string[];
  /** Faults: caught by at least one failing rule. Variants: passed with no failure. */
  readonly ok: boolean;
  readonly note?: string;
  readonly durationMs: number;
}

export interface MutationSummary {
  readonly results: readonly MutantResult[];
  readonly faultsCaught: number;
  readonly faults: number;
  readonly variantsPassed: number;
  readonly variants: number;
  /**
   * Per rule of the catalogue: the faults that killed it, their distinct mechanisms, and each
   * threat of the rule's list with whether a fault of its mechanism killed it.
   */
  readonly ruleKills: readonly RuleKill[];
  /** Threats of the catalogue: listed, killed by a fault, and of a mechanism no fault has yet. */
  readonly threats: ThreatTotals;
  /** MUST rules (not about the client) killed by fewer than `minMechanisms` mechanisms. */
  readonly mechanismGaps: readonly RuleKill[];
  readonly minMechanisms: number;
  /**
   * `enforced`: a gap fails the run. `warning`: gaps are printed only.
   * `partial`: --only ran a subset, so the counts say nothing about the catalogue.
   */
  readonly mechanismCheck: 'enforced' | 'warning' | 'partial';
  readonly exitCode: number;
}

/**
 * Mutants run at once: three per core. Each run spends about 2 s of its 3 waiting in the checks
 * held over time, and a warm engine needs under 1 s of CPU for the rest.
 */
export const DEFAULT_MUTANT_CONCURRENCY = 6;

export interface MutationOptions {
  /** Runs per property for each variant (default 5): more cases hunt more false alarms. */
  readonly depth?: number;
  /**
   * Runs per property for each fault (default 3). A fault is caught by its first failing case,
   * and the examples every property sends come first; a full run at this depth must still catch
   * every fault, so lowering it is checked by the run itself (a fault that escapes fails it).
   */
  readonly faultDepth?: number;
  readonly seed?: number;
  readonly concurrency?: number;
  /** Only these fault/variant ids (for quick checks). */
  readonly only?: readonly string[];
  readonly print?: (text: string) => void;
  /**
   * A conformance CLI to start per mutant, one process each (a test's stand-in suite). By
   * default the engine runs the mutants itself, in one worker thread per core.
   */
  readonly cliPath?: string;
  /** Distinct fault mechanisms every MUST rule about the target must be killed by (default 2). */
  readonly minMechanisms?: number;
  /** Whether a MUST rule below `minMechanisms` fails the run (default) or is only a warning. */
  readonly enforceMechanisms?: boolean;
}

/** A mutant's verdict from how its run ended. */
function mutantResult(job: MutantJob, end: MutantRunEnd, durationMs: number): MutantResult {
  // A target the preflight refused failed the sentence ENV-2 quotes, "{base_url} ends with /v1".
  const failedRules = end.preflightRefusal !== undefined ? [PREFLIGHT_RULE] : end.failedRules;
  const note =
    end.runErrors.length > 0
      ? { note: end.runErrors.join('; ') }
      : end.preflightRefusal !== undefined
        ? { note: `refused by the preflight (exit 2): ${end.preflightRefusal}` }
        : {};
  if (job.kind === 'fault')
    return {
      kind: 'fault',
      id: job.id,
      ...(job.rule ? { rule: job.rule } : {}),
      ...(job.mechanism ? { mechanism: job.mechanism } : {}),
      failedRules,
      ok: failedRules.length > 0,
      ...note,
      durationMs,
    };
  return {
    kind: 'variant',
    id: job.id,
    failedRules,
    ok: failedRules.length === 0 && end.runErrors.length === 0 && end.exitCode === 0,
    ...note,
    durationMs,
  };
}

export function renderMutationMatrix(summary: MutationSummary): string {
  const lines: string[] = [];
  const width = Math.max(10, ...summary.results.map((r) => r.id.length));
  const faults = summary.results.filter((x) => x.kind === 'fault');
  const mechanismWidth = Math.max(9, ...faults.map((r) => (r.mechanism ?? '-').length));
  lines.push(
    `${'FAULT'.padEnd(width)}  ${'MECHANISM'.padEnd(mechanismWidth)}  RULE       CAUGHT  FAILING RULES`,
  );
  for (const r of faults) {
    const own = r.rule && r.failedRules.includes(r.rule) ? '' : r.ok ? ' (not its own rule)' : '';
    lines.push(
      `${r.id.padEnd(width)}  ${(r.mechanism ?? '-').padEnd(mechanismWidth)}  ${(r.rule ?? '-').padEnd(9)}  ${(r.ok ? 'yes' : 'NO').padEnd(6)}  ${r.failedRules.join(', ') || '-'}${own}${r.note ? `  [${r.note}]` : ''}`,
    );
  }
  lines.push('', `${'VARIANT'.padEnd(width)}  PASSED  FAILING RULES`);
  for (const r of summary.results.filter((x) => x.kind === 'variant')) {
    lines.push(
      `${r.id.padEnd(width)}  ${(r.ok ? 'yes' : 'NO').padEnd(6)}  ${r.failedRules.join(', ') || '-'}${r.note ? `  [${r.note}]` : ''}`,
    );
  }
  lines.push('', 'Kills per rule (faults whose run failed the rule, and their distinct mechanisms):');
  lines.push(renderRuleKills(summary.ruleKills));
  lines.push(
    '',
    "Threats per rule (the catalogue's list; killed = a fault of that mechanism made the rule fail; to do = no fault of it kills the rule yet):",
  );
  lines.push(renderThreatKills(summary.ruleKills));
  lines.push(
    '',
    `Threats killed: ${summary.threats.killed}/${summary.threats.listed}; ${summary.threats.withoutFault} of the rest have no sandbox fault of their mechanism yet.`,
  );
  lines.push('', renderMechanismCheck(summary));
  lines.push(
    '',
    `Faults caught: ${summary.faultsCaught}/${summary.faults} (${summary.faults ? Math.round((100 * summary.faultsCaught) / summary.faults) : 100}%) — variants passing: ${summary.variantsPassed}/${summary.variants}`,
  );
  return lines.join('\n');
}

function renderMechanismCheck(summary: MutationSummary): string {
  const gaps = summary.mechanismGaps;
  if (summary.mechanismCheck === 'partial')
    return 'Mechanisms per MUST rule: not judged (--only ran a subset of the faults).';
  const required = summary.minMechanisms;
  if (gaps.length === 0)
    return `Mechanisms per MUST rule: every MUST rule about the target is killed by faults of >= ${required} distinct mechanisms.`;
  const list = gaps.map((gap) => `${gap.rule} (${gap.mechanisms.join(', ') || 'no fault'})`).join(', ');
  return summary.mechanismCheck === 'enforced'
    ? `Mechanisms per MUST rule: FAILED: killed by fewer than ${required} distinct mechanisms: ${list}.`
    : `Mechanisms per MUST rule: warning (not enforced): killed by fewer than ${required} distinct mechanisms: ${list}.`;
}

/** Runs the suite against every sandbox fault and variant, `concurrency` at a time. */
export async function runMutants(options: MutationOptions = {}): Promise<MutationSummary> {
  const sandbox = await loadSandboxModule();
  const all: MutantJob[] = [
    ...sandbox.faultCatalogue.map((f) => ({
      kind: 'fault' as const,
      id: f.id,
      rule: f.rule,
      // Read structurally: a sandbox build from before mechanisms existed counts as unlabelled.
      mechanism: (f as { mechanism?: string }).mechanism ?? 'unlabelled',
    })),
    ...sandbox.variantCatalogue.map((v) => ({ kind: 'variant' as const, id: v.id })),
  ];
  // A misspelt id would otherwise run nothing and report "0/0 caught" as a success.
  const unknown = (options.only ?? []).filter((id) => !all.some((job) => job.id === id));
  if (unknown.length > 0)
    throw new Error(
      `--only: no fault or variant named ${unknown.map((id) => `"${id}"`).join(', ')}; use the ids of faultCatalogue / variantCatalogue in @cloud-api/sandbox (its CLI prints them with --list-faults and --list-variants)`,
    );
  const jobs = all.filter((job) => !options.only || options.only.includes(job.id));
  const settings = {
    depth: options.depth ?? 5,
    faultDepth: options.faultDepth ?? 3,
    seed: options.seed ?? 424242,
  };
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_MUTANT_CONCURRENCY);
  const { cliPath } = options;
  const runner =
    cliPath === undefined
      ? mutantThreads(Math.min(concurrency, availableParallelism(), Math.max(1, jobs.length)))
      : { execute: suiteCliExecutor(cliPath), close: async () => undefined };
  const minMechanisms = options.minMechanisms ?? 2;
  const results: MutantResult[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      const job = jobs[index] as MutantJob;
      const started = Date.now();
      const result = mutantResult(job, await runner.execute(job, settings), Date.now() - started);
      results[index] = result;
      options.print?.(
        `${result.kind} ${result.id}: ${result.kind === 'fault' ? (result.ok ? 'caught' : 'NOT caught') : result.ok ? 'passed' : 'FAILED'} (${(result.durationMs / 1000).toFixed(1)} s)`,
      );
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await runner.close();
  }
  const faults = results.filter((r) => r.kind === 'fault');
  const variants = results.filter((r) => r.kind === 'variant');
  const faultsCaught = faults.filter((r) => r.ok).length;
  const variantsPassed = variants.filter((r) => r.ok).length;
  const kills = ruleKills(
    faults.map((r) => ({ id: r.id, mechanism: r.mechanism ?? 'unlabelled', failedRules: r.failedRules })),
    rules,
    // The whole catalogue's, so that an --only run does not call a threat faultless.
    new Set(all.flatMap((job) => (job.mechanism ? [job.mechanism] : []))),
  );
  const gaps = mechanismGaps(kills, minMechanisms);
  const mechanismCheck = options.only
    ? 'partial'
    : options.enforceMechanisms === false
      ? 'warning'
      : 'enforced';
  const mutantsOk = faultsCaught === faults.length && variantsPassed === variants.length;
  return {
    results,
    faults: faults.length,
    faultsCaught,
    variants: variants.length,
    variantsPassed,
    ruleKills: kills,
    threats: threatTotals(kills),
    mechanismGaps: gaps,
    minMechanisms,
    mechanismCheck,
    exitCode: mutantsOk && (mechanismCheck !== 'enforced' || gaps.length === 0) ? 0 : 1,
  };
}
