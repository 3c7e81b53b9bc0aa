import { type OpenApiDocument, operationCatalogue } from '@cloud-api/spec';
import { operationSlug } from '../siteNavigation.js';
import { gapIds, gapLink, successStatusCell } from './gapLinks.js';
import { guardVue, inlineCode, tableCell } from './markdownText.js';

/** The reference's overview page: downloads, servers, every operation, the general rules. */
export function referenceIndexPage(document: OpenApiDocument): string {
  const operations = operationCatalogue(document).map(
    (operation) =>
      `| [${operation.summary}](./${operationSlug(operation.operationId)}.md) | ${inlineCode(`${operation.method.toUpperCase()} ${operation.path}`)} | ${inlineCode(operation.scope)} | ${successStatusCell(operation, document)} |`,
  );
  const servers = document.servers.map(
    (server) =>
      `| ${server['x-environment']} | ${inlineCode(server.url)} | ${inlineCode(server['x-token-prefix'])} | ${tableCell(server.description ?? '')} |`,
  );
  const areas = document.tags.map((tag) => {
    const gaps = gapIds(tag);
    const suffix = gaps.length > 0 ? ` (${gaps.map((id) => gapLink(id, document, '..')).join(', ')})` : '';
    return `| ${tag.name} | ${tableCell(tag.description ?? '')}${suffix} |`;
  });
  return `# API reference

The ${document.info.title} (${document.info.version}), as far as its API document specifies it:
${operations.length} operations. Every page is generated from the bundled OpenAPI ${document.openapi} spec when the site
is built; where the document says “not shown”, the page links to the gap.

Download the bundled spec: <a href="../openapi.yaml" download>openapi.yaml</a> ·
<a href="../openapi.json" download>openapi.json</a>

## Operations

| Operation | Request | Scope | Success |
| --- | --- | --- | --- |
${operations.join('\n')}

## Servers

The hosts are not given by the API document (${gapLink('A-SERVER-HOSTS', document, '..')}); the spec uses
placeholders under \`.invalid\` so that nothing is ever sent to a guessed host.

| Environment | URL | Token prefix | Notes |
| --- | --- | --- | --- |
${servers.join('\n')}

## Product areas

| Area | What the document says |
| --- | --- |
${areas.join('\n')}

${guardVue(String(document.info.description ?? '')).replace(/^## /gm, '## ')}
`;
}
