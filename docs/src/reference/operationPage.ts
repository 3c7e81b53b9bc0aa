import { type OpenApiDocument, type OperationEntry, resolveLocalRef } from '@cloud-api/spec';
import { gapIds, gapLink, gapSummary, successStatusCell } from './gapLinks.js';
import { guardVue, inlineCode, tableCell } from './markdownText.js';
import { clientSample, curlSample, specSampleInputs } from './requestSamples.js';
import { describeType, type SchemaObject, schemaFields } from './schemaFields.js';

interface MediaObject {
  readonly schema?: SchemaObject;
  readonly examples?: Readonly<Record<string, { readonly summary?: string; readonly value?: unknown }>>;
}

interface ResponseObject {
  readonly description?: string;
  readonly content?: Readonly<Record<string, MediaObject>>;
}

interface ParameterObject {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly description?: string;
  readonly schema?: SchemaObject;
}

const STATUS_TEXT: Readonly<Record<string, string>> = {
  '200': 'OK',
  '202': 'Accepted',
  '204': 'No Content',
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'Not Found',
  '409': 'Conflict',
  '4XX': 'any other client error',
  default: 'any other answer',
};

function fieldTable(schema: SchemaObject, document: OpenApiDocument): string {
  const fields = schemaFields(schema, document);
  if (fields.length === 0) {
    return `Type: ${inlineCode(describeType(schema, document))}. ${tableCell(resolveLocalRef<SchemaObject>(document, schema).description ?? '')}`;
  }
  const rows = fields.map((field) => {
    const notes = [
      field.description,
      field.enumValues.length > 0
        ? `One of ${field.enumValues.map((value) => inlineCode(String(value))).join(', ')}.`
        : '',
      field.defaultValue !== undefined ? `Default ${inlineCode(JSON.stringify(field.defaultValue))}.` : '',
      field.gaps.length > 0 ? `See ${field.gaps.map((id) => gapLink(id, document, '..')).join(', ')}.` : '',
    ].filter((note) => note !== '');
    return `| ${inlineCode(field.name)} | ${tableCell(field.type)} | ${field.required ? 'yes' : 'no'} | ${tableCell(notes.join(' '))} |`;
  });
  return ['| Field | Type | Required | Notes |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

function examples(media: MediaObject): string {
  return Object.entries(media.examples ?? {})
    .map(
      ([name, example]) =>
        `*${tableCell(example.summary ?? name)}*\n\n\`\`\`json\n${JSON.stringify(example.value, null, 2)}\n\`\`\``,
    )
    .join('\n\n');
}

function gapList(object: unknown, document: OpenApiDocument): string {
  const ids = gapIds(object);
  return ids.length === 0
    ? ''
    : ids.map((id) => `- ${gapLink(id, document, '..')}: ${tableCell(gapSummary(id, document))}`).join('\n');
}

/** The reference page of one operation, as VitePress markdown. */
export function operationPage(operation: OperationEntry, document: OpenApiDocument): string {
  const raw = (document.paths[operation.path]?.[operation.method] ?? {}) as Record<string, unknown>;
  const parameters = (Array.isArray(raw.parameters) ? raw.parameters : []).map((parameter) =>
    resolveLocalRef<ParameterObject>(document, parameter),
  );
  const sections: string[] = [
    `# ${operation.summary}`,
    `<p class="operation-request"><span class="operation-method">${operation.method.toUpperCase()}</span> <code>${operation.path}</code></p>`,
    [
      '| Scope | Success | Asynchronous | `X-Idempotency-Key` |',
      '| --- | --- | --- | --- |',
      `| ${inlineCode(operation.scope)} | ${successStatusCell(operation, document)} | ${operation.async ? 'yes: poll the operation' : 'no'} | ${operation.idempotencyKeyRequired ? 'required' : 'not required'} |`,
    ].join('\n'),
    guardVue(String(raw.description ?? '')),
    '## Parameters',
    [
      '| Name | In | Required | Type | Description |',
      '| --- | --- | --- | --- | --- |',
      ...parameters.map(
        (parameter) =>
          `| ${inlineCode(parameter.name)} | ${parameter.in} | ${parameter.required ? 'yes' : 'no'} | ${tableCell(parameter.schema ? describeType(parameter.schema, document) : 'string')} | ${tableCell(parameter.description ?? '')}${
            gapIds(parameter).length > 0
              ? ` See ${gapIds(parameter)
                  .map((id) => gapLink(id, document, '..'))
                  .join(', ')}.`
              : ''
          } |`,
      ),
    ].join('\n'),
  ];
  const requestBody = raw.requestBody as { content?: Record<string, MediaObject> } | undefined;
  const requestMedia = requestBody?.content?.['application/json'];
  if (requestMedia?.schema) {
    sections.push('## Request body', fieldTable(requestMedia.schema, document), examples(requestMedia));
  }
  sections.push('## Responses');
  for (const [status, reference] of Object.entries(raw.responses as Record<string, unknown>)) {
    const response = resolveLocalRef<ResponseObject>(document, reference as ResponseObject);
    const media = response.content?.['application/json'];
    sections.push(
      `### ${status} ${STATUS_TEXT[status] ?? ''}`.trim(),
      guardVue(response.description ?? ''),
      gapList(reference, document),
    );
    if (media?.schema) sections.push(fieldTable(media.schema, document), examples(media));
  }
  const inputs = specSampleInputs(operation, document);
  sections.push(
    '## Request samples',
    'Generated from the spec’s examples. The curl sample reads the base URL (ending in `/v1`) and the token from `CLOUD_API_BASE_URL` and `CLOUD_API_TOKEN`; the client reads `CLOUD_API_TOKEN`, `CLOUD_API_DEV_URL` and `CLOUD_API_PROD_URL`.',
    `::: code-group\n\n\`\`\`sh [curl]\n${curlSample(operation, inputs)}\n\`\`\`\n\n\`\`\`ts [@cloud-api/client]\n${clientSample(operation, inputs)}\`\`\`\n\n:::`,
  );
  const gaps = gapList(raw, document);
  if (gaps !== '') sections.push('## What the document does not show', gaps);
  return `${sections.filter((section) => section.trim() !== '').join('\n\n')}\n`;
}
