import type { CheckResult } from '../checks/check.js';
import type { RunOutcome } from './outcome.js';

/** A check as events name it. */
export interface CheckRef {
  readonly rule: string;
  readonly title: string;
}

/** A body as an `exchange` event carries it: redacted, then cut at EXCHANGE_BODY_LIMIT characters. */
export interface ObservedBody {
  readonly text: string;
  /** Bytes of the whole body as the target sent it (HAR's `size`), before redaction and any cut. */
  readonly size: number;
  readonly truncated: boolean;
}

/** One request and its answer, as reporters that observe exchanges see them (already redacted). */
export interface ObservedExchange {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: ObservedBody;
  };
  readonly response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: ObservedBody;
  };
}

/**
 * What a run tells its reporters, in order: `run-start`, then per check `check-start`, its
 * `exchange`s and `check-end`, then `run-end` with the whole outcome. Every text in an event is
 * already redacted.
 */
export type RunEvent =
  | {
      readonly type: 'run-start';
      readonly runId: string;
      readonly target: string;
      readonly targetKind: string;
      readonly seed: number;
      readonly depth: number;
      readonly concurrency: number;
      /** The checks the run plans to take, in order. */
      readonly checks: readonly CheckRef[];
    }
  | { readonly type: 'check-start'; readonly check: CheckRef }
  | ({
      readonly type: 'exchange';
      readonly check: CheckRef;
      readonly method: string;
      readonly url: string;
      readonly status: number;
      readonly durationMs: number;
      /** When it went on the wire (ISO 8601). */
      readonly startedAt: string;
      /** The spec operation it went to; absent for a path the spec does not have. */
      readonly operationId?: string;
    } & ObservedExchange)
  | { readonly type: 'check-end'; readonly result: CheckResult }
  | { readonly type: 'run-end'; readonly outcome: RunOutcome };

/** One request of a check, with headers and bodies: built only when a reporter observes exchanges. */
export type ExchangeEvent = Extract<RunEvent, { type: 'exchange' }>;

/** Where a reporter may write: every way out passes through the run's redactor. */
export interface ReportContext {
  readonly outDir: string;
  /** Whether the user chose `outDir` (`--out`); otherwise it is a temporary directory. */
  readonly outDirChosen: boolean;
  print(text: string): void;
  /** Writes `name` under the output directory and returns its path. */
  writeFile(name: string, text: string): string;
  /** Appends to `name` under the output directory (created empty first), for a file that grows as the run goes. */
  appendFile(name: string, text: string): string;
}

/** The one extension point for output: a reporter is told every event of the run. */
export interface Reporter {
  readonly name: string;
  /** Whether it wants `exchange` events (one per request): they are built only when one does. */
  readonly observesExchanges?: boolean;
  onEvent(event: RunEvent, context: ReportContext): void;
}
