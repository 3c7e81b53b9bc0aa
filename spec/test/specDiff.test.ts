import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';

// `pnpm spec:diff` runs on a throw-away git repository holding a copy of the spec: the base is
// its one commit, the revision is the copy's working tree after one edit. The real spec files
// are never touched.
const specPackageDir = fileURLToPath(new URL('..', import.meta.url));
const specDiffScript = join(specPackageDir, 'scripts', 'spec-diff.mjs');
const SPEC_PARTS = ['openapi.yaml', 'paths', 'components', 'gaps', 'redocly.yaml', 'lint'];

let repoDir = '';

function gitIn(dir: string, ...args: string[]): void {
  const result = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
}

interface SpecDiffRun {
  status: number | null;
  output: string;
}

interface SpecDiffCall extends SpecDiffRun {
  stdout: string;
  stderr: string;
}

/** Runs the script with exactly `args` (no base ref added), in `cwd`. */
function callSpecDiff(args: readonly string[], cwd = repoDir): SpecDiffCall {
  const result = spawnSync(process.execPath, [specDiffScript, ...args], { cwd, encoding: 'utf8' });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    output: `${result.stdout}\n${result.stderr}`,
  };
}

function runSpecDiff(...args: string[]): SpecDiffRun {
  return callSpecDiff(['HEAD', ...args]);
}

interface SchemaFile {
  properties: Record<string, Record<string, unknown>>;
}
interface PathItemFile {
  get: { parameters: unknown[] };
}

/** Applies `edit` to one YAML file of the copied spec, runs the diff, then puts the file back. */
function diffAfterEditing<File>(relativeFile: string, edit: (node: File) => void, ...args: string[]) {
  const file = join(repoDir, 'spec', relativeFile);
  const original = readFileSync(file, 'utf8');
  const node = parse(original) as File;
  edit(node);
  writeFileSync(file, stringify(node));
  try {
    return runSpecDiff(...args);
  } finally {
    writeFileSync(file, original);
  }
}

function commitAll(message: string): void {
  gitIn(repoDir, 'add', '--all');
  gitIn(
    repoDir,
    '-c',
    'user.name=spec-diff-test',
    '-c',
    'user.email=spec-diff@test.invalid',
    'commit',
    '--quiet',
    '-m',
    message,
  );
}

beforeAll(() => {
  repoDir = mkdtempSync(join(tmpdir(), 'spec-diff-test-'));
  gitIn(repoDir, 'init', '--quiet');
  // A first commit without spec/, as the history of a repository that added the spec later.
  writeFileSync(join(repoDir, 'README.md'), 'before the spec\n');
  commitAll('before the spec');
  gitIn(repoDir, 'tag', 'before-spec');
  for (const part of SPEC_PARTS)
    cpSync(join(specPackageDir, part), join(repoDir, 'spec', part), { recursive: true });
  writeFileSync(join(repoDir, 'not-a-directory'), 'a plain file\n');
  commitAll('base');
});

afterAll(() => {
  if (repoDir) rmSync(repoDir, { recursive: true, force: true });
});

