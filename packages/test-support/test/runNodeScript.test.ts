import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNodeScript } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'run-node-script-'));
const script = (name: string, source: string) => {
  const file = join(dir, name);
  writeFileSync(file, source);
  return file;
};

describe('runNodeScript', () => {
  it('collects stdout, stderr, the exit code, and passes arguments and environment', async () => {
    const file = script(
      'echo.mjs',
      'console.log(process.argv.slice(2).join(","), process.env.GREETING); console.error("to stderr"); process.exit(3);',
    );
    const run = await runNodeScript(file, ['a', 'b'], { env: { ...process.env, GREETING: 'hi' } });
    expect(run).toEqual({
      code: 3,
      signal: null,
      lifetimeMs: expect.any(Number),
      stdout: 'a,b hi\n',
      stderr: 'to stderr\n',
    });
  });

  it('sends the signal once the program prints the text, and reports how it ended', async () => {
    const file = script(
      'serve.mjs',
      'process.on("SIGINT", () => { console.log("stopped"); process.exit(130); }); console.log("ready"); setInterval(() => {}, 1000);',
    );
    const run = await runNodeScript(file, [], { signalWhenOutput: { text: 'ready', signal: 'SIGINT' } });
    expect(run.code).toBe(130);
    expect(run.stdout).toBe('ready\nstopped\n');
  });

  it('kills a program that outlives its timeout', async () => {
    const file = script('hang.mjs', 'setInterval(() => {}, 1000);');
    const run = await runNodeScript(file, [], { timeoutMs: 300 });
    expect(run.signal).toBe('SIGKILL');
  });
});
