#!/usr/bin/env node
// Breaking-change check of the spec: bundles the spec of the working tree and the spec at a git
// ref, compares them with `redocly diff` under the `diff-recommended` ruleset (every rule rated
// major), prints a readable report and exits 1 when a change can break a client.
//
// Usage: node spec/scripts/spec-diff.mjs [base-ref] [--allow-breaking] [--json FILE]
//   base-ref          defaults to the first of origin/main, main, HEAD~1, HEAD that exists
//   --allow-breaking  report breaking changes but exit 0 (CI passes it when the pull request
//                     carries the `breaking-change-approved` label)
//   --json FILE       also write Redocly's JSON diff report to FILE
//
// The spec is found at `<git top level of the current directory>/spec`, so the same script
// works on any checkout (the tests run it on a throw-away copy of the spec).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXIT_OK = 0;
const EXIT_BREAKING = 1;
const EXIT_USAGE = 2;

const DEFAULT_BASE_REFS = ['origin/main', 'main', 'HEAD~1', 'HEAD'];
const SPEC_DIR_NAME = 'spec';

const USAGE = 'Usage: pnpm spec:diff [base-ref] [--allow-breaking] [--json FILE]';

class UsageError extends Error {}

/** What a file-system error code means to someone who typed a path. */
function describeFileError(code) {
  const meanings = {
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a part of the path is a file, not a directory',
    EISDIR: 'it is a directory',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'read-only file system',
  };
  return meanings[code] ?? code ?? 'unknown error';
}

/**
 * Checks the --json destination before the (slow) diff runs: missing parent folders are
 * created, anything else that would stop the write is reported now. Returns the absolute path.
 */
function prepareJsonOut(file) {
  const target = resolve(file);
  try {
    if (statSync(target).isDirectory()) {
      throw new UsageError(
        `--json ${file} is a directory; name a file, e.g. --json ${join(file, 'spec-diff.json')}.`,
      );
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error.code !== 'ENOENT') {
      throw new UsageError(
        `--json ${file} cannot be written (${describeFileError(error.code)}); choose another path.`,
      );
    }
  }
  try {
    mkdirSync(dirname(target), { recursive: true });
    accessSync(existsSync(target) ? target : dirname(target), constants.W_OK);
  } catch (error) {
    throw new UsageError(
      `--json ${file} cannot be written (${describeFileError(error.code)}); choose another path.`,
    );
  }
  return target;
}

function parseArguments(argv) {
  const options = { baseRef: undefined, allowBreaking: false, jsonOut: undefined };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--allow-breaking') options.allowBreaking = true;
    else if (argument === '--json') {
      const file = argv[index + 1];
      if (!file || file.startsWith('--'))
        throw new UsageError('--json needs a file path, e.g. --json reports/spec-diff.json');
      options.jsonOut = file;
      index += 1;
    } else if (argument === '--help' || argument === '-h') options.help = true;
    else if (argument.startsWith('-')) throw new UsageError(`unknown option ${argument}.\n${USAGE}`);
    else if (options.baseRef === undefined) options.baseRef = argument;
    else
      throw new UsageError(
        `only one base ref is accepted, got "${options.baseRef}" and "${argument}".\n${USAGE}`,
      );
  }
  return options;
}

function git(args, cwd) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function refExists(ref, cwd) {
  return (
    spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd, stdio: 'ignore' })
      .status === 0
  );
}

function resolveBaseRef(requested, cwd) {
  if (requested !== undefined) {
    if (!refExists(requested, cwd)) {
      throw new UsageError(
        `base ref "${requested}" does not name a commit here. Fetch it first (e.g. git fetch origin ${requested.replace(/^origin\//, '')}) or pass another ref.`,
      );
    }
    return requested;
  }
  const found = DEFAULT_BASE_REFS.find((ref) => refExists(ref, cwd));
  if (found === undefined) {
    throw new UsageError(
      `none of ${DEFAULT_BASE_REFS.join(', ')} names a commit here; pass the base ref to compare with.`,
    );
  }
  return found;
}

