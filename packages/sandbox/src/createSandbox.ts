import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type FaultId, isFaultId } from './faultCatalogue.js';
import { BillingEligibility, checkResourceEligibility } from './operations/billingEligibility.js';
import { createCloudVm } from './operations/createCloudVm.js';
import { deleteGpuVm } from './operations/deleteGpuVm.js';
import { enableGpuVmBackups } from './operations/enableGpuVmBackups.js';
import { getCloudVmSnapshotRestore } from './operations/getCloudVmSnapshotRestore.js';
import { listBuckets } from './operations/listBuckets.js';
import type { OperationHandler, SandboxServices } from './operations/operationContext.js';
import { releaseReservedIp } from './operations/releaseReservedIp.js';
import { updateNatPortForwardingRule } from './operations/updateNatPortForwardingRule.js';
import { checkSandboxProfile } from './profileCheck.js';
import { API_BASE_PATH, createRequestListener } from './requestPipeline.js';
import { ResponseWriter } from './responseWriter.js';
import { createSandboxBehaviour } from './sandboxBehaviour.js';
import { SandboxClock } from './sandboxClock.js';
import { type SandboxEnvironment, type SandboxProfile, SandboxProfileError } from './sandboxProfile.js';
import { SandboxStore } from './sandboxStore.js';
import { loadSpecContract } from './specContract.js';
import { TokenAuthenticator } from './tokenAuthenticator.js';
import { isVariantId, type VariantId } from './variantCatalogue.js';
import { WorkspaceGate } from './workspaceGate.js';

const TWO_HOURS_MS = 7_200_000;
const SERVER_CLOCK_AHEAD_MS = 90_000;

export interface CreateSandboxOptions {
  readonly profile: SandboxProfile;
  /** One named fault (mutation testing); none by default. */
  readonly fault?: FaultId | undefined;
  /** One named variant (a different legitimate choice); none by default. */
  readonly variant?: VariantId | undefined;
  /** Environment the sandbox pretends to be; defaults to the profile's. */
  readonly environment?: SandboxEnvironment | undefined;
  /** Largest request body, in bytes (default 64 KiB). */
  readonly maxBodyBytes?: number | undefined;
  /** Where unexpected errors (sandbox bugs) are reported; default: one line on stderr. */
  readonly onInternalError?: ((error: unknown) => void) | undefined;
}

export interface ListeningSandbox {
  /** Base URL of the API, ending with `/v1`. */
  readonly url: string;
  readonly port: number;
  /** The sandbox's profile with `baseUrl` set to `url`: ready for the conformance suite. */
  readonly profile: SandboxProfile;
  close(): Promise<void>;
}

export interface Sandbox {
  listen(port?: number, host?: string): Promise<ListeningSandbox>;
  /** The `node:http` request listener, for in-process use. */
  readonly handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** Back to the seeded state: resources, operations, policies and idempotency keys. */
  reset(): void;
  /** Read access to the in-memory state, for tests (e.g. counting accepted operations). */
  readonly state: SandboxStore;
  readonly fault: FaultId | undefined;
  readonly variant: VariantId | undefined;
  readonly environment: SandboxEnvironment;
}

const HANDLERS: Readonly<Record<string, OperationHandler>> = {
  checkResourceEligibility,
  listBuckets,
  createCloudVm,
  enableGpuVmBackups,
  deleteGpuVm,
  getCloudVmSnapshotRestore,
  updateNatPortForwardingRule,
  releaseReservedIp,
};

export function createSandbox(options: CreateSandboxOptions): Sandbox {
  const { profile, fault, variant } = options;
  if (fault !== undefined && !isFaultId(fault)) {
    throw new SandboxProfileError(`Unknown fault "${fault}": see faultCatalogue for the valid ids.`);
  }
  if (variant !== undefined && !isVariantId(variant)) {
    throw new SandboxProfileError(`Unknown variant "${variant}": see variantCatalogue for the valid ids.`);
  }
  const environment = options.environment ?? profile.environment;
  if (environment !== 'development' && environment !== 'production') {
    throw new SandboxProfileError('environment: expected "development" or "production"');
  }
  const contract = loadSpecContract();
  checkSandboxProfile(profile, { environment, tokenPrefix: contract.tokenPrefixes[environment] });

  const behaviour = createSandboxBehaviour(fault, variant);
  const clock = new SandboxClock(
    fault === 'timestamp-space-separator'
      ? 'space-separated'
      : variant === 'timestamps-with-offset'
        ? '+00:00'
        : variant === 'timestamps-offset-hours'
          ? '+00'
          : variant === 'timestamps-nanoseconds'
            ? 'nanoseconds'
            : 'Z',
    {
      // A server in UTC+2 writing its local wall-clock time with Z (a fault), or one whose whole
      // clock runs 90 s ahead of the client's, consistently (a variant).
      zoneMs: fault === 'timestamps-local-time-as-utc' ? TWO_HOURS_MS : 0,
      skewMs: variant === 'server-clock-ahead' ? SERVER_CLOCK_AHEAD_MS : 0,
    },
  );
  const store = new SandboxStore(profile, clock, variant === 'uuid-identifiers' ? 'uuid' : 'sequence');
  const services: SandboxServices = {
    store,
    clock,
    behaviour,
    contract,
    billing: new BillingEligibility(profile),
  };
  const listener = createRequestListener({
    contract,
    handlers: HANDLERS,
    services,
    authenticator: new TokenAuthenticator(profile, environment, contract.tokenPrefixes, behaviour),
    workspaces: new WorkspaceGate(profile, behaviour),
    writer: new ResponseWriter(behaviour),
    bodyLimits: { maxBytes: options.maxBodyBytes ?? 64 * 1024, maxDepth: 32 },
    onInternalError:
      options.onInternalError ??
      ((error) => {
        const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
        process.stderr.write(`sandbox: internal error: ${reason}\n`);
      }),
  });

  // Node writes Date from this machine's clock; a skewed server writes it from its own.
  const handle =
    clock.skewMs === 0
      ? listener
      : (req: IncomingMessage, res: ServerResponse) => {
          res.setHeader('date', new Date(clock.now()).toUTCString());
          listener(req, res);
        };

  return {
    handle,
    state: store,
    fault,
    variant,
    environment,
    reset: () => store.reset(),
    listen: (port = 0, host = '127.0.0.1') => listen(handle, profile, port, host),
  };
}

function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  profile: SandboxProfile,
  port: number,
  host: string,
): Promise<ListeningSandbox> {
  const server = createServer({ keepAliveTimeout: 5_000 }, handle);
  // Requests node cannot even parse still get a JSON error body.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return;
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
    const body = JSON.stringify({
      detail: tooLarge ? 'The request headers are too large.' : 'The request is not valid HTTP/1.1.',
    });
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const printableHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      const url = `http://${printableHost}:${address.port}${API_BASE_PATH}`;
      resolve({
        url,
        port: address.port,
        profile: { ...profile, baseUrl: url },
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
