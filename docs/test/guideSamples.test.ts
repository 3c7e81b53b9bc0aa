// Every sample of the guides and of the generated reference is run, not only read: TypeScript
// samples are type-checked against the real client and executed with Node against the sandbox,
// HTTP samples are sent to the sandbox, curl samples run curl, shell samples are checked against
// the scripts and CLI options they name, and the profile the conformance guide shows is loaded.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProfileFile, MissingEnvironmentVariableError } from '@cloud-api/conformance';
import { createSandbox, defaultSandboxProfile } from '@cloud-api/sandbox';
import { loadOpenApiDocument, type OperationEntry, operationCatalogue } from '@cloud-api/spec';
import ts from 'typescript';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clientSample,
  curlSample,
  type SampleInputs,
  specSampleInputs,
} from '../src/reference/requestSamples.js';
import { findPnpmInvocations, missingScripts, workspaceScripts } from '../src/workflowChecks.js';

const docsDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(docsDir, '..');
const guidesDir = join(docsDir, 'guides');
// Inside docs/ so that `@cloud-api/client` resolves through docs/node_modules.
const samplesDir = join(docsDir, 'reports', 'guide-samples');
const conformanceCli = join(repoRoot, 'packages', 'conformance', 'dist', 'cli.js');
const exampleProfile = join(repoRoot, 'packages', 'conformance', 'profiles', 'staging.example.yaml');

const guides = readdirSync(guidesDir)
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ name, markdown: readFileSync(join(guidesDir, name), 'utf8') }));

function fencedBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (m) => m[1] as string,
  );
}

/**
 * One module per guide: imports hoisted and merged, the rest in order. A guide that uses the
 * client it created in "Getting started" gets that same client, from the same variables.
 */
function sampleModule(blocks: string[]): string {
  const lines = blocks.join('\n').split('\n');
  const imports = [...new Set(lines.filter((line) => line.startsWith('import ')))];
  const body = lines.filter((line) => !line.startsWith('import '));
  const createsClient = body.some((line) => /\bconst cloud\b/.test(line));
  const usesClient = body.some((line) => /\bcloud\./.test(line));
  const preamble =
    usesClient && !createsClient
      ? [
          "import { createCloudClient as createGuideClient } from '@cloud-api/client';",
          "const cloud = createGuideClient({ token: process.env.CLOUD_API_TOKEN ?? '', workspaceId: '1042', environments: { development: process.env.CLOUD_API_DEV_URL } });",
        ]
      : [];
  return [...imports, ...preamble, ...body, 'export {};', ''].join('\n');
}

function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    return where ? `line ${where.line + 1}: ${text}` : text;
  });
}

const sandboxProfile = defaultSandboxProfile();
const sandbox = createSandbox({ profile: sandboxProfile, fault: undefined, variant: undefined });
let sandboxUrl = '';
let closeSandbox: () => Promise<void> = async () => {};
let sampleEnv: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  const running = await sandbox.listen(0);
  sandboxUrl = running.url;
  closeSandbox = running.close;
  const token = running.profile.identities.full?.token ?? '';
  sampleEnv = {
    PATH: process.env.PATH,
    CLOUD_API_TOKEN: token,
    CLOUD_API_DEV_URL: sandboxUrl,
    CLOUD_API_BASE_URL: sandboxUrl,
  };
  mkdirSync(samplesDir, { recursive: true });
});
// Each sample starts from the sandbox's seeded state: a delete or release sample consumes its resource.
beforeEach(() => sandbox.reset());
afterAll(async () => {
  await closeSandbox();
  rmSync(samplesDir, { recursive: true, force: true });
});

