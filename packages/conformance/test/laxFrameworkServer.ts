import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunOutcome } from '../src/run/outcome.js';
import type { TargetProfile } from '../src/targetProfile/index.js';
import { type LocalServer, listenLocally } from './localServer.js';
import { type QuietRunOptions, quietRun } from './quietRun.js';

/**
 * The document's reads and NAT rule update written independently of the sandbox, on the
 * parsing choices web frameworks make. Each concern can be built strictly, leniently in a way
 * the document allows (Python's `int()` for workspace_id, a lax body binder that converts and
 * stores typed values), or with the defect such frameworks ship.
 */
export interface LaxFrameworkChoices {
  /**
   * `pattern`: ASCII digits only. `python-int`: Python's `int()` (Unicode digits, whitespace,
   * underscores). `int32-cast`: the digits through a 32-bit cast (`Number(v) >>> 0`).
   * `isdigit-int`: checked with `str.isdigit()` (superscript digits too), then read with `int()`,
   * whose ValueError on a superscript answers 500.
   */
  readonly workspaceId: 'pattern' | 'python-int' | 'int32-cast' | 'isdigit-int';
  /**
   * `strict`: JSON types as the document types them. `lax`: text converted to integers and
   * booleans, enum values lower-cased, stored converted. `validated-copy`: validated as `lax`
   * converts, stored as sent. `truthy`: a boolean or "true"/"false", stored by truthiness.
   * `isinstance`: Python's `isinstance(v, int)`, which a bool passes, stored as sent.
   * `float-kept`: Python's json keeps `8082.0` a float; stored and written back as `8082.0`.
   */
  readonly body: 'strict' | 'lax' | 'validated-copy' | 'truthy' | 'isinstance' | 'float-kept';
  /** `exact`: any text is looked up. `nul-500`: a NUL reaches a database that answers 500. */
  readonly pathIds: 'exact' | 'nul-500';
  /** `public-ids`: records carry the ids they are found by. `row-ids`: the row's primary key instead. */
  readonly recordIds?: 'public-ids' | 'row-ids';
  /**
   * `own`: each workspace's buckets. `cached-per-route`: a read-through cache keyed by the route
   * alone answers every workspace with the first list it read. `signed-urls`: each workspace's
   * buckets, each with a URL signed anew on every read (as S3-compatible stores answer);
   * `signed-urls-cached-per-route`: those, behind the cache keyed by the route alone, re-signed.
   */
  readonly bucketList?: 'own' | 'cached-per-route' | 'signed-urls' | 'signed-urls-cached-per-route';
  /**
   * `fresh`: the restore as stored. `url-cached`: a response cache keyed by the URL as sent, in
   * front of a restore that moves on (queued, running, succeeded) each time the store is read.
   */
  readonly restoreReads?: 'fresh' | 'url-cached';
  /**
   * `400`: the status the document lists for an invalid NAT rule update. `fastapi`: ports bounded
   * to 1-65535 (`Field(ge=1, le=65535)`) and 422 for every body refused, as FastAPI answers.
   */
  readonly invalidBody?: '400' | 'fastapi';
  /**
   * `valid`: an update naming no field changes nothing and answers the rule. `refused`: it is
   * refused with 400 ("nothing to update"), which the document leaves open.
   */
  readonly emptyUpdate?: 'valid' | 'refused';
  /**
   * A second restore, still running (`LAX_RUNNING_RESTORE`): its unset `completed_at` written as
   * `null-dates` null, or as `empty-string-dates` "" (an ORM's empty string for a NULL column).
   */
  readonly runningRestore?: 'null-dates' | 'empty-string-dates';
  /**
   * A third restore whose id is digits (`LAX_NUMERIC_RESTORE`), looked up `exact`ly as text, or
   * through an `integer-column` (the id cast to a number, so `0700001` and `+700001` find it).
   */
  readonly numericRestore?: 'exact' | 'integer-column';
  /**
   * How workspace_id given twice is read by the workspace policy and by the handler (a
   * `workspace_id[]` copy and tenant headers are ignored). `refused`: 400. `first` (the default,
   * `URLSearchParams.get`) or `last`: one value for everything. `joined`: the policy reads the
   * first, the handler the values joined with a comma (a framework binding a repeated parameter to
   * one string), which names no workspace. `policy-first-handler-last`: the defect.
   */
  readonly repeatedWorkspace?: 'refused' | 'first' | 'last' | 'joined' | 'policy-first-handler-last';
}

