import { loadOpenApiDocument } from '@cloud-api/spec';
import { type SchemaOptions, type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * The target profile, defined once. Everything below is TypeBox: each builder is a JSON Schema
 * (draft 2020-12) object, so the same definition gives the published
 * schema/target-profile.schema.json, the ajv validator (validateProfile.ts) and, through
 * `Static`, the TypeScript type. Only the 16 scope names are read at run time: from the spec's
 * bearer scheme, so the two never drift apart; that is why the schema is built by a function.
 */

interface BearerScheme {
  readonly 'x-scopes'?: Readonly<Record<string, string>>;
  readonly 'x-token-prefixes'?: Readonly<Record<string, string>>;
}

function bearerScheme(): BearerScheme {
  return loadOpenApiDocument().components.securitySchemes.bearerAuth as BearerScheme;
}

/** The 16 scope names, read from the spec's bearer scheme so the two never drift apart. */
export function scopeNames(): string[] {
  return Object.keys(bearerScheme()['x-scopes'] ?? {});
}

export type ProfileEnvironment = 'development' | 'production';

/** The token prefix of each environment (`svc_dev_key_`, `svc_prod_key_`), from the spec. */
export function tokenPrefixes(): Readonly<Record<ProfileEnvironment, string>> {
  const prefixes: Partial<Record<ProfileEnvironment, string>> = {};
  for (const [prefix, environment] of Object.entries(bearerScheme()['x-token-prefixes'] ?? {}))
    if (environment === 'development' || environment === 'production') prefixes[environment] = prefix;
  if (!prefixes.development || !prefixes.production)
    throw new Error(
      'The spec must declare a token prefix for both environments (bearerAuth x-token-prefixes)',
    );
  return prefixes as Record<ProfileEnvironment, string>;
}

// Four small builders keep the published schema exactly as it was written by hand: TypeBox's
// own Literal adds `type: "string"` beside `const`, its Union of literals is an `anyOf`, its Record
// a `patternProperties`, and its arrays are mutable in the static type.

/** `{ enum: [...] }`, typed as the union of the values. */
function StringEnum<const Values extends readonly string[]>(values: Values, options: SchemaOptions = {}) {
  return Type.Unsafe<Values[number]>({ ...options, enum: [...values] });
}

/** `{ const: value }`. */
function Const<const Value extends string>(value: Value) {
  return Type.Unsafe<Value>({ const: value });
}

/** An array schema whose static type is a readonly array. */
function ReadonlyArray<Item extends TSchema>(item: Item, options: SchemaOptions = {}) {
  return Type.Unsafe<readonly Static<Item>[]>(Type.Array(item, options));
}

/** A mapping of any names to `value` (`additionalProperties: value`), readonly in the static type. */
function NamedEntries<Value extends TSchema>(value: Value, options: SchemaOptions = {}) {
  return Type.Unsafe<Readonly<Record<string, Static<Value>>>>({
    ...options,
    type: 'object',
    additionalProperties: value,
  });
}

const NonEmptyString = () => Type.String({ minLength: 1 });

const WorkspaceId = Type.String({
  pattern: '^[1-9][0-9]*$',
  description: 'A workspace ID: a positive decimal integer written as a string, e.g. "1042".',
});

const IdList = ReadonlyArray(NonEmptyString());

const Environment = StringEnum(['development', 'production']);

function identitySchema(scopes: readonly string[]) {
  return Type.Object(
    {
      token: Type.Readonly(NonEmptyString()),
      scopes: Type.Readonly(
        Type.Union([Const('all'), ReadonlyArray(StringEnum(scopes), { uniqueItems: true })]),
      ),
      workspaces: Type.Readonly(Type.Union([Const('all'), ReadonlyArray(WorkspaceId, { minItems: 1 })])),
    },
    { additionalProperties: false },
  );
}

const NatRuleRefSchema = Type.Object(
  {
    vpcId: Type.Readonly(NonEmptyString()),
    natGatewayId: Type.Readonly(NonEmptyString()),
    ruleId: Type.Readonly(NonEmptyString()),
    name: Type.ReadonlyOptional(
      Type.String({
        description:
          "The rule's current name. Needed only where the target refuses an update that names no field ({}), the document's only read of a rule (a legitimate choice: A-NAT-UPDATE-EMPTY-BODY): the suite then reads the rule by sending its name unchanged. It must be the name the rule has, or that update renames it.",
      }),
    ),
  },
  { additionalProperties: false },
);

const ResourcesSchema = Type.Object(
  {
    gpuVmIds: Type.ReadonlyOptional(IdList),
    deletableGpuVmIds: Type.ReadonlyOptional(IdList),
    restoreIds: Type.ReadonlyOptional(IdList),
    natRules: Type.ReadonlyOptional(ReadonlyArray(NatRuleRefSchema)),
    releasableReservedIpIds: Type.ReadonlyOptional(IdList),
    bucketListsDiffer: Type.ReadonlyOptional(
      Type.Boolean({
        description:
          "true when the primary and the secondary workspace hold different buckets, so their bucket lists are not the same: ISO-1 then fails a workspace answered with the other's list. Without it, two equal lists cannot be told from a list served from the other workspace (a cache keyed without the workspace), and only lists that change with what was read before are caught.",
      }),
    ),
  },
  { additionalProperties: false },
);

const ProvisionSchema = Type.Object(
  {
    command: Type.Readonly(
      ReadonlyArray(NonEmptyString(), {
        minItems: 1,
        description:
          'The program and its arguments, run without a shell in the directory of the profile file. It prints one JSON object shaped like `resources` on stdout (its log lines go to stderr); that object replaces `resources` for the run.',
      }),
    ),
    timeoutMs: Type.ReadonlyOptional(
      Type.Integer({
        minimum: 1000,
        maximum: 3600000,
        description:
          'How long the command may take (default 120000, 2 minutes); past it the command is stopped and the run ends with exit 2.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'A command run before each run to hand it fresh resources (throw-away GPU VMs, reserved IPs, ...), so that no run finds what an earlier run consumed.',
  },
);

const WorkspacesSchema = Type.Object(
  {
    primary: Type.Readonly(WorkspaceId),
    secondary: Type.Readonly(WorkspaceId),
    billingDenied: Type.ReadonlyOptional(WorkspaceId),
  },
  { additionalProperties: false },
);

const BillingSchema = Type.Object(
  { skuCode: Type.Readonly(NonEmptyString()) },
  { additionalProperties: false },
);

/**
 * "Request body fields: name, plan_id, template_id, os_distro, os_type, cpu, ram_mb. Which of
 * these fields are mandatory, and further optional fields: not shown." Nor which plans and
 * templates exist: a target with a catalog of its own says here what a create sends.
 */
const CreateCloudVmBodySchema = Type.Object(
  {
    plan_id: Type.ReadonlyOptional(NonEmptyString()),
    template_id: Type.ReadonlyOptional(NonEmptyString()),
    os_distro: Type.ReadonlyOptional(NonEmptyString()),
    os_type: Type.ReadonlyOptional(NonEmptyString()),
    cpu: Type.ReadonlyOptional(Type.Integer()),
    ram_mb: Type.ReadonlyOptional(Type.Integer()),
  },
  {
    additionalProperties: true,
    description:
      'The body of every cloud VM create the run sends (default: plan-std-2c-4g, tpl-ubuntu-2404, ubuntu, linux, 2 CPUs, 4096 MB), for a target whose plans, templates or further fields are its own (the document shows neither which fields are mandatory nor which values exist). The suite adds a name of its own to each create (conformance-<random>, a host name label); further members are sent as given.',
  },
);

const UnsupportedRuleSchema = Type.Object(
  {
    id: Type.Readonly(Type.String({ pattern: '^[A-Z]+-\\d+$' })),
    reason: Type.Readonly(NonEmptyString()),
  },
  { additionalProperties: false },
);

function buildTargetProfileSchema(scopes: readonly string[]) {
  return Type.Object(
    {
      $schema: Type.ReadonlyOptional(Type.String()),
      name: Type.Readonly(NonEmptyString()),
      baseUrl: Type.Readonly(
        Type.String({
          pattern: '^https?://[^\\s/]+(/[^\\s]*)?/v1$',
          description: 'Base URL of the API, ending with /v1 (no trailing slash).',
        }),
      ),
      environment: Type.Readonly(Environment),
      identities: Type.Readonly(NamedEntries(identitySchema(scopes), { minProperties: 1 })),
      revokedToken: Type.ReadonlyOptional(NonEmptyString()),
      otherEnvironmentToken: Type.ReadonlyOptional(NonEmptyString()),
      workspaces: Type.Readonly(WorkspacesSchema),
      resources: Type.ReadonlyOptional(ResourcesSchema),
      provision: Type.ReadonlyOptional(ProvisionSchema),
      billing: Type.Readonly(BillingSchema),
      createCloudVmBody: Type.ReadonlyOptional(CreateCloudVmBodySchema),
      mutations: Type.ReadonlyOptional(Type.Boolean()),
      allowProduction: Type.ReadonlyOptional(Type.Boolean()),
      requestTimeoutMs: Type.ReadonlyOptional(Type.Integer({ minimum: 100, maximum: 600000 })),
      preflightTimeoutMs: Type.ReadonlyOptional(
        Type.Integer({
          minimum: 100,
          maximum: 600000,
          description:
            "How long the preflight, the run's first request, waits for the target to answer at all (connection and status line; default 10000, 10 s). A target that accepts connections but does not answer within it stops the run with exit 2 instead of holding every check until the deadline.",
        }),
      ),
      rateLimitPerSecond: Type.ReadonlyOptional(Type.Number({ exclusiveMinimum: 0 })),
      concurrency: Type.ReadonlyOptional(
        Type.Integer({
          minimum: 1,
          maximum: 32,
          description:
            'Most requests in flight at once for checks whose cases are independent (default 4, never above rateLimitPerSecond); checks that change state always send one at a time. Same as --concurrency.',
        }),
      ),
      maxResponseBytes: Type.ReadonlyOptional(
        Type.Integer({
          minimum: 1024,
          maximum: 268435456,
          description:
            "Largest response body the suite reads (default 67108864, 64 MiB; at most 256 MiB). Past it the suite stops reading and drops the connection, and the check is inconclusive, naming this limit: it is the suite's, not the document's, which sets none.",
        }),
      ),
      strict: Type.ReadonlyOptional(
        Type.Boolean({
          description:
            'Gate mode (same as --strict): a check skipped for a reason not declared in unsupportedRules, or an inconclusive rule, fails the run.',
        }),
      ),
      unsupportedRules: Type.ReadonlyOptional(ReadonlyArray(UnsupportedRuleSchema)),
    },
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://cloud-api.invalid/schemas/target-profile.schema.json',
      title: 'Conformance target profile',
      description:
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
        'Describes an environment for @cloud-api/conformance and seeds @cloud-api/sandbox. String values may reference environment variables as ${NAME}.',
      additionalProperties: false,
    },
  );
}

/** The TypeBox schema of a target profile (a JSON Schema object). */
export type TargetProfileSchema = ReturnType<typeof buildTargetProfileSchema>;

// The types are interfaces extending `Static<…>` of the schema rather than plain aliases: the
// same types, but editors, compiler messages and the TypeDoc reference show them by name and
// list their fields, instead of an alias of `Static<TargetProfileSchema>`.

/** A target profile: which environment to test and with what (see the JSON Schema). */
export interface TargetProfile extends Static<TargetProfileSchema> {}

/** One token and what it may do: `all` scopes or a list, `all` workspaces or a list. */
export interface Identity extends Static<ReturnType<typeof identitySchema>> {}

/** A NAT port-forwarding rule the run may update (and restores afterwards). */
export interface NatRuleRef extends Static<typeof NatRuleRefSchema> {}

/** Resources of the primary workspace that checks read or consume. */
export interface ProfileResources extends Static<typeof ResourcesSchema> {}

/** The command that hands each run fresh resources (see `provision` in the JSON Schema). */
export interface ProvisionCommand extends Static<typeof ProvisionSchema> {}

/** The schema of the `resources` section alone: what a provision command must print. */
export function profileResourcesSchema(): TargetProfileSchema['properties']['resources'] {
  return targetProfileSchema().properties.resources;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

let built: TargetProfileSchema | undefined;

/**
 * The JSON Schema (draft 2020-12) of a target profile, published as
 * schema/target-profile.schema.json. Built once (it reads the scope names from the spec) and
 * frozen: the validator is compiled from this very object.
 */
export function targetProfileSchema(): TargetProfileSchema {
  built ??= deepFreeze(buildTargetProfileSchema(scopeNames()));
  return built;
}