/** Runs a command without blocking: the sandbox answering it lives in this process. */
function runCommand(
  command: string,
  args: readonly string[],
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { env: sampleEnv, encoding: 'utf8', timeout: 20_000 },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ status, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** Type-checks a TypeScript sample, then runs it with Node against the sandbox. */
async function runTypeScript(
  name: string,
  source: string,
): Promise<{ errors: string[]; status: number | null; output: string }> {
  const file = join(samplesDir, `${name}.mts`);
  writeFileSync(file, source);
  const errors = typeErrors(file);
  const compiled = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const script = join(samplesDir, `${name}.mjs`);
  writeFileSync(script, compiled);
  return { errors, ...(await runCommand(process.execPath, [script])) };
}

describe('TypeScript samples of the guides', () => {
  const withSamples = guides.filter((guide) => fencedBlocks(guide.markdown, 'ts').length > 0);

  it('the client guides have TypeScript samples', () => {
    expect(withSamples.map((guide) => guide.name)).toEqual(
      expect.arrayContaining(['getting-started.md', 'async-operations.md', 'billing-preflight.md']),
    );
  });

  it.each(withSamples.map((guide) => [guide.name, guide] as const))(
    '%s type-checks and runs against the sandbox',
    async (name, guide) => {
      const result = await runTypeScript(
        name.replace(/\.md$/, ''),
        sampleModule(fencedBlocks(guide.markdown, 'ts')),
      );
      expect(result.errors).toEqual([]);
      expect(result.output).not.toMatch(/Error/);
      expect(result.status, result.output).toBe(0);
    },
  );

  it('a sample with a wrong option name fails the type check', async () => {
    const result = await runTypeScript(
      'broken',
      sampleModule([
        "import { createCloudClient } from '@cloud-api/client';\nconst cloud = createCloudClient({ token: 'x', workspace: '1042' });\n",
      ]),
    );
    expect(result.errors.join('\n')).toMatch(/workspace/);
  });

  it('a sample the sandbox refuses fails the run', async () => {
    const result = await runTypeScript(
      'refused',
      sampleModule([
        "const cloud = 1;\nawait (await import('@cloud-api/client')).createCloudClient({ token: 'svc_dev_key_nope', workspaceId: '1042', environments: { development: process.env.CLOUD_API_DEV_URL } }).listBuckets();\n",
      ]),
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/401|token/i);
  });
});

/** An HTTP sample: request line, headers, blank line, body; a block of headers only probes list buckets. */
function parseHttpSample(sample: string): {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
} {
  const [head = '', body] = sample.trim().split(/\n\n/);
  const lines = head.split('\n');
  const requestLine = /^([A-Z]+) (\S+)$/.exec(lines[0] ?? '');
  const headerLines = requestLine ? lines.slice(1) : lines;
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    }),
  );
  return {
    method: requestLine?.[1] ?? 'GET',
    path: requestLine?.[2] ?? '/object-storage/buckets?workspace_id=1042',
    headers,
    ...(body !== undefined ? { body } : {}),
  };
}

