import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunOutcome } from '../src/run/outcome.js';
import type { TargetProfile } from '../src/targetProfile/index.js';
import { type LocalServer, listenLocally } from './localServer.js';
import { type QuietRunOptions, quietRun } from './quietRun.js';

/**
 * An implementation of the document's VM create and NAT rule update written independently of
 * the sandbox, the way a service on a database is: every read and write of its store is an
 * awaited round trip. Each concern can be built correctly (in a way of its own that differs from
 * the sandbox: UUID ids, a duplicate that waits for the first answer, a lock per rule) or with
 * the race real services ship.
 */
export interface AsyncStoreChoices {
  /** `check-then-act`: the key is looked up, then the VM created, then the answer stored. */
  readonly idempotency: 'wait-for-first' | 'check-then-act';
  /** `count-then-write`: the new id is the number of VMs read plus one, written later. */
  readonly vmIds: 'uuid' | 'count-then-write';
  /** `read-modify-write`: the rule is read, and written back whole with the change on top. */
  readonly updates: 'locked' | 'read-modify-write';
  /** `per-workspace`: operations are numbered by a sequence of each workspace's own (a partitioned table). */
  readonly operationIds?: 'uuid' | 'per-workspace';
  /**
   * `exact` (the default): keys are compared as sent. `uuid-only`: a key that is not a UUID is
   * refused with 400 (a format the document leaves open). `case-insensitive`: keys are looked up
   * lower-cased, as a column under a case-insensitive collation compares them.
   */
  readonly keys?: 'exact' | 'uuid-only' | 'case-insensitive';
}

export const CORRECT_CHOICES: AsyncStoreChoices = {
  idempotency: 'wait-for-first',
  vmIds: 'uuid',
  updates: 'locked',
};

export const RULE = { vpcId: 'vpc-a', natGatewayId: 'nat-a', ruleId: 'pfr-a' } as const;
export const TOKEN = 'svc_dev_key_async_store_full_access';

/** The profile that points a run at the server at `origin`: one full identity, its NAT rule, writes allowed. */
export function asyncStoreProfile(origin: string): TargetProfile {
  return {
    name: 'async-store',
    baseUrl: `${origin}/v1`,
    environment: 'development',
    identities: { full: { token: TOKEN, scopes: 'all', workspaces: 'all' } },
    workspaces: { primary: '1042', secondary: '1043' },
    resources: { natRules: [RULE] },
    billing: { skuCode: 'cloud-vm-standard-2' },
    mutations: true,
  };
}

const roundTrip = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2));

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