export const STRICT_CHOICES: LaxFrameworkChoices = {
  workspaceId: 'pattern',
  body: 'strict',
  pathIds: 'exact',
};
export const LAX_CHOICES: LaxFrameworkChoices = { workspaceId: 'python-int', body: 'lax', pathIds: 'exact' };

export const LAX_RULE = { vpcId: 'vpc-7', natGatewayId: 'ngw-7', ruleId: 'rule-7' } as const;
export const LAX_RESTORE = 'restore-7';
export const LAX_RUNNING_RESTORE = 'restore-8';
export const LAX_NUMERIC_RESTORE = '700001';
export const LAX_TOKEN = 'svc_dev_key_lax_framework_full_access';
/** Identities whose workspace policy selects one workspace, by name: their token and workspace. */
export const LAX_LIMITED_IDENTITIES = {
  primaryOnly: { token: 'svc_dev_key_FAKEq7x3w9v2NotAreal', workspace: '1042' },
  secondaryOnly: { token: 'svc_dev_key_FAKEk5m8z1j4NotAreal', workspace: '1043' },
} as const;
export type LaxLimitedIdentity = keyof typeof LAX_LIMITED_IDENTITIES;

const BUCKETS: Readonly<Record<string, unknown[]>> = {
  '1042': [{ name: 'logs-1042' }, { name: 'media-1042' }],
  '1043': [{ name: 'backups-1043' }],
};

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The value of a Unicode decimal digit: its distance from the start of its run of digits. */
function digitValue(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  let start = code;
  while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
  return String((code - start) % 10);
}

/** Python's `int(text)`: Unicode whitespace around, Unicode digits, `_` between digits, a sign. */
function pythonInt(text: string): number | undefined {
  const trimmed = text.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');
  if (!/^[+-]?\p{Nd}+(_\p{Nd}+)*$/u.test(trimmed)) return undefined;
  return Number(trimmed.replace(/_/g, '').replace(/\p{Nd}/gu, digitValue));
}

/** What Python's `str.isdigit()` accepts, as far as these tests need: decimal digits and superscripts. */
const ISDIGIT = /^[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079]+$/u;
const SUPERSCRIPT = /[\u00b2\u00b3\u00b9\u2070\u2074-\u2079]/u;

/** The workspace a value names, read as `choice` reads it; undefined when it is refused. */
function workspaceOf(value: string | null, choice: LaxFrameworkChoices['workspaceId']): string | undefined {
  if (value === null) return undefined;
  if (choice === 'pattern') return /^[1-9][0-9]*$/.test(value) ? value : undefined;
  if (choice === 'int32-cast')
    return /^[0-9]+$/.test(value) && Number(value) >>> 0 > 0 ? String(Number(value) >>> 0) : undefined;
  // isdigit() passes superscripts along with every script's digits; int() then refuses them.
  if (choice === 'isdigit-int' && ISDIGIT.test(value) && SUPERSCRIPT.test(value))
    throw new Error('ValueError: invalid literal for int()');
  const n = pythonInt(value);
  return n !== undefined && n > 0 && Number.isSafeInteger(n) ? String(n) : undefined;
}

const INTEGERS = ['external_port', 'internal_port'] as const;
const TEXTS = ['name', 'internal_ip', 'note'] as const;

