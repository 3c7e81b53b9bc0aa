import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

function runSpecDiff(...args: string[]): SpecDiffRun {
  const result = spawnSync(process.execPath, [specDiffScript, 'HEAD', ...args], {
    cwd: repoDir,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
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

beforeAll(() => {
  repoDir = mkdtempSync(join(tmpdir(), 'spec-diff-test-'));
  for (const part of SPEC_PARTS)
    cpSync(join(specPackageDir, part), join(repoDir, 'spec', part), { recursive: true });
  gitIn(repoDir, 'init', '--quiet');
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
    'base',
  );
});

afterAll(() => {
  if (repoDir) rmSync(repoDir, { recursive: true, force: true });
});

// Each case bundles two specs (about 2 s), above vitest's 5 s default on a busy runner.
describe('pnpm spec:diff', { timeout: 30_000 }, () => {
  it('reports no breaking change when the spec is unchanged', () => {
    const run = runSpecDiff();
    expect(run.output).toContain('0 breaking (major)');
    expect(run.status).toBe(0);
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

  it('exits 2 with a clear message for a base ref that does not exist', () => {
    const result = spawnSync(process.execPath, [specDiffScript, 'no-such-branch'], {
      cwd: repoDir,
      encoding: 'utf8',
    });
    expect(result.stderr).toContain('base ref "no-such-branch" does not name a commit');
    expect(result.status).toBe(2);
  });
});
