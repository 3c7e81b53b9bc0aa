import type { paths } from '@cloud-api/types';

/** Parameters the client fills in itself; a call may still pass them to override. */
type Injected = { readonly query: 'workspace_id'; readonly header: 'X-Idempotency-Key' };

type RequiredKeys<T> = { [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K> ? never : K }[keyof T];

type Loosened<Section, Names extends PropertyKey> = Omit<Section, Names> & {
  readonly [K in Extract<keyof Section, Names>]?: Section[K];
};

type LoosenSection<Parameters, Location extends keyof Injected> = Location extends keyof Parameters
  ? [NonNullable<Parameters[Location]>] extends [never]
    ? { readonly [K in Location]?: Parameters[Location] }
    : RequiredKeys<Loosened<NonNullable<Parameters[Location]>, Injected[Location]>> extends never
      ? { readonly [K in Location]?: Loosened<NonNullable<Parameters[Location]>, Injected[Location]> }
      : { readonly [K in Location]: Loosened<NonNullable<Parameters[Location]>, Injected[Location]> }
  : unknown;

type ClientParameters<Parameters> = Omit<Parameters, keyof Injected> &
  LoosenSection<Parameters, 'query'> &
  LoosenSection<Parameters, 'header'>;

type ClientOperation<Operation> = Operation extends { readonly parameters: infer Parameters }
  ? Omit<Operation, 'parameters'> & { readonly parameters: ClientParameters<Parameters> }
  : Operation;

/**
 * The spec's `paths` as the client's `api` accepts them: `workspace_id` and `X-Idempotency-Key`
 * become optional because the client adds them; everything else stays exactly as generated.
 */
export type ClientPaths = {
  readonly [Path in keyof paths]: {
    readonly [Method in keyof paths[Path]]: ClientOperation<paths[Path][Method]>;
  };
};
