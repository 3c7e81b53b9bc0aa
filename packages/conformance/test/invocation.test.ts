import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cliInvocation, installedCliCommand } from '../src/run/invocation.js';

describe('cliInvocation: a printed command runs as printed from any directory', () => {
  it('pnpm conformance names the workspace it runs in', () => {
    const env = { npm_lifecycle_event: 'conformance', npm_config_user_agent: 'pnpm/10.34.9 npm/? node/v20' };
    expect(cliInvocation(env, ['node', '/repo/packages/conformance/dist/cli.js'], '/repo')).toBe(
      'pnpm -C /repo conformance',
    );
    expect(cliInvocation(env, ['node', 'x'], '/my repo')).toBe("pnpm -C '/my repo' conformance");
  });

  it('npx enters the project the package is installed in', () => {
    const script = '/home/me/app/node_modules/@cloud-api/conformance/dist/cli.js';
    expect(cliInvocation({ npm_command: 'exec' }, ['node', script], '/elsewhere')).toBe(
      'cd /home/me/app && npx --no -- cloud-api-conformance',
    );
  });

  it('a run started from code (the vitest adapter) prints the installed CLI by absolute path, which starts', () => {
    const command = installedCliCommand();
    expect(command).toMatch(/^node \/\S+\/bin\/cloud-api-conformance\.js$/);
    const started = spawnSync('sh', ['-c', `${command} --version`], { cwd: tmpdir(), encoding: 'utf8' });
    expect(started.status, started.stderr).toBe(0);
    expect(started.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('node gets the absolute path of the script, whatever path it was started with', () => {
    expect(cliInvocation({}, ['node', 'packages/conformance/dist/cli.js'], '/repo')).toBe(
      'node /repo/packages/conformance/dist/cli.js',
    );
    expect(cliInvocation({}, ['node', '../cli.js'], '/a/b')).toBe('node /a/cli.js');
  });
});