/** The body the binder validates: as sent, or converted as a lax binder converts it. */
function converted(
  body: Record<string, unknown>,
  choice: LaxFrameworkChoices['body'],
): Record<string, unknown> {
  if (choice === 'strict' || choice === 'float-kept') return body;
  const out = { ...body };
  if (choice === 'isinstance') {
    for (const field of INTEGERS) if (typeof out[field] === 'boolean') out[field] = Number(out[field]);
    return out;
  }
  if (choice === 'truthy') {
    if (out.enabled === 'true' || out.enabled === 'false') out.enabled = out.enabled === 'true';
    return out;
  }
  for (const field of INTEGERS) {
    const value = out[field];
    if (typeof value === 'string' && pythonInt(value) !== undefined) out[field] = pythonInt(value);
    // A lax binder reads a bool where an integer goes as 0 or 1 (pydantic's lax mode does).
    if (typeof value === 'boolean') out[field] = Number(value);
  }
  if (typeof out.enabled === 'string' && /^\s*(true|false)\s*$/i.test(out.enabled))
    out.enabled = out.enabled.trim().toLowerCase() === 'true';
  if (out.enabled === 0 || out.enabled === 1) out.enabled = out.enabled === 1;
  if (typeof out.protocol === 'string') out.protocol = out.protocol.trim().toLowerCase();
  return out;
}

function invalidField(body: Record<string, unknown>, bounded: boolean): string | undefined {
  for (const field of INTEGERS) {
    if (field in body && !Number.isInteger(body[field])) return `${field} must be an integer`;
    const port = body[field] as number;
    if (bounded && field in body && (port < 1 || port > 65_535))
      return `${field} must be between 1 and 65535`;
  }
  for (const field of TEXTS)
    if (field in body && typeof body[field] !== 'string') return `${field} must be text`;
  if ('enabled' in body && typeof body.enabled !== 'boolean') return 'enabled must be a boolean';
  if ('protocol' in body && body.protocol !== 'tcp' && body.protocol !== 'udp')
    return 'protocol must be tcp or udp';
  return undefined;
}

