import { type IncomingMessage, request } from 'node:http';
import { loadOpenApiDocument } from '@cloud-api/spec';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { type CreateSandboxOptions, createSandbox, type Sandbox } from '../src/createSandbox.js';
import { defaultSandboxProfile } from '../src/defaultSandboxProfile.js';
import type { SandboxProfile } from '../src/sandboxProfile.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface CallOptions {
  /** Identity name of the profile whose token goes in `Authorization: Bearer`. */
  readonly as?: string;
  /** The whole Authorization header (null: none). Overrides `as`. */
  readonly authorization?: string | null;
  /** workspace_id; null leaves it out. Default: the primary workspace. */
  readonly workspace?: string | null;
  /** Extra raw query text appended after workspace_id. */
  readonly query?: string;
  readonly json?: unknown;
  /** A raw body; sent with `contentType` (default application/json). */
  readonly body?: string | Buffer;
  readonly contentType?: string | null;
  readonly idempotencyKey?: string;
  readonly headers?: Record<string, string>;
  /** Sent on a connection opened for it alone (fetch keeps connections alive and reuses them). */
  readonly newConnection?: boolean;
  /** Send the path as written, dot segments included (a URL parser would resolve them). */
  readonly rawPath?: boolean;
}

export interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  /** Every response header, lower-cased, repeated ones joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  readonly json: unknown;
}

export interface Harness {
  readonly sandbox: Sandbox;
  readonly profile: SandboxProfile;
  readonly url: string;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  token(identity: string): string;
  close(): Promise<void>;
}

function headerRecord(headers: Headers): Record<string, string> {
  const all: Record<string, string> = {};
  headers.forEach((value, name) => {
    all[name] = value;
  });
  return all;
}

function parsed(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sendOnNewConnection(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  rawPath?: string,
): Promise<Omit<Answer, 'json'>> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const onResponse = (response: IncomingMessage): void => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'] ?? null,
          headers: Object.fromEntries(
            Object.entries(response.headers).map(([name, value]) => [
              name,
              Array.isArray(value) ? value.join(', ') : String(value),
            ]),
          ),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    };
    const sent =
      rawPath === undefined
        ? request(url, { method, headers, agent: false }, onResponse)
        : request({ hostname, port, path: rawPath, method, headers, agent: false }, onResponse);
    sent.on('error', reject);
    sent.end(body);
  });
}

export async function startHarness(options: Partial<CreateSandboxOptions> = {}): Promise<Harness> {
  const profile = options.profile ?? defaultSandboxProfile();
  const sandbox = createSandbox({ ...options, profile });
  const listening = await sandbox.listen(0);
  const token = (identity: string) => {
    const found = profile.identities[identity];
    if (!found) throw new Error(`No identity ${identity} in the test profile`);
    return found.token;
  };
  const call = async (method: string, path: string, callOptions: CallOptions = {}): Promise<Answer> => {
    const workspace =
      callOptions.workspace === undefined ? profile.workspaces.primary : callOptions.workspace;
    const queryParts = [];
    if (workspace !== null) queryParts.push(`workspace_id=${encodeURIComponent(workspace)}`);
    if (callOptions.query) queryParts.push(callOptions.query);
    const headers: Record<string, string> = { ...callOptions.headers };
    const authorization =
      callOptions.authorization === undefined
        ? `Bearer ${token(callOptions.as ?? 'full')}`
        : callOptions.authorization;
    if (authorization !== null) headers.authorization = authorization;
    let body: string | Buffer | undefined = callOptions.body;
    if (callOptions.json !== undefined) body = JSON.stringify(callOptions.json);
    if (body !== undefined && callOptions.contentType !== null) {
      headers['content-type'] = callOptions.contentType ?? 'application/json';
    }
    if (callOptions.idempotencyKey !== undefined) headers['x-idempotency-key'] = callOptions.idempotencyKey;
    const query = queryParts.length > 0 ? `?${queryParts.join('&')}` : '';
    const url = `${listening.url}${path}${query}`;
    if (callOptions.newConnection || callOptions.rawPath) {
      const raw = callOptions.rawPath ? `${new URL(listening.url).pathname}${path}${query}` : undefined;
      const answer = await sendOnNewConnection(url, method, headers, body, raw);
      return { ...answer, json: parsed(answer.text) };
    }
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? null : typeof body === 'string' ? body : new Uint8Array(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      headers: headerRecord(response.headers),
      text,
      json: parsed(text),
    };
  };
  return { sandbox, profile, url: listening.url, call, token, close: () => listening.close() };
}

/** Paths of the profile's resources, for the default profile. */
export const paths = {
  eligibility: '/billing/resource-eligibility',
  buckets: '/object-storage/buckets',
  cloudVms: '/compute/cloud-vms',
  enableBackups: (vmId: string) => `/compute/gpu-vms/${vmId}/backups/enable`,
  gpuVm: (vmId: string) => `/compute/gpu-vms/${vmId}`,
  restore: (restoreId: string) => `/compute/cloud-vm-snapshots/restores/${restoreId}`,
  natRule: (vpcId: string, natGatewayId: string, ruleId: string) =>
    `/networking/vpcs/${vpcId}/nat-gateways/${natGatewayId}/port-forwarding-rules/${ruleId}`,
  reservedIp: (reservedIpId: string) => `/networking/reserved-ips/${reservedIpId}`,
} as const;

/** The spec's response schemas, compiled independently of the sandbox's own validators. */
let responseAjv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

export function responseSchemaValidator(schemaName: string): ValidateFunction {
  if (!responseAjv) {
    responseAjv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(responseAjv);
    responseAjv.addSchema({
      $id: 'https://test.invalid/spec.json',
      components: loadOpenApiDocument().components,
    });
  }
  let validate = compiled.get(schemaName);
  if (!validate) {
    validate = responseAjv.compile({
      $ref: `https://test.invalid/spec.json#/components/schemas/${schemaName}`,
    });
    compiled.set(schemaName, validate);
  }
  return validate;
}

export function isUtcTimestamp(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00)$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  );
}