// Each case bundles two specs (about 2 s), above vitest's 5 s default on a busy runner.
describe('pnpm spec:diff', { timeout: 30_000 }, () => {
  it('says there are no changes when the spec is unchanged, writing --json into a new folder', () => {
    const jsonOut = join(repoDir, 'reports', 'nested', 'spec-diff.json');
    const run = runSpecDiff('--json', jsonOut);
    expect(run.output).toContain('No changes to the API description.');
    expect(run.output).toContain('0 breaking (major)');
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(jsonOut, 'utf8'))).toMatchObject({ summary: { major: 0 } });
    rmSync(join(repoDir, 'reports'), { recursive: true, force: true });
  });

  it('names the file when the working tree spec does not parse, exit 2', () => {
    const file = join(repoDir, 'spec', 'openapi.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, `${original}\ninfo: twice\n`);
    try {
      const run = runSpecDiff();
      expect(run.output).toMatch(
        /could not bundle the spec of the working tree \(.*openapi\.yaml\): .*duplicated mapping key/,
      );
      expect(run.status).toBe(2);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('reports a removed response field as breaking and exits 1', () => {
    const run = diffAfterEditing<SchemaFile>('components/schemas/NatPortForwardingRule.yaml', (schema) => {
      delete schema.properties.note;
    });
    expect(run.output).toMatch(/MAJOR\s+removed\s+PATCH \/networking\/vpcs\/\{vpc_id\}/);
    expect(run.output).toContain('Property `note` of `NatPortForwardingRule` was removed');
    expect(run.status).toBe(1);
  });

  it('reports a newly required parameter as breaking', () => {
    const run = diffAfterEditing<PathItemFile>('paths/object-storage/list-buckets.yaml', (pathItem) => {
      pathItem.get.parameters.push({
        name: 'region',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      });
    });
    expect(run.output).toMatch(/MAJOR\s+added\s+GET \/object-storage\/buckets/);
    expect(run.output).toContain('Required `region` query parameter was added');
    expect(run.status).toBe(1);
  });

  it('reports a narrowed request enum as breaking', () => {
    const run = diffAfterEditing<SchemaFile>(
      'components/schemas/UpdateNatPortForwardingRuleRequest.yaml',
      (schema) => {
        schema.properties.protocol = { ...schema.properties.protocol, enum: ['tcp'] };
      },
    );
    expect(run.output).toContain("Enum of `protocol` lost values: 'udp'");
    expect(run.output).toContain('1 breaking (major)');
    expect(run.status).toBe(1);
  });

  it('does not report an added optional field as breaking', () => {
    const run = diffAfterEditing<SchemaFile>(
      'components/schemas/EnableGpuVmBackupsRequest.yaml',
      (schema) => {
        schema.properties.comment = { type: 'string' };
      },
    );
    expect(run.output).toMatch(/MINOR\s+added\s+POST \/compute\/gpu-vms\/\{vm_id\}\/backups\/enable/);
    expect(run.output).toContain('0 breaking (major)');
    expect(run.status).toBe(0);
  });

  it('passes breaking changes with --allow-breaking, still listing them', () => {
    const run = diffAfterEditing<SchemaFile>(
      'components/schemas/NatPortForwardingRule.yaml',
      (schema) => {
        delete schema.properties.note;
      },
      '--allow-breaking',
    );
    expect(run.output).toContain('1 breaking (major)');
    expect(run.output).toContain('allowed for this run');
    expect(run.status).toBe(0);
  });
});

interface RefusalCase {
  readonly name: string;
  readonly args: () => string[];
  readonly cwd?: () => string;
  readonly stderr: RegExp;
}

// Each refusal comes before any bundling, so these cases take a fraction of a second.
const refusals: readonly RefusalCase[] = [
  {
    name: 'a base ref that does not exist',
    args: () => ['no-such-branch'],
    stderr: /base ref "no-such-branch" does not name a commit here\. Fetch it first .* or pass another ref/,
  },
  {
    name: 'an unknown option',
    args: () => ['HEAD', '--bogus'],
    stderr: /unknown option --bogus\.\nUsage: pnpm spec:diff \[base-ref\]/,
  },
  { name: 'two base refs', args: () => ['HEAD', 'HEAD'], stderr: /only one base ref is accepted/ },
  {
    name: '--json without a file',
    args: () => ['HEAD', '--json'],
    stderr: /--json needs a file path, e\.g\./,
  },
  {
    name: '--json naming a directory',
    args: () => ['HEAD', '--json', repoDir],
    stderr: /--json .* is a directory; name a file, e\.g\. --json .*spec-diff\.json/,
  },
  {
    name: '--json under a plain file',
    args: () => ['HEAD', '--json', join(repoDir, 'not-a-directory', 'diff.json')],
    stderr: /cannot be written \(a part of the path is a file, not a directory\); choose another path/,
  },
  {
    name: 'a directory outside any git checkout',
    args: () => ['HEAD'],
    cwd: () => outsideDir,
    stderr: /is not inside a git checkout; run pnpm spec:diff from the repository/,
  },
];

let outsideDir = '';
beforeAll(() => {
  outsideDir = mkdtempSync(join(tmpdir(), 'spec-diff-outside-'));
  mkdirSync(join(outsideDir, 'spec'));
});
afterAll(() => {
  if (outsideDir) rmSync(outsideDir, { recursive: true, force: true });
});

describe('pnpm spec:diff refuses bad input with exit 2 and one clear message', () => {
  it.each(refusals)('$name', ({ args, cwd, stderr }) => {
    const run = callSpecDiff(args(), cwd?.());
    expect(run.stderr).toMatch(stderr);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(2);
  });

  it('writes nothing for --json when it refuses', () => {
    const target = join(repoDir, 'refused', 'diff.json');
    expect(callSpecDiff(['no-such-branch', '--json', target]).status).toBe(2);
    expect(existsSync(join(repoDir, 'refused'))).toBe(false);
  });

  it('has nothing to compare at a ref without spec/, exit 0', () => {
    const run = callSpecDiff(['before-spec']);
    expect(run.stdout).toMatch(/before-spec \([0-9a-f]+\) has no spec\/openapi\.yaml; nothing to compare/);
    expect(run.status).toBe(0);
  });
});