export async function startLaxFrameworkServer(choices: LaxFrameworkChoices): Promise<LocalServer> {
  const now = new Date().toISOString();
  const rule: Record<string, unknown> = {
    port_forward_rule_id: LAX_RULE.ruleId,
    vpc_id: LAX_RULE.vpcId,
    nat_gateway_id: LAX_RULE.natGatewayId,
    name: 'ssh',
    protocol: 'tcp',
    external_port: 2222,
    internal_ip: '10.0.0.9',
    internal_port: 22,
    note: '',
    enabled: true,
    status: 'available',
    workspace_id: '1042',
    created_at: now,
    updated_at: now,
  };
  const restore = {
    organization_id: 'org-7',
    workspace_id: '1042',
    restore_id: LAX_RESTORE,
    source_vm_id: 'vm-7',
    target_mode: 'new_vm',
    recovery_point_id: 'rp-7',
    status: 'succeeded',
  };
  /** The ports the float-kept choice stores as floats. */
  const floats = new Set<string>();
  let cachedList: unknown[] | undefined;
  const restoreStates = ['queued', 'running', 'succeeded'] as const;
  let restoreReads = 0;
  const restoreAnswers = new Map<string, unknown>();
  const storedRestore = () =>
    choices.restoreReads === 'url-cached'
      ? { ...restore, status: restoreStates[Math.min(restoreReads++, restoreStates.length - 1)] }
      : restore;
  const natPath = `/v1/networking/vpcs/${LAX_RULE.vpcId}/nat-gateways/${LAX_RULE.natGatewayId}/port-forwarding-rules/`;
  return listenLocally(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const limited = Object.values(LAX_LIMITED_IDENTITIES).find(
      ({ token }) => req.headers.authorization === `Bearer ${token}`,
    );
    if (req.headers.authorization !== `Bearer ${LAX_TOKEN}` && !limited)
      return json(res, 401, { detail: 'bad token' });
    const copies = url.searchParams.getAll('workspace_id');
    const repeated = choices.repeatedWorkspace ?? 'first';
    if (copies.length > 1 && repeated === 'refused')
      return json(res, 400, { detail: 'workspace_id must be given once' });
    const policyCopy = repeated === 'last' ? copies.at(-1) : copies[0];
    let workspace: string | undefined;
    try {
      workspace = workspaceOf(policyCopy ?? null, choices.workspaceId);
    } catch {
      return json(res, 500, { detail: 'Internal Server Error' });
    }
    if (!workspace) return json(res, 400, { detail: 'workspace_id must be a positive integer' });
    if (!(workspace in BUCKETS) || (limited && workspace !== limited.workspace))
      return json(res, 403, { detail: `workspace ${workspace} is not yours` });
    // What the handler reads from here on, when it reads the parameter otherwise than the policy.
    if (copies.length > 1 && repeated === 'joined') workspace = copies.join(',');
    if (copies.length > 1 && repeated === 'policy-first-handler-last')
      workspace = workspaceOf(copies.at(-1) ?? null, choices.workspaceId) ?? workspace;
    const lastSegment = (prefix: string): string | undefined => {
      if (!url.pathname.startsWith(prefix)) return undefined;
      const id = decodeURIComponent(url.pathname.slice(prefix.length));
      return id.includes('/') ? undefined : id;
    };
    const restoreId = lastSegment('/v1/compute/cloud-vm-snapshots/restores/');
    const ruleId = req.method === 'PATCH' ? lastSegment(natPath) : undefined;
    const id = restoreId ?? ruleId;
    if (id?.includes('\u0000') && choices.pathIds === 'nul-500')
      return json(res, 500, { detail: 'invalid byte sequence for encoding "UTF8": 0x00' });
    if (req.method === 'GET' && url.pathname === '/v1/object-storage/buckets') {
      if (choices.bucketList === 'cached-per-route') {
        cachedList ??= BUCKETS[workspace];
        return json(res, 200, cachedList);
      }
      if (choices.bucketList === 'signed-urls' || choices.bucketList === 'signed-urls-cached-per-route') {
        if (choices.bucketList === 'signed-urls-cached-per-route') cachedList ??= BUCKETS[workspace];
        const listed = choices.bucketList === 'signed-urls' ? BUCKETS[workspace] : cachedList;
        const signature = randomUUID();
        return json(
          res,
          200,
          (listed ?? []).map((bucket, i) => ({
            ...(bucket as object),
            url: `https://s3.example/${i}?sig=${signature}`,
          })),
        );
      }
      return json(res, 200, BUCKETS[workspace] ?? []);
    }
    if (req.method === 'POST' && url.pathname === '/v1/billing/resource-eligibility') {
      await readBody(req);
      return json(res, 200, { allowed: true });
    }
    if (req.method === 'GET' && restoreId !== undefined) {
      const numericMatch =
        choices.numericRestore === 'integer-column'
          ? /^\s*[+-]?\d+(\.0*)?\s*$/.test(restoreId) && Number(restoreId) === Number(LAX_NUMERIC_RESTORE)
          : restoreId === LAX_NUMERIC_RESTORE;
      if (choices.numericRestore && numericMatch && workspace === '1042')
        return json(res, 200, { ...restore, restore_id: LAX_NUMERIC_RESTORE });
      if (restoreId === LAX_RUNNING_RESTORE && choices.runningRestore && workspace === '1042')
        return json(res, 200, {
          ...restore,
          restore_id: LAX_RUNNING_RESTORE,
          status: 'running',
          completed_at: choices.runningRestore === 'null-dates' ? null : '',
        });
      if (restoreId !== LAX_RESTORE || workspace !== '1042')
        return json(res, 404, { detail: 'no such restore' });
      if (choices.recordIds === 'row-ids') return json(res, 200, { ...restore, restore_id: '7' });
      const key = req.url ?? '';
      if (!restoreAnswers.has(key)) restoreAnswers.set(key, storedRestore());
      return json(res, 200, restoreAnswers.get(key));
    }
    if (ruleId !== undefined) {
      const text = await readBody(req);
      if (ruleId !== LAX_RULE.ruleId || workspace !== '1042')
        return json(res, 404, { detail: 'no such rule' });
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return json(res, 400, { detail: 'malformed JSON' });
      }
      if (!body || typeof body !== 'object' || Array.isArray(body))
        return json(res, 400, { detail: 'not an object' });
      if (choices.emptyUpdate === 'refused' && Object.keys(body).length === 0)
        return json(res, 400, { detail: 'nothing to update: name at least one field' });
      const validated = converted(body as Record<string, unknown>, choices.body);
      const fastapi = choices.invalidBody === 'fastapi';
      const problem = invalidField(validated, fastapi);
      if (problem) return json(res, fastapi ? 422 : 400, { detail: problem });
      const stored = choices.body === 'lax' ? validated : (body as Record<string, unknown>);
      for (const field of [...INTEGERS, ...TEXTS, 'protocol', 'enabled'])
        if (field in stored) {
          rule[field] =
            choices.body === 'truthy' && field === 'enabled' ? Boolean(stored[field]) : stored[field];
          if (choices.body === 'float-kept' && (INTEGERS as readonly string[]).includes(field)) {
            // The text shows what JSON.parse hides: the number written with a fraction or exponent.
            const written = new RegExp(`"${field}"\\s*:\\s*-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?`).exec(text);
            if (written?.[1] !== undefined || written?.[2] !== undefined) floats.add(field);
            else floats.delete(field);
          }
        }
      rule.updated_at = new Date().toISOString();
      let answer = JSON.stringify(rule);
      for (const field of floats) answer = answer.replace(new RegExp(`("${field}":-?\\d+)(?=[,}])`), '$1.0');
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      return;
    }
    return json(res, 404, { detail: 'no such route' });
  });
}

