import { type OpenApiDocument, type OperationEntry, resolveLocalRef } from '@cloud-api/spec';

interface ParameterObject {
  readonly name: string;
  readonly in: 'query' | 'header' | 'path';
  readonly required?: boolean;
  readonly example?: unknown;
}

interface ExampleHolder {
  readonly examples?: Readonly<Record<string, { readonly value?: unknown }>>;
}

/** The concrete values one request sample sends; the spec's examples by default. */
export interface SampleInputs {
  readonly workspaceId: string;
  readonly pathParameters: Readonly<Record<string, string>>;
  readonly idempotencyKey: string | undefined;
  readonly body: unknown;
}

function rawOperation(operation: OperationEntry, document: OpenApiDocument): Record<string, unknown> {
  return (document.paths[operation.path]?.[operation.method] ?? {}) as Record<string, unknown>;
}

function operationParameters(operation: OperationEntry, document: OpenApiDocument): ParameterObject[] {
  const raw = rawOperation(operation, document).parameters;
  return (Array.isArray(raw) ? raw : []).map((parameter) =>
    resolveLocalRef<ParameterObject>(document, parameter),
  );
}

/** The request the spec's own examples describe: first request body example, parameter examples. */
export function specSampleInputs(operation: OperationEntry, document: OpenApiDocument): SampleInputs {
  const parameters = operationParameters(operation, document);
  const example = (name: string): string => {
    const value = parameters.find((parameter) => parameter.name === name)?.example;
    if (typeof value !== 'string')
      throw new Error(`${operation.operationId}: parameter ${name} has no example`);
    return value;
  };
  const requestBody = rawOperation(operation, document).requestBody as
    | { content?: Record<string, ExampleHolder> }
    | undefined;
  const bodyExamples = requestBody?.content?.['application/json']?.examples ?? {};
  return {
    workspaceId: example('workspace_id'),
    pathParameters: Object.fromEntries(operation.pathParameters.map((name) => [name, example(name)])),
    // Each operation's example is a key of its own (the spec declares the header per operation):
    // samples copied one after the other never share one.
    idempotencyKey: operation.idempotencyKeyRequired ? example('X-Idempotency-Key') : undefined,
    body: operation.hasRequestBody ? (Object.values(bodyExamples)[0]?.value ?? {}) : undefined,
  };
}

function shellSingleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A curl command for the request; base URL and token come from the environment. */
export function curlSample(operation: OperationEntry, inputs: SampleInputs): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(inputs.pathParameters[name] ?? `{${name}}`),
  );
  const lines = [
    `curl --fail-with-body --request ${operation.method.toUpperCase()} \\`,
    `  "$CLOUD_API_BASE_URL${path}?workspace_id=${encodeURIComponent(inputs.workspaceId)}" \\`,
    '  --header "Authorization: Bearer $CLOUD_API_TOKEN"',
  ];
  if (inputs.idempotencyKey !== undefined)
    lines.push(`  --header "X-Idempotency-Key: ${inputs.idempotencyKey}"`);
  if (inputs.body !== undefined) {
    lines.push('  --header "Content-Type: application/json"');
    lines.push(`  --data ${shellSingleQuoted(JSON.stringify(inputs.body))}`);
  }
  return lines
    .map((line, index) => (index < lines.length - 1 && !line.endsWith('\\') ? `${line} \\` : line))
    .join('\n');
}

function literal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/"([A-Za-z_][A-Za-z0-9_]*)":/g, '$1:');
}

/** The `@cloud-api/client` call of each operation, by operationId. */
function clientCall(operation: OperationEntry, inputs: SampleInputs): string {
  const path = inputs.pathParameters;
  const body = inputs.body === undefined ? '' : literal(inputs.body);
  switch (operation.operationId) {
    case 'checkResourceEligibility':
      return `const decision = await cloud.checkBillingEligibility(${literal((inputs.body as { sku_code?: string }).sku_code ?? '')});\nconsole.log(decision.allowed);`;
    case 'listBuckets':
      return 'const buckets = await cloud.listBuckets();\nconsole.log(buckets.length);';
    case 'createCloudVm':
      return `// The client runs the billing preflight first and sends an X-Idempotency-Key.\nconst accepted = await cloud.createCloudVm(${body});\nconsole.log(accepted.operation_id, accepted.status);`;
    case 'enableGpuVmBackups':
      return `const policy = await cloud.enableGpuVmBackups(${literal(path.vm_id)}, ${body});\nconsole.log(policy.policy_id, policy.retention_days);`;
    case 'deleteGpuVm':
      return `// The client sends an X-Idempotency-Key and reuses it for its own retries.\nconst accepted = await cloud.deleteGpuVm(${literal(path.vm_id)});\nconsole.log(accepted.operation_id, accepted.status);`;
    case 'getCloudVmSnapshotRestore':
      return `const restore = await cloud.getCloudVmSnapshotRestore(${literal(path.restore_id)});\nconsole.log(restore.status);`;
    case 'updateNatPortForwardingRule':
      return `const rule = await cloud.updateNatPortForwardingRule(\n  ${literal({ vpcId: path.vpc_id, natGatewayId: path.nat_gateway_id, portForwardingRuleId: path.port_forwarding_rule_id }).replaceAll('\n', '\n  ')},\n  ${body.replaceAll('\n', '\n  ')},\n);\nconsole.log(rule.status);`;
    case 'releaseReservedIp':
      return `await cloud.releaseReservedIp(${literal(path.reserved_ip_id)}); // 204: no body`;
    default:
      throw new Error(
        `no client sample for ${operation.operationId}: add its call to src/reference/requestSamples.ts`,
      );
  }
}

/** A complete TypeScript module calling the operation through `@cloud-api/client`. */
export function clientSample(operation: OperationEntry, inputs: SampleInputs): string {
  return [
    "import { createCloudClient } from '@cloud-api/client';",
    '',
    'const { CLOUD_API_TOKEN = "", CLOUD_API_DEV_URL, CLOUD_API_PROD_URL } = process.env;',
    'const cloud = createCloudClient({',
    '  token: CLOUD_API_TOKEN,',
    `  workspaceId: ${literal(inputs.workspaceId)},`,
    '  environments: { development: CLOUD_API_DEV_URL, production: CLOUD_API_PROD_URL },',
    '});',
    '',
    clientCall(operation, inputs),
    '',
  ].join('\n');
}
