import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createIdentifierAudit, type IdentifierAudit } from '../checks/identifierAudit.js';
import { createKeyedCreateLog } from '../checks/keyedCreateLog.js';
import { createNatRuleRecords } from '../checks/natRuleRecords.js';
import { createSchemaAudit, type SchemaAudit } from '../checks/schemaAudit.js';
import { createServedBucketLists } from '../checks/servedBucketLists.js';
import { createServedRestoreLog } from '../checks/servedRestoreLog.js';
import type { SecretRedactor } from '../secrets/secretRedactor.js';
import { planResources } from '../session/resourcePlan.js';
import { createSession, type Session } from '../session/session.js';
import { createOperationRoutes, routeExchanges } from '../spec/operationRoutes.js';
import { bundledResponseValidator } from '../spec/responseValidator.js';
import { createCoverageRecorder } from '../specCoverage/coverageRecorder.js';
import { type ProfileResources, redactProfile, type TargetProfile } from '../targetProfile/index.js';
import {
  productionGuard,
  type ResolvedTarget,
  resolveTarget,
  type TargetChoice,
} from '../targets/resolveTarget.js';
import type { Exchange } from '../transport/exchange.js';
import { proxyRoute, proxySecrets } from '../transport/proxyAgents.js';
import { createTargetHttp, DEFAULT_REQUEST_TIMEOUT_MS } from '../transport/targetHttp.js';
import { IDLE_CONNECTION_MS } from '../transport/wireClient.js';
import type { CheckRunEnvironment } from './checkRunner.js';
import { installedCliCommand, shellQuoted } from './invocation.js';
import type { CreatedRecord } from './outcome.js';
import { effectiveConcurrency } from './plan.js';
import { provisionResources } from './provisionResources.js';
import type { RecordedTarget, ReplayCase } from './replayFile.js';

export interface RunSettings extends TargetChoice {
  readonly depth: number;
  readonly seed: number;
  readonly concurrency?: number;
  readonly allowProduction?: boolean;
  /** Absolute time (ms since the epoch) after which nothing more is sent. */
  readonly deadlineAt: number;
  readonly runDir: string;
  readonly replay?: ReplayCase;
  /** Written into every file the run leaves (replay files, the created-resources log). */
  readonly runId?: string;
  /** How the user runs the CLI, for the replay commands printed with failures. */
  readonly invocation?: string;
  /**
   * Run with the session on the profile's own resources, before its provision command: the
   * engine's preflight, so nothing is provisioned for a base URL that does not serve the API.
   */
  readonly preflight?: (session: Session) => Promise<void>;
  /** Lines for the user while the run is prepared (a provision command's stderr), already redacted. */
  readonly notice?: (line: string) => void;
}

/** A started target and the session its checks share; `close` stops what was started. */
export interface PreparedRun {
  readonly target: ResolvedTarget;
  readonly session: Session;
  readonly schemaAudit: SchemaAudit;
  /** Every acceptance record of the run, for ASYNC-4 (never drained: the rule spans the run). */
  readonly identifierAudit: IdentifierAudit;
  readonly environment: CheckRunEnvironment;
  /** What the checks created, as recorded (already redacted). */
  readonly created: CreatedRecord[];
  close(): Promise<void>;
}

/**
 * Resolves and starts the target, refuses a production profile without both permissions, and
 * builds the run's session: its transport (paced, bounded, within the deadline), validator,
 * recorders. Shared by the engine and the vitest adapter.
 */
