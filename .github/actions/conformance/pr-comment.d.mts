// Types of pr-comment.mjs, for the test that imports it (docs/test/contractGateComment.test.ts).

export interface GateReport {
  readonly verdict: 'passed' | 'failed' | 'incomplete';
  readonly info?: {
    readonly runId?: string;
    readonly target?: string;
    readonly targetKind?: string;
    readonly profile?: { readonly environment?: string };
  };
  readonly totals: {
    readonly passed: number;
    readonly failed: number;
    readonly skipped: number;
    readonly inconclusive: number;
    readonly incomplete: number;
    readonly mustFailed: number;
    readonly shouldFailed: number;
  };
  readonly rules?: readonly {
    readonly id: string;
    readonly level: string;
    readonly title: string;
    readonly state: string;
  }[];
  readonly incompleteReasons?: readonly string[];
  readonly gate?: { readonly strict: boolean; readonly problems: readonly string[] };
}

export interface CommentContext {
  readonly artifactName: string;
  readonly artifactUrl?: string | undefined;
  readonly runUrl?: string | undefined;
  readonly verdict?: string | undefined;
  readonly exitCode?: string | number | undefined;
  readonly sha?: string | undefined;
  readonly secrets?: readonly string[];
}

export function commentMarker(artifactName: string): string;
export function cell(text: unknown): string;
export function commentBody(report: GateReport | undefined, context: CommentContext): string;
export function findMarkedComment<Comment extends { readonly body?: unknown }>(
  comments: readonly Comment[],
  marker: string,
): Comment | undefined;
export function postOrUpdate(options: {
  readonly api: string;
  readonly repository: string;
  readonly pullNumber: number;
  readonly token: string;
  readonly body: string;
  readonly marker: string;
}): Promise<{ readonly action: 'created' | 'updated'; readonly id: number }>;
