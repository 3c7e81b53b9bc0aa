import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/run/engine.js';
import { RunSetupError } from '../src/run/runSetupError.js';
import type { TargetProfile } from '../src/targetProfile/index.js';
import { productionGuard } from '../src/targets/resolveTarget.js';

const production: TargetProfile = {
  name: 'prod',
  baseUrl: 'http://127.0.0.1:9/v1',
  environment: 'production',
  identities: { full: { token: 'svc_prod_key_guard_full', scopes: 'all', workspaces: 'all' } },
  workspaces: { primary: '1', secondary: '2' },
  billing: { skuCode: 's' },
};

describe('production guard', () => {
  it('runs a production profile only when the profile and the flag both allow it', () => {
    expect(() => productionGuard(production, true)).toThrow(/profile sets "allowProduction: true"/);
    expect(() => productionGuard({ ...production, allowProduction: true }, false)).toThrow(
      /passes --allow-production/,
    );
    expect(() => productionGuard(production, false)).toThrow(
      /allowProduction: true" and the command line passes --allow-production/,
    );
    expect(() => productionGuard({ ...production, allowProduction: true }, true)).not.toThrow();
    expect(() => productionGuard({ ...production, environment: 'development' }, false)).not.toThrow();
  });

  it('refuses before sending a single request', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
    try {
      await expect(
        runConformance({
          profile: { ...production, baseUrl },
          allowProduction: true,
          print: () => undefined,
        }),
      ).rejects.toBeInstanceOf(RunSetupError);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(requests).toBe(0);
  });
});