export async function prepareRun(
  settings: RunSettings,
  redactor: SecretRedactor,
  onExchange?: (exchange: Exchange) => void,
): Promise<PreparedRun> {
  const target = await resolveTarget(settings, redactor);
  try {
    productionGuard(target.profile, settings.allowProduction === true);
    const { profile } = target;
    const validator = bundledResponseValidator();
    const coverage = createCoverageRecorder();
    const schemaAudit = createSchemaAudit(validator);
    const identifierAudit = createIdentifierAudit();
    const keyedCreates = createKeyedCreateLog();
    const servedRestores = createServedRestoreLog();
    const servedBucketLists = createServedBucketLists();
    const natRuleRecords = createNatRuleRecords();
    const routed = routeExchanges(createOperationRoutes(validator.operations), [
      coverage,
      schemaAudit,
      identifierAudit,
      keyedCreates,
      servedRestores,
      servedBucketLists,
      natRuleRecords,
    ]);
    const concurrency = effectiveConcurrency(settings.concurrency, profile);
    // A profile's target is reached as the environment says (a corporate proxy); a target the run
    // started itself listens on loopback, where no proxy could reach it.
    const route =
      target.kind === 'real' ? proxyRoute(new URL(profile.baseUrl), IDLE_CONNECTION_MS) : undefined;
    redactor.add(...proxySecrets(route?.proxyUrl));
    const http = createTargetHttp({
      ...(route?.agent ? { agent: route.agent } : {}),
      ...(route?.freshAgent ? { freshAgent: route.freshAgent } : {}),
      ...(route?.proxyUrl && route.variable
        ? { proxy: { url: route.proxyUrl, variable: route.variable } }
        : {}),
      onExchange: onExchange
        ? (exchange) => {
            routed(exchange);
            onExchange(exchange);
          }
        : routed,
      // Shown to the reporters only: a 429 waited out is no answer any audit or check reads.
      ...(onExchange ? { onRetriedRefusal: onExchange } : {}),
      baseUrl: profile.baseUrl,
      requestTimeoutMs: profile.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      deadlineAt: settings.deadlineAt,
      maxInFlight: concurrency,
      ...(profile.rateLimitPerSecond ? { rateLimitPerSecond: profile.rateLimitPerSecond } : {}),
      ...(profile.maxResponseBytes ? { maxResponseBytes: profile.maxResponseBytes } : {}),
    });
    const sessionOn = (runProfile: TargetProfile, freshResources?: string): Session =>
      createSession({
        profile: runProfile,
        targetKind: target.kind,
        http,
        plan: planResources(runProfile),
        ...(freshResources ? { freshResources } : {}),
        validator,
        redactor,
        coverage,
        keyedCreates,
        servedRestores,
        servedBucketLists,
        natRuleRecords,
        depth: settings.replay?.depth ?? settings.depth,
        seed: settings.replay?.seed ?? settings.seed,
        concurrency,
      });
    let session = sessionOn(
      profile,
      target.kind === 'sandbox' ? 'made by the embedded sandbox, started for this run' : undefined,
    );
    await settings.preflight?.(session);
    if (profile.provision) {
      const resources = await provisioned(profile, target.directory, settings, redactor);
      session = sessionOn(
        { ...profile, resources },
        "handed out for this run by the profile's provision command",
      );
    }
    const created: CreatedRecord[] = [];
    const recorded = recordedTargetOf(settings, profile, redactor);
    const environment: CheckRunEnvironment = {
      session,
      schemaAudit,
      runDir: settings.runDir,
      recordedTarget: recorded,
      ...(settings.runId ? { runId: settings.runId } : {}),
      replayCommand(file) {
        const target =
          recorded.target === PROFILE_OBJECT ? '<your profile file>' : shellQuoted(recorded.target);
        return redactor.redact(
          [
            settings.invocation ?? installedCliCommand(),
            '--replay',
            shellQuoted(resolve(file)),
            '--target',
            target,
            ...(recorded.sandboxFault ? ['--sandbox-fault', recorded.sandboxFault] : []),
            ...(recorded.sandboxVariant ? ['--sandbox-variant', recorded.sandboxVariant] : []),
          ].join(' '),
        );
      },
      ...(settings.replay ? { replay: settings.replay } : {}),
      recordCreated(record) {
        // A failure's re-run may be answered with a resource already recorded: listed once.
        if (created.some((seen) => JSON.stringify(seen) === JSON.stringify(record))) return;
        created.push(record);
        // Also on disk as it happens: a run killed outright still leaves what it created.
        mkdirSync(settings.runDir, { recursive: true });
        appendFileSync(
          join(settings.runDir, 'created.jsonl'),
          `${redactor.redact(JSON.stringify({ ...record, ...(settings.runId ? { runId: settings.runId } : {}) }))}\n`,
        );
      },
    };
    return {
      target,
      session,
      schemaAudit,
      identifierAudit,
      environment,
      created,
      close: async () => {
        await target.running?.stop().catch(() => undefined);
      },
    };
  } catch (error) {
    await target.running?.stop().catch(() => undefined);
    throw error;
  }
}

/** The resources the profile's provision command hands this run, said in one line. */
async function provisioned(
  profile: TargetProfile,
  directory: string,
  settings: RunSettings,
  redactor: SecretRedactor,
): Promise<ProfileResources> {
  const notice = settings.notice ?? ((line: string) => process.stderr.write(`${line}\n`));
  const started = performance.now();
  const resources = await provisionResources({
    profile,
    cwd: directory,
    env: settings.env ?? process.env,
    redactor,
    signal: settings.signal,
    runId: settings.runId,
    onStderrLine: (line) => notice(`provision: ${line}`),
  });
  const counts = Object.entries(resources)
    .map(([field, value]) =>
      Array.isArray(value) ? `${value.length} ${field}` : `${field}: ${String(value)}`,
    )
    .join(', ');
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  notice(
    redactor.redact(
      `provision: this run uses the resources its command handed out (${counts || 'none'}; ${seconds} s)`,
    ),
  );
  return resources;
}

/** What a replay file records for a run given a profile object rather than a file. */
export const PROFILE_OBJECT = '(profile object)';

/** A digest of what a profile says apart from its secrets (and the embedded targets' random ports). */
export function profileDigest(profile: TargetProfile, redactor: SecretRedactor, kind: string): string {
  const stable = kind === 'real' ? redactProfile(profile, redactor) : { kind };
  return createHash('sha256').update(JSON.stringify(stable)).digest('hex').slice(0, 16);
}

/** The target a replay file records: as `--target` named it (a profile by its absolute path), never a token. */
function recordedTargetOf(
  settings: RunSettings,
  profile: TargetProfile,
  redactor: SecretRedactor,
): RecordedTarget {
  const named = settings.target ?? 'sandbox';
  const target = settings.profile
    ? PROFILE_OBJECT
    : named === 'sandbox' || named === 'prism'
      ? named
      : resolve(named);
  const kind = settings.profile || (named !== 'sandbox' && named !== 'prism') ? 'real' : named;
  return {
    target,
    profileDigest: profileDigest(profile, redactor, kind),
    ...(settings.sandboxFault ? { sandboxFault: settings.sandboxFault } : {}),
    ...(settings.sandboxVariant ? { sandboxVariant: settings.sandboxVariant } : {}),
  };
}
