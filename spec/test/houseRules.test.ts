// The house lint rules in redocly.yaml fire: each is run on a temporary copy of the spec sources
// broken in exactly the way the rule forbids. The real spec lints clean (the `lint` script).
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const specRoot = fileURLToPath(new URL('..', import.meta.url));
const redocly = join(specRoot, 'node_modules/.bin/redocly');
const run = promisify(execFile);
const copies: string[] = [];

type EditFile = (path: string, change: (text: string) => string) => void;

/** Lints a copy of the sources after `edit` and returns the ids of the rules that reported. */
async function lintBroken(edit: (file: EditFile) => void): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'spec-house-rules-'));
  copies.push(dir);
  for (const entry of ['openapi.yaml', 'paths', 'components', 'gaps', 'lint', 'redocly.yaml']) {
    cpSync(join(specRoot, entry), join(dir, entry), { recursive: true });
  }
  edit((path, change) => {
    const full = join(dir, path);
    const before = readFileSync(full, 'utf8');
    const after = change(before);
    if (after === before) throw new Error(`The edit of ${path} changed nothing`);
    writeFileSync(full, after);
  });
  const out = await run(redocly, ['lint', 'openapi.yaml', '--format', 'json'], {
    cwd: dir,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
  }).catch((error: { stdout: string }) => error);
  const report = JSON.parse(out.stdout.slice(out.stdout.indexOf('{'))) as { problems: { ruleId: string }[] };
  return report.problems.map((p) => p.ruleId);
}

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('house lint rules', () => {
  it.concurrent.each([
    [
      'rule/operation-exactly-one-scope',
      'an operation naming two scopes',
      (file: EditFile) =>
        file('paths/cloud-vms/get-cloud-vm-snapshot-restore.yaml', (t) =>
          t.replace('[vm.read]', '[vm.read, vm.write]'),
        ),
    ],
    [
      'rule/operation-takes-workspace-id',
      'an operation without workspace_id',
      (file: EditFile) =>
        file('paths/object-storage/list-buckets.yaml', (t) =>
          t.replace(
            '    - $ref: ../../components/parameters/WorkspaceId.yaml\n',
            '    - $ref: ../../components/parameters/VmId.yaml\n',
          ),
        ),
    ],
    [
      'rule/error-responses-use-error-schema',
      'a 409 with its own schema',
      (file: EditFile) =>
        file('components/responses/Conflict.yaml', (t) =>
          t.replace('$ref: ../schemas/ErrorDetail.yaml', 'type: object'),
        ),
    ],
    [
      'rule/async-vm-operation-answers-202',
      'create cloud VM answering 201',
      (file: EditFile) =>
        file('paths/cloud-vms/create-cloud-vm.yaml', (t) => t.replace("    '202':", "    '201':")),
    ],
    [
      'rule/async-vm-operation-returns-acceptance-record',
      'delete GPU VM answering 202 with another schema',
      (file: EditFile) =>
        file('paths/gpu-vms/delete-gpu-vm.yaml', (t) =>
          t.replace(
            '$ref: ../../components/schemas/OperationAcceptance.yaml',
            '$ref: ../../components/schemas/Bucket.yaml',
          ),
        ),
    ],
    [
      'rule/async-vm-operation-requires-idempotency-key',
      'delete GPU VM without the idempotency key',
      (file: EditFile) =>
        file('paths/gpu-vms/delete-gpu-vm.yaml', (t) =>
          t.replace(/ {4}- name: X-Idempotency-Key\n(?: {6}.*\n)+/, ''),
        ),
    ],
    [
      'rule/async-vm-operation-marked',
      'create cloud VM not marked x-async',
      (file: EditFile) =>
        file('paths/cloud-vms/create-cloud-vm.yaml', (t) => t.replace('  x-async: true\n', '')),
    ],
    [
      'rule/error-responses-have-json-body',
      'a 404 without a body',
      (file: EditFile) =>
        file('components/responses/NotFound.yaml', (t) => `${t.slice(0, t.indexOf('content:')).trimEnd()}\n`),
    ],
    [
      'rule/operation-x-scope',
      'an operation without x-scope',
      (file: EditFile) =>
        file('paths/reserved-ips/release-reserved-ip.yaml', (t) =>
          t.replace('  x-scope: network.write\n', ''),
        ),
    ],
  ])('%s fires on %s', async (rule, _label, edit) => {
    expect(await lintBroken(edit)).toContain(rule);
  });
});
