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
  const sandboxOptions = [
    ...(choice.sandboxFault !== undefined ? ['--sandbox-fault'] : []),
    ...(choice.sandboxVariant !== undefined ? ['--sandbox-variant'] : []),
  ];
  // Against any other target the option would change nothing, and the run would pass as if the
  // fault had been tried.
  if (sandboxOptions.length > 0 && (choice.profile || target !== 'sandbox'))
    throw new RunSetupError(
      `${sandboxOptions.join(' and ')} ${sandboxOptions.length > 1 ? 'start' : 'starts'} the embedded sandbox with a fault or a variant; they do not apply to ${choice.profile ? 'a profile object' : `--target ${target}`}. Drop them, or run against the embedded sandbox (--target sandbox).`,
    );
  if (choice.profile) {
    redactor.add(...profileSecrets(choice.profile));
    return { profile: choice.profile, kind: 'real', directory: process.cwd() };
  }
  if (target === 'sandbox') {
    const sandbox = await loadSandboxModule();
    knownOrRefused('--sandbox-fault', choice.sandboxFault, sandbox.faultCatalogue, '--list-faults');
    knownOrRefused('--sandbox-variant', choice.sandboxVariant, sandbox.variantCatalogue, '--list-variants');
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

/** An id the sandbox's catalogue does not hold is a mistyped option: said before anything starts. */
function knownOrRefused(
  option: string,
  id: string | undefined,
  catalogue: readonly { readonly id: string }[],
  listOption: string,
): void {
  if (id === undefined || catalogue.some((entry) => entry.id === id)) return;
  const near =
    id.length < 4
      ? []
      : catalogue.filter((entry) => entry.id.includes(id) || id.includes(entry.id)).map((e) => e.id);
  throw new RunSetupError(
    `${option} ${JSON.stringify(id)} is not in the sandbox's catalogue${near.length > 0 ? ` (did you mean ${near.slice(0, 3).join(', ')}?)` : ''}; the ${catalogue.length} ids are listed by \`cloud-api-sandbox ${listOption}\` (in this repository: pnpm sandbox ${listOption}).`,
  );
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
