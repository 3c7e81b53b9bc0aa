/** What an operation (or a check before it) answers; the response writer turns it into HTTP. */
export type OperationResult =
  | { readonly kind: 'json'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'empty'; readonly status: number }
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly detail: string;
      readonly headers?: Readonly<Record<string, string>>;
    };

export function jsonResult(status: number, body: unknown): OperationResult {
  return { kind: 'json', status, body };
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