/** A profile for the independent server: every scope, the NAT rule and the restore it holds. */
export function laxProfile(
  origin: string,
  resources: Partial<TargetProfile['resources']> = {},
  limitedIdentities: readonly LaxLimitedIdentity[] = [],
): TargetProfile {
  return {
    name: 'lax-framework',
    baseUrl: `${origin}/v1`,
    environment: 'development',
    identities: {
      full: { token: LAX_TOKEN, scopes: 'all', workspaces: 'all' },
      ...Object.fromEntries(
        limitedIdentities.map((name) => [
          name,
          {
            token: LAX_LIMITED_IDENTITIES[name].token,
            scopes: 'all' as const,
            workspaces: [LAX_LIMITED_IDENTITIES[name].workspace],
          },
        ]),
      ),
    },
    workspaces: { primary: '1042', secondary: '1043' },
    resources: { natRules: [LAX_RULE], restoreIds: [LAX_RESTORE], ...resources },
    billing: { skuCode: 'cloud-vm-standard-2' },
    mutations: true,
  };
}

/** What a quiet run of the suite against the independent server is told (no reporters, no output). */
export interface LaxRunOptions extends QuietRunOptions {
  readonly resources?: Partial<TargetProfile['resources']>;
  /** Identities limited to one workspace to add to the profile (LAX_LIMITED_IDENTITIES). */
  readonly limitedIdentities?: readonly LaxLimitedIdentity[];
  /** Changes the profile before the run (an identity's scopes, say). */
  readonly profileWith?: (profile: TargetProfile) => TargetProfile;
}

/** Runs the selected rules against the independent server at `origin` and returns the outcome. */
export function runOnLaxServer(origin: string, options: LaxRunOptions): Promise<RunOutcome> {
  const profile = laxProfile(origin, options.resources, options.limitedIdentities);
  return quietRun(options.profileWith ? options.profileWith(profile) : profile, options);
}
