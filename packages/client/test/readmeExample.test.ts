import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const examplePath = join(packageDir, 'examples', 'quickstart.ts');

describe('README usage example', () => {
  test.each([
    ['the package README', join(packageDir, 'README.md')],
    ['the repository README', join(packageDir, '..', '..', 'README.md')],
  ])('in %s is examples/quickstart.ts verbatim, at most ten lines', (_which, readmePath) => {
    const example = readFileSync(examplePath, 'utf8').trimEnd();
    const readme = readFileSync(readmePath, 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${example}\n\`\`\``);
    const body = example.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('import '));
    expect(body.length).toBeLessThanOrEqual(10);
  });

  test('compiles against the client source under the repo strict settings', { timeout: 60_000 }, () => {
    const configPath = join(packageDir, 'tsconfig.json');
    const config = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!config) throw new Error('tsconfig.json could not be read');
    const program = ts.createProgram([examplePath], {
      ...config.options,
      noEmit: true,
      // The example imports the package by name, as users will; compile it against the source.
      paths: { '@cloud-api/client': [join(packageDir, 'src', 'index.ts')] },
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });
});
