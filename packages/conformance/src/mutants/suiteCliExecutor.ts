import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSON_REPORT_FILE } from '../reporters/jsonReport.js';
import type { RunOutcome } from '../run/outcome.js';
import { MUTANT_DEADLINE_SECONDS, type MutantExecutor } from './mutantJob.js';

/**
 * Mutants run by a conformance CLI of the caller's choosing, one process each, its verdict read
 * from its JSON report (a test stands in a suite whose verdicts it decides).
 */
export function suiteCliExecutor(cliPath: string): MutantExecutor {
  return (job, settings) => {
    const outDir = mkdtempSync(join(tmpdir(), `conformance-mutant-${job.id}-`));
    const args = [
      cliPath,
      '--target',
      'sandbox',
      job.kind === 'fault' ? '--sandbox-fault' : '--sandbox-variant',
      job.id,
      '--reporter',
      'json',
      '--out',
      outDir,
      '--depth',
      String(job.kind === 'fault' ? settings.faultDepth : settings.depth),
      '--seed',
      String(settings.seed),
      '--deadline',
      String(MUTANT_DEADLINE_SECONDS),
    ];
    return new Promise((resolve) => {
      let stderr = '';
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr.on('data', (chunk) => {
        stderr = (stderr + String(chunk)).slice(-4000);
      });
      child.on('close', (code) => {
        let outcome: RunOutcome | undefined;
        try {
          outcome = JSON.parse(readFileSync(join(outDir, JSON_REPORT_FILE), 'utf8')) as RunOutcome;
        } catch {
          outcome = undefined;
        }
        const exitCode = code ?? 2;
        const lastLine = stderr.trim().split('\n').at(-1) ?? '';
        // The preflight's refusal is exit 2, no report, and its reason as the last line.
        if (!outcome && exitCode === 2 && /preflight: /.test(lastLine))
          return resolve({ failedRules: [], runErrors: [], exitCode, preflightRefusal: lastLine });
        resolve({
          failedRules: outcome?.rules.filter((r) => r.state === 'failed').map((r) => r.id) ?? [],
          runErrors: outcome?.runErrors ?? [`no report (exit ${exitCode}): ${lastLine}`],
          exitCode,
        });
      });
    });
  };
}
