import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const srcDir = join(packageRoot, 'src');
const cli = join(packageRoot, 'dist', 'cli.js');
const forbidVitest = join(packageRoot, 'test', 'fixtures', 'forbidVitest.mjs');
const ADAPTER = 'adapters/vitest.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Relative imports (type-only ones too) of each source file, as paths under src/. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(srcDir)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)].map((match) =>
      relative(srcDir, resolve(dirname(file), (match[1] as string).replace(/\.js$/, '.ts'))),
    );
    graph.set(relative(srcDir, file), targets);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, as the list of modules around it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('the engine owns the run: vitest only at the edge', () => {
  it('no source file but the vitest adapter imports vitest or uses its run hooks', () => {
    const offenders = sourceFiles(srcDir)
      .filter((file) => relative(srcDir, file) !== ADAPTER)
      .filter((file) =>
        /from\s+'vitest(\/[^']*)?'|import\('vitest|\binject\(|task\.meta|createVitest/.test(
          readFileSync(file, 'utf8'),
        ),
      )
      .map((file) => relative(srcDir, file));
    expect(offenders).toEqual([]);
    // The adapter is where vitest is used, so the scan above can see an import.
    expect(readFileSync(join(srcDir, ADAPTER), 'utf8')).toMatch(/from 'vitest'/);
  });

  it('has no import cycle between modules', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(50);
    expect(cycles(graph)).toEqual([]);
    // The walk does find a cycle when there is one.
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'a']]);
  });

  it('runs a CLI check against the sandbox without resolving the vitest module at all', () => {
    const blocked = spawnSync(process.execPath, ['--import', forbidVitest, '-e', "await import('vitest')"], {
      encoding: 'utf8',
      input: '',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(blocked.status).not.toBe(0);
    expect(blocked.stderr).toMatch(/vitest was resolved: vitest/);

    const run = spawnSync(
      process.execPath,
      ['--import', forbidVitest, cli, '--rules', 'WS-1,RESP-3', '--depth', '2', '--seed', '3'],
      { encoding: 'utf8', timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(run.stderr).not.toMatch(/vitest was resolved/);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Verdict: PASSED/);
    expect(run.stdout).toMatch(/WS-1\s+MUST\s+PASS/);
  });
});