describe('HTTP samples of the guides', () => {
  const samples = guides.flatMap((guide) =>
    fencedBlocks(guide.markdown, 'http').map((sample) => [guide.name, sample] as const),
  );

  it('there are HTTP samples to send', () => {
    expect(samples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(samples)('%s: the sample is answered with a success by the sandbox', async (_guide, sample) => {
    const request = parseHttpSample(sample.replaceAll('<API_TOKEN>', sampleEnv.CLOUD_API_TOKEN ?? ''));
    const response = await fetch(`${sandboxUrl}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    expect(response.status, await response.text()).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);
  });
});

/** The sandbox's own resources in place of the spec's example ids (which the sandbox does not hold). */
function sandboxInputs(operation: OperationEntry, index: number): SampleInputs {
  const resources = sandboxProfile.resources ?? {};
  const spec = specSampleInputs(operation, loadOpenApiDocument());
  const rule = resources.natRules?.[index];
  const ids: Record<string, string | undefined> = {
    vm_id: (operation.method === 'delete' ? resources.deletableGpuVmIds : resources.gpuVmIds)?.[index],
    restore_id: resources.restoreIds?.[index],
    vpc_id: rule?.vpcId,
    nat_gateway_id: rule?.natGatewayId,
    port_forwarding_rule_id: rule?.ruleId,
    reserved_ip_id: resources.releasableReservedIpIds?.[index],
  };
  return {
    ...spec,
    pathParameters: Object.fromEntries(operation.pathParameters.map((name) => [name, ids[name] ?? ''])),
  };
}

describe('request samples of the API reference', () => {
  const operations = operationCatalogue(loadOpenApiDocument());

  it('gives each operation that needs X-Idempotency-Key a key of its own in its samples', () => {
    const keyed = operations.filter((operation) => operation.idempotencyKeyRequired);
    expect(keyed.length).toBeGreaterThan(1);
    const keys = keyed.map((operation) => {
      const sample = curlSample(operation, specSampleInputs(operation, loadOpenApiDocument()));
      return /X-Idempotency-Key: ([0-9a-f-]{36})"/.exec(sample)?.[1];
    });
    expect(keys.every((key) => key !== undefined)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(operations.map((operation) => [operation.operationId, operation] as const))(
    '%s: the curl sample succeeds against the sandbox',
    async (_id, operation) => {
      const run = await runCommand('sh', [
        '-c',
        curlSample(operation, sandboxInputs(operation, 0)).replace('curl ', 'curl --silent --show-error '),
      ]);
      expect(run.status, run.output).toBe(0);
    },
  );

  it.each(operations.map((operation) => [operation.operationId, operation] as const))(
    '%s: the client sample type-checks and runs against the sandbox',
    async (id, operation) => {
      const result = await runTypeScript(
        `reference-${id}`,
        clientSample(operation, sandboxInputs(operation, 1)),
      );
      expect(result.errors).toEqual([]);
      expect(result.status, result.output).toBe(0);
    },
  );
});

describe('shell samples and the profile of the conformance guide', () => {
  const commands = guides.flatMap((guide) => [
    ...fencedBlocks(guide.markdown, 'sh').flatMap((block) =>
      block.split('\n').filter((line) => line.startsWith('pnpm ')),
    ),
    ...[...guide.markdown.matchAll(/`(pnpm [^`]+)`/g)].map((match) => match[1] as string),
  ]);
  const help = spawnSync(process.execPath, [conformanceCli, '--help'], { encoding: 'utf8' }).stdout;

  it('every pnpm command of the guides runs a script that exists', () => {
    expect(commands.length).toBeGreaterThan(5);
    const invocations = commands.flatMap((command) => findPnpmInvocations(command));
    expect(missingScripts(invocations, workspaceScripts(repoRoot))).toEqual([]);
  });

  it('every option a guide passes to the conformance CLI is one the CLI has', () => {
    expect(help).toContain('--target');
    const options = commands
      .filter((command) => command.startsWith('pnpm conformance '))
      .flatMap((command) => [...command.matchAll(/(--[a-z-]+)/g)].map((match) => match[1] as string));
    expect(options).toEqual(expect.arrayContaining(['--target', '--replay', '--out']));
    expect(options.filter((option) => !help.includes(option))).toEqual([]);
  });

  it('the replay path the guide shows is where the CLI writes replay files', () => {
    const guide = guides.find((entry) => entry.name === 'conformance.md')?.markdown ?? '';
    const replays = [...guide.matchAll(/--replay (\S+?)[`\s]/g)].map((match) => match[1] as string);
    const replay = replays.find((path) => path.startsWith('reports/')) ?? '';
    expect(replay).toMatch(/^reports\/replays\/[A-Z]+-\d+-\d+\.json$/);
    const writer = readFileSync(join(repoRoot, 'packages/conformance/src/run/replayFile.ts'), 'utf8');
    expect(writer).toMatch(/join\(runDir, 'replays'\)/);
    expect(writer).toMatch(/`\$\{report\.rule\}-\$\{stamp\}\.json`/);
  });

  it('the example profile the guide includes loads with its variables set, and names an unset optional one', () => {
    const guide = guides.find((entry) => entry.name === 'conformance.md')?.markdown ?? '';
    expect(guide).toContain('<<< ../../packages/conformance/profiles/staging.example.yaml');
    const text = readFileSync(exampleProfile, 'utf8');
    const variables = [
      ...new Set([...text.matchAll(/^[^#\n]*\$\{([A-Z0-9_]+)\}/gm)].map((m) => m[1] as string)),
    ];
    const env = Object.fromEntries(
      variables.map((name) => [
        name,
        name.startsWith('PRODUCTION') ? 'svc_prod_key_example' : `svc_dev_key_${name.toLowerCase()}`,
      ]),
    );
    const profile = loadProfileFile(exampleProfile, env);
    expect(Object.keys(profile.identities)).toEqual([
      'full',
      'noVmWrite',
      'noBilling',
      'readOnly',
      'primaryOnly',
      'secondaryOnly',
    ]);
    // The guide's table lists exactly the profile's variables.
    for (const name of variables) expect(guide).toContain(`\`${name}\``);
    // As the guide says: an unset variable stops the run, so an optional token's line is deleted instead.
    const { STAGING_TOKEN_REVOKED: _revoked, ...withoutRevoked } = env;
    expect(() => loadProfileFile(exampleProfile, withoutRevoked)).toThrow(MissingEnvironmentVariableError);
    const trimmed = join(samplesDir, 'without-revoked.yaml');
    writeFileSync(
      trimmed,
      text
        .replace(/^revokedToken: .*\n/m, '')
        .replace('$schema: ../schema/', '$schema: ../../../packages/conformance/schema/'),
    );
    expect(loadProfileFile(trimmed, withoutRevoked).revokedToken).toBeUndefined();
  });
});