/** The Redocly CLI entry of the spec package (the script lives in spec/scripts). */
function redoclyEntry() {
  const specPackageDir = dirname(dirname(fileURLToPath(import.meta.url)));
  const entry = join(specPackageDir, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  if (!existsSync(entry)) {
    throw new UsageError(`Redocly CLI not found at ${entry}; run pnpm install at the repository root.`);
  }
  return entry;
}

function runRedocly(args, cwd) {
  const result = spawnSync(process.execPath, [redoclyEntry(), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', NO_COLOR: '1' },
  });
  return { status: result.status ?? 1, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

function bundleSpec(specDir, outFile, label) {
  const result = runRedocly(['bundle', 'openapi.yaml', '--ext', 'json', '-o', outFile], specDir);
  if (result.status !== 0 || !existsSync(outFile)) {
    // Redocly's own words, without its banners, progress line and blank lines.
    const reason = `${result.stdout}\n${result.stderr}`
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !/[║╔╚═]/.test(line) && !/^bundling /.test(line));
    throw new UsageError(
      `could not bundle the spec of ${label} (${specDir}/openapi.yaml): ${reason.slice(0, 5).join(' ') || 'redocly bundle failed'}`,
    );
  }
}

/** Writes the spec directory as it is at `ref` into `targetDir`; false when the ref has no spec. */
function extractSpecAtRef(ref, repoRoot, targetDir) {
  const listing = spawnSync('git', ['ls-tree', '-r', '--name-only', ref, '--', SPEC_DIR_NAME], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  const files = (listing.stdout ?? '').split('\n').filter(Boolean);
  if (!files.includes(`${SPEC_DIR_NAME}/openapi.yaml`)) return false;
  const archive = spawnSync('git', ['archive', '--format=tar', ref, SPEC_DIR_NAME], {
    cwd: repoRoot,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (archive.status !== 0)
    throw new UsageError(`git archive ${ref} failed: ${archive.stderr?.toString().trim()}`);
  const untar = spawnSync('tar', ['-x', '-C', targetDir], { input: archive.stdout });
  if (untar.status !== 0)
    throw new UsageError(`could not unpack the spec of ${ref}: ${untar.stderr?.toString().trim()}`);
  return true;
}

function decodePointer(pointer) {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** `#/paths/~1a~1{id}/patch/requestBody/...` → `PATCH /a/{id}`, `requestBody/...`. */
function describeLocation(change) {
  const segments = decodePointer(change.path ?? '');
  if (segments[0] === 'paths' && segments.length >= 2) {
    const path = segments[1];
    const method = segments[2];
    if (method !== undefined && HTTP_METHODS.has(method)) {
      return { where: `${method.toUpperCase()} ${path}`, what: segments.slice(3).join('/') || '(operation)' };
    }
    return { where: path, what: segments.slice(2).join('/') || '(path)' };
  }
  return { where: segments.slice(0, 2).join('/'), what: segments.slice(2).join('/') };
}

function formatChange(change) {
  const { where, what } = describeLocation(change);
  const property = change.property ? ` · ${change.property}` : '';
  const lines = [
    `  ${change.impact.toUpperCase().padEnd(5)}  ${change.kind.padEnd(8)}  ${where}`,
    `         ${what}${property}`,
  ];
  for (const verdict of change.verdicts ?? [])
    lines.push(`         → ${verdict.message} (${verdict.ruleId})`);
  return lines.join('\n');
}

const IMPACT_ORDER = { major: 0, minor: 1, patch: 2 };

export function formatReport(report, baseLabel) {
  const changes = [...(report.changes ?? [])].sort(
    (a, b) => (IMPACT_ORDER[a.impact] ?? 3) - (IMPACT_ORDER[b.impact] ?? 3),
  );
  const { major = 0, minor = 0, patch = 0 } = report.summary ?? {};
  const lines = [`Spec diff: ${baseLabel} → working tree (redocly diff, diff-recommended rules)`, ''];
  if (changes.length === 0) lines.push('  No changes to the API description.');
  for (const change of changes) lines.push(formatChange(change));
  lines.push('', `${major} breaking (major), ${minor} additive (minor), ${patch} cosmetic (patch).`);
  return lines.join('\n');
}

function main(argv) {
  const options = parseArguments(argv);
  if (options.help) {
    console.log(USAGE);
    return EXIT_OK;
  }
  let repoRoot;
  try {
    repoRoot = git(['rev-parse', '--show-toplevel'], process.cwd());
  } catch {
    throw new UsageError(
      `${process.cwd()} is not inside a git checkout; run pnpm spec:diff from the repository.`,
    );
  }
  const specDir = join(repoRoot, SPEC_DIR_NAME);
  if (!existsSync(join(specDir, 'openapi.yaml')))
    throw new UsageError(
      `no spec at ${specDir}/openapi.yaml; run pnpm spec:diff from this repository's checkout.`,
    );
  const baseRef = resolveBaseRef(options.baseRef, repoRoot);
  const baseCommit = git(['rev-parse', '--short', `${baseRef}^{commit}`], repoRoot);
  const baseLabel = `${baseRef} (${baseCommit})`;
  const jsonOut = options.jsonOut === undefined ? undefined : prepareJsonOut(options.jsonOut);

  const workDir = mkdtempSync(join(tmpdir(), 'spec-diff-'));
  try {
    if (!extractSpecAtRef(baseRef, repoRoot, workDir)) {
      console.log(
        `Spec diff: ${baseLabel} has no ${SPEC_DIR_NAME}/openapi.yaml; nothing to compare, no breaking change.`,
      );
      return EXIT_OK;
    }
    const baseBundle = join(workDir, 'base.json');
    const revisionBundle = join(workDir, 'revision.json');
    bundleSpec(join(workDir, SPEC_DIR_NAME), baseBundle, baseLabel);
    bundleSpec(specDir, revisionBundle, 'the working tree');

    // Only the diff rules: the spec's own redocly.yaml would turn on its lint rules instead.
    const diffConfig = join(workDir, 'redocly-diff.yaml');
    writeFileSync(diffConfig, 'extends:\n  - diff-recommended\ntelemetry: off\n');
    const reportFile = join(workDir, 'diff.json');
    const diff = runRedocly(
      [
        'diff',
        baseBundle,
        revisionBundle,
        '--config',
        diffConfig,
        '--format',
        'json',
        '--fail-on',
        'none',
        '-o',
        reportFile,
      ],
      workDir,
    );
    if (!existsSync(reportFile)) {
      throw new UsageError(
        `redocly diff produced no report: ${(diff.stderr || diff.stdout).trim().split('\n').slice(-3).join(' ')}`,
      );
    }
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    console.log(formatReport(report, baseLabel));
    if (jsonOut) {
      try {
        copyFileSync(reportFile, jsonOut);
      } catch (error) {
        throw new UsageError(
          `could not write the JSON report to ${jsonOut} (${describeFileError(error.code)}); the report above is complete.`,
        );
      }
    }

    const breaking = report.summary?.major ?? 0;
    if (breaking === 0) return EXIT_OK;
    if (options.allowBreaking) {
      console.log('\nBreaking changes are allowed for this run (--allow-breaking).');
      return EXIT_OK;
    }
    console.error(
      `\n✖ ${breaking} breaking change(s) against ${baseLabel}. Fix them, or get the change approved ` +
        '(CI: label the pull request `breaking-change-approved`; locally: --allow-breaking).',
    );
    return EXIT_BREAKING;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`spec:diff: ${error.message}`);
      process.exitCode = EXIT_USAGE;
    } else {
      console.error(
        `spec:diff: unexpected failure: ${error instanceof Error ? error.message : String(error)}`,
      );
      process.exitCode = EXIT_USAGE;
    }
  }
}
