import { type Static, type TProperties, Type } from '@sinclair/typebox';

/**
 * The lines `--reporter ndjson` writes, defined once in TypeBox: the same definition is the
 * published schema/conformance-events.schema.json (generated, with a drift test) and, through
 * `Static`, the type the reporter builds its lines as, so the two cannot drift apart.
 *
 * Versioning: every line carries `version`. Adding an optional field keeps the version; removing
 * or renaming a field, changing its meaning or adding a required one raises it.
 */
export const NDJSON_EVENTS_VERSION = 1;

const Text = Type.String();
const Count = Type.Integer({ minimum: 0 });
const Millis = Type.Number({ minimum: 0, description: 'Milliseconds.' });
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC.' });

const CheckRef = Type.Object(
  {
    rule: Type.String({ pattern: '^[A-Z]+-\\d+$', description: 'The rule ID of the catalogue.' }),
    title: Type.String({ description: 'The check, named as reports and --replay name it.' }),
  },
  { additionalProperties: false },
);

const CheckState = Type.Union(
  [
    Type.Literal('passed'),
    Type.Literal('failed'),
    Type.Literal('skipped'),
    Type.Literal('inconclusive'),
    Type.Literal('incomplete'),
  ],
  {
    description:
      'inconclusive: ran, saw no evidence either way (never a pass); incomplete: did not finish (deadline, interrupt, no answer).',
  },
);

/** The fields every line has, then the line's own. */
function event<Name extends string, Fields extends TProperties>(
  type: Name,
  description: string,
  fields: Fields,
) {
  return Type.Object(
    {
      version: Type.Literal(NDJSON_EVENTS_VERSION, { description: 'The version of this schema.' }),
      type: Type.Literal(type),
      time: Type.String({ format: 'date-time', description: 'When the reporter was told (ISO 8601, UTC).' }),
      runId: Type.String({ description: 'The run, as every file it leaves names it.' }),
      ...fields,
    },
    { additionalProperties: false, description },
  );
}

const Failure = Type.Object(
  {
    message: Text,
    seed: Type.Optional(Type.Integer()),
    path: Type.Optional(Type.String({ description: 'The fast-check path of the shrunk counterexample.' })),
    counterexample: Type.Optional(Text),
    replayFile: Type.Optional(Text),
    replayCommand: Type.Optional(
      Type.String({ description: 'The command that re-runs exactly this case, as the terminal prints it.' }),
    ),
  },
  { additionalProperties: false },
);

const Totals = Type.Object(
  {
    passed: Count,
    failed: Count,
    skipped: Count,
    inconclusive: Count,
    incomplete: Count,
    mustFailed: Count,
    shouldFailed: Count,
  },
  { additionalProperties: false, description: 'Rules by state.' },
);

export const RunStartLine = event('run-start', 'The run started: its target and the checks it plans.', {
  suiteVersion: Text,
  suiteBuild: Type.Optional(
    Type.String({
      description: "A digest of the check modules' code: runs of one version whose checks differ say so.",
    }),
  ),
  target: Type.String({ description: "The profile's name (never a token)." }),
  targetKind: Type.Union([Type.Literal('sandbox'), Type.Literal('prism'), Type.Literal('real')]),
  seed: Type.Integer(),
  depth: Type.Integer({ minimum: 1 }),
  concurrency: Type.Integer({ minimum: 1 }),
  checks: Type.Array(CheckRef),
});

export const CheckStartLine = event('check-start', 'A check started.', { check: CheckRef });

export const ExchangeLine = event(
  'exchange',
  'One request of the check in progress and its answer, summarised (the HAR reporter has headers and bodies).',
  {
    check: CheckRef,
    method: Text,
    url: Type.String({ description: 'Secrets masked.' }),
    status: Type.Integer({ minimum: 100, maximum: 599 }),
    durationMs: Millis,
    startedAt: Timestamp,
    operationId: Type.Optional(
      Type.String({ description: 'The spec operation; absent for a path the spec does not have.' }),
    ),
  },
);

export const CheckEndLine = event('check-end', 'A check ended, with its state and what explains it.', {
  check: CheckRef,
  state: CheckState,
  durationMs: Millis,
  reason: Type.Optional(Type.String({ description: 'Why it was skipped, inconclusive or incomplete.' })),
  remedy: Type.Optional(
    Type.String({ description: 'What to do so an inconclusive check reaches a verdict.' }),
  ),
  declared: Type.Optional(
    Type.Boolean({ description: "Skipped because the profile's unsupportedRules declares the rule." }),
  ),
  failures: Type.Optional(Type.Array(Failure)),
  errors: Type.Optional(Type.Array(Text)),
  gaps: Type.Optional(
    Type.Array(Type.Object({ what: Text, remedy: Text }, { additionalProperties: false }), {
      description:
        'What the check could not reach on this profile (an operation no identity can probe), and what would let it: its state covers the rest only.',
    }),
  ),
});

export const RunEndLine = event('run-end', 'The run ended: its verdict and why.', {
  verdict: Type.Union([Type.Literal('passed'), Type.Literal('failed'), Type.Literal('incomplete')]),
  exitCode: Type.Integer({ description: '0 passed, 1 failed, 3 incomplete.' }),
  durationMs: Millis,
  totals: Totals,
  incompleteReasons: Type.Array(Text),
  gate: Type.Object(
    { strict: Type.Boolean(), problems: Type.Array(Text) },
    {
      additionalProperties: false,
      description: 'Strict gate mode, and what beyond failures keeps the run from passing.',
    },
  ),
  rules: Type.Array(
    Type.Object(
      {
        id: Type.String({ pattern: '^[A-Z]+-\\d+$' }),
        level: Type.Union([Type.Literal('MUST'), Type.Literal('SHOULD')]),
        state: CheckState,
      },
      { additionalProperties: false },
    ),
  ),
});

export const NdjsonLine = Type.Union([RunStartLine, CheckStartLine, ExchangeLine, CheckEndLine, RunEndLine]);

export type NdjsonLine = Static<typeof NdjsonLine>;

/** The published schema: one line of the stream. */
export function conformanceEventsSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://cloud-api.invalid/schemas/conformance-events.schema.json',
    title: 'Conformance run events (NDJSON)',
    description: `One line of \`cloud-api-conformance --reporter ndjson\`: a JSON object per line, in order run-start, then per check check-start, its exchanges and check-end, then run-end. Version ${NDJSON_EVENTS_VERSION}. Every text is already redacted: no line holds a token.`,
    ...NdjsonLine,
  };
}

/** The text of schema/conformance-events.schema.json: the schema as JSON, two-space indented. */
export function renderConformanceEventsSchemaFile(): string {
  return `${JSON.stringify(conformanceEventsSchema(), null, 2)}\n`;
}
