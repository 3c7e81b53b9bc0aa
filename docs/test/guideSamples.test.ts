// The TypeScript samples in the guides compile against the real client: the blocks of each guide
// are joined into one module, type-checked strictly, and any error fails the guide.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const docsDir = fileURLToPath(new URL('..', import.meta.url));
const guidesDir = join(docsDir, 'guides');
// Inside docs/ so that `@cloud-api/client` resolves through docs/node_modules.
const samplesDir = join(docsDir, 'reports', 'guide-samples');

/** The ```ts blocks of a guide, in order. */
function typeScriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

/**
 * One module per guide: imports hoisted and merged, the rest in order. A guide that uses a
 * client it does not create in its samples (it was created in "Getting started") gets one
 * declared.
 */
function sampleModule(blocks: string[]): string {
  const lines = blocks.join('\n').split('\n');
  const imports = [...new Set(lines.filter((line) => line.startsWith('import ')))];
  const body = lines.filter((line) => !line.startsWith('import '));
  const createsClient = body.some((line) => /\bconst cloud\b/.test(line));
  const usesClient = body.some((line) => /\bcloud\./.test(line));
  const preamble =
    usesClient && !createsClient
      ? ["import type { CloudClient } from '@cloud-api/client';", 'declare const cloud: CloudClient;']
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

const guides = readdirSync(guidesDir)
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ name, blocks: typeScriptBlocks(readFileSync(join(guidesDir, name), 'utf8')) }))
  .filter((guide) => guide.blocks.length > 0);

afterAll(() => rmSync(samplesDir, { recursive: true, force: true }));

describe('guide samples', () => {
  it('the client guides have TypeScript samples to check', () => {
    expect(guides.map((g) => g.name)).toEqual(
      expect.arrayContaining(['getting-started.md', 'async-operations.md', 'billing-preflight.md']),
    );
  });

  it.each(guides.map((g) => [g.name, g] as const))('%s compiles against @cloud-api/client', (name, guide) => {
    mkdirSync(samplesDir, { recursive: true });
    const file = join(samplesDir, name.replace(/\.md$/, '.mts'));
    writeFileSync(file, sampleModule(guide.blocks));
    expect(typeErrors(file)).toEqual([]);
  });

  it('a sample with a wrong option name is caught', () => {
    mkdirSync(samplesDir, { recursive: true });
    const file = join(samplesDir, 'broken.mts');
    writeFileSync(
      file,
      sampleModule([
        "import { createCloudClient } from '@cloud-api/client';\nconst cloud = createCloudClient({ token: 'x', workspace: '1042' });\n",
      ]),
    );
    expect(typeErrors(file).join('\n')).toMatch(/workspace/);
  });
});
