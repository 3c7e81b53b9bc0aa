import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TargetKind } from '../ruleCatalogue/index.js';
import { RunSetupError } from '../run/runSetupError.js';
import type { SecretRedactor } from '../secrets/secretRedactor.js';
import { loadProfileFile, profileSecrets, scopeNames, type TargetProfile } from '../targetProfile/index.js';
import { startPrismTarget } from './prismTarget.js';
import type { RunningTarget } from './runningTarget.js';
import { embeddedSandboxProfile, loadSandboxModule, startSandboxTarget } from './sandboxTarget.js';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ResolvedTarget {
  readonly profile: TargetProfile;
  readonly kind: TargetKind;
  /** What the run started and must stop (the embedded sandbox, Prism). */
  readonly running?: RunningTarget;
  /** The directory of the profile file, where its provision command runs (a profile object: the working directory). */
  readonly directory: string;
}

export interface TargetChoice {
  /** `sandbox` (default, in-process), `prism`, or a profile file path. */
  readonly target?: string;
  /** Use this profile object instead of a file (programmatic use and tests). */
  readonly profile?: TargetProfile;
  readonly sandboxFault?: string;
  readonly sandboxVariant?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

/**
 * Loads the profile and starts what the target needs. Every secret met goes to `redactor` at once,
 * before anything could print it.
 */
export async function resolveTarget(choice: TargetChoice, redactor: SecretRedactor): Promise<ResolvedTarget> {
  const target = choice.target ?? 'sandbox';
  if (choice.profile) {
    redactor.add(...profileSecrets(choice.profile));
    return { profile: choice.profile, kind: 'real', directory: process.cwd() };
  }
  if (target === 'sandbox') {
    const sandbox = await loadSandboxModule();
    const base = embeddedSandboxProfile(sandbox.defaultSandboxProfile(), scopeNames());
    redactor.add(...profileSecrets(base));
    const running = await startSandboxTarget(base, {
      fault: choice.sandboxFault,
      variant: choice.sandboxVariant,
    });
    return {
      profile: { ...base, baseUrl: running.baseUrl },
      kind: 'sandbox',
      running,
      directory: process.cwd(),
    };
  }
  if (target === 'prism') {
    const profile = loadProfileFile(join(packageRoot, 'profiles', 'prism.yaml'), choice.env, redactor);
    const running = await startPrismTarget(choice.signal);
    return {
      profile: { ...profile, baseUrl: running.baseUrl },
      kind: 'prism',
      running,
      directory: join(packageRoot, 'profiles'),
    };
  }
  const profile = loadProfileFile(target, choice.env, redactor);
  return {
    profile,
    kind: profile.name === 'prism' ? 'prism' : 'real',
    directory: dirname(resolve(target)),
  };
}

/** A production profile runs only when the profile and the command line both allow it. */
export function productionGuard(profile: TargetProfile, allowProductionFlag: boolean): void {
  if (profile.environment !== 'production') return;
  if (profile.allowProduction === true && allowProductionFlag) return;
  const missing = [
    ...(profile.allowProduction === true ? [] : ['the profile sets "allowProduction: true"']),
    ...(allowProductionFlag ? [] : ['the command line passes --allow-production']),
  ];
  throw new RunSetupError(
    `Refusing to run against production profile "${profile.name}": it runs only when ${missing.join(' and ')}.`,
  );
}