export async function startAsyncStoreServer(choices: AsyncStoreChoices): Promise<LocalServer> {
  const vms = new Map<string, { workspace: string }>();
  const operationsPerWorkspace = new Map<string, number>();
  const answers = new Map<string, { body: string; record: unknown }>();
  const pending = new Map<string, Promise<void>>();
  const now = new Date().toISOString();
  let rule: Record<string, unknown> = {
    port_forward_rule_id: RULE.ruleId,
    vpc_id: RULE.vpcId,
    nat_gateway_id: RULE.natGatewayId,
    name: 'web',
    protocol: 'tcp',
    external_port: 8080,
    internal_ip: '10.0.0.5',
    internal_port: 80,
    note: '',
    enabled: true,
    status: 'available',
    created_at: now,
    updated_at: now,
  };
  let ruleLock: Promise<void> = Promise.resolve();

  const newVmId = async (): Promise<string> => {
    if (choices.vmIds === 'uuid') return `vm-${randomUUID()}`;
    const count = vms.size;
    await roundTrip();
    return `vm-${count + 1}`;
  };

  const create = async (workspace: string): Promise<unknown> => {
    const vmId = await newVmId();
    await roundTrip();
    vms.set(vmId, { workspace });
    const sequence = (operationsPerWorkspace.get(workspace) ?? 0) + 1;
    operationsPerWorkspace.set(workspace, sequence);
    return {
      operation_id: choices.operationIds === 'per-workspace' ? `op-${sequence}` : `op-${randomUUID()}`,
      vm_id: vmId,
      status: 'accepted',
      submitted_at: new Date().toISOString(),
    };
  };

  const keyedCreate = async (key: string, workspace: string, body: string): Promise<[number, unknown]> => {
    const scoped = `${workspace} ${choices.keys === 'case-insensitive' ? key.toLowerCase() : key}`;
    let done = (): void => undefined;
    if (choices.idempotency === 'wait-for-first') {
      // A copy waits for the request holding its key; the check and the claim are one step.
      for (let first = pending.get(scoped); first; first = pending.get(scoped)) await first;
      pending.set(
        scoped,
        new Promise<void>((resolve) => {
          done = resolve;
        }),
      );
    }
    try {
      await roundTrip();
      const stored = answers.get(scoped);
      if (stored)
        return stored.body === body
          ? [202, stored.record]
          : [422, { detail: 'This key was used for a different request.' }];
      const record = await create(workspace);
      await roundTrip();
      answers.set(scoped, { body, record });
      return [202, record];
    } finally {
      if (choices.idempotency === 'wait-for-first') pending.delete(scoped);
      done();
    }
  };

  const update = async (changes: Record<string, unknown>): Promise<unknown> => {
    if (choices.updates === 'read-modify-write') {
      const read = { ...rule };
      await roundTrip();
      rule = { ...read, ...changes, updated_at: new Date().toISOString() };
      return rule;
    }
    const previous = ruleLock;
    let release = (): void => undefined;
    ruleLock = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      await roundTrip();
      rule = { ...rule, ...changes, updated_at: new Date().toISOString() };
      return rule;
    } finally {
      release();
    }
  };

  return listenLocally(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const workspace = url.searchParams.get('workspace_id') ?? '';
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      return json(res, 401, { detail: 'Missing or invalid token.' });
    if (!/^[1-9]\d*$/.test(workspace))
      return json(res, 400, { detail: 'workspace_id must be a positive number.' });
    const body = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/v1/object-storage/buckets') return json(res, 200, []);
    if (req.method === 'POST' && url.pathname === '/v1/compute/cloud-vms') {
      const key = req.headers['x-idempotency-key'];
      if (typeof key !== 'string' || key === '')
        return json(res, 400, { detail: 'X-Idempotency-Key is required.' });
      if (choices.keys === 'uuid-only' && !/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(key))
        return json(res, 400, { detail: 'X-Idempotency-Key must be a UUID.' });
      const [status, record] = await keyedCreate(key, workspace, body);
      return json(res, status, record);
    }
    const natPath = `/v1/networking/vpcs/${RULE.vpcId}/nat-gateways/${RULE.natGatewayId}/port-forwarding-rules/${RULE.ruleId}`;
    if (req.method === 'PATCH' && url.pathname === natPath) {
      const changes = JSON.parse(body || '{}') as Record<string, unknown>;
      return json(res, 200, await update(changes));
    }
    return json(res, 404, { detail: 'Not found.' });
  });
}

/** What a quiet run of the suite against the async-store server is told. */
export interface AsyncStoreRunOptions extends QuietRunOptions {
  /** The profile's request timeout: IDEM-2's late retry waits one, so a short one keeps a test quick. */
  readonly requestTimeoutMs?: number;
}

/** Starts the server built with `choices`, runs the selected rules against it (no reporters, no output), and closes it. */
export async function runOnAsyncStore(
  choices: AsyncStoreChoices,
  options: AsyncStoreRunOptions,
): Promise<RunOutcome> {
  const server = await startAsyncStoreServer(choices);
  try {
    const profile = asyncStoreProfile(server.origin);
    return await quietRun(
      options.requestTimeoutMs !== undefined
        ? { ...profile, requestTimeoutMs: options.requestTimeoutMs }
        : profile,
      options,
    );
  } finally {
    await server.close();
  }
}
