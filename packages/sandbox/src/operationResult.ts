/** What an operation (or a check before it) answers; the response writer turns it into HTTP. */
export type OperationResult =
  | {
      readonly kind: 'json';
      readonly status: number;
      readonly body: unknown;
      /** Top-level integer members the store keeps as floats, written with their fraction. */
      readonly floatMembers?: readonly string[];
    }
  | { readonly kind: 'empty'; readonly status: number }
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly detail: string;
      readonly headers?: Readonly<Record<string, string>>;
    };

export function jsonResult(status: number, body: unknown, floatMembers?: readonly string[]): OperationResult {
  return floatMembers?.length ? { kind: 'json', status, body, floatMembers } : { kind: 'json', status, body };
}

export function emptyResult(status: number): OperationResult {
  return { kind: 'empty', status };
}

export function errorResult(
  status: number,
  detail: string,
  headers?: Readonly<Record<string, string>>,
): OperationResult {
  return headers ? { kind: 'error', status, detail, headers } : { kind: 'error', status, detail };
}

export function isSuccess(result: OperationResult): boolean {
  return result.status >= 200 && result.status < 300;
}

/** An answer now, or once a store round trip is over (the concurrency faults and variants). */
export type PendingResult = OperationResult | Promise<OperationResult>;

/** Applies `next` to the answer, now or once it is there. */
export function afterResult(
  result: PendingResult,
  next: (answer: OperationResult) => OperationResult,
): PendingResult {
  return result instanceof Promise ? result.then(next) : next(result);
}
