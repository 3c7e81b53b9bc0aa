export {
  type Assumption,
  apiDocumentPath,
  loadOpenApiDocument,
  type NotShown,
  type OpenApiDocument,
  type OpenApiServer,
  openApiJsonPath,
  openApiYamlPath,
  resolveLocalRef,
} from './openApiDocument.js';
export { type HttpMethod, type OperationEntry, operationCatalogue } from './operationCatalogue.js';
export { createSchemaValidator, type SchemaValidator, type SchemaVerdict } from './schemaValidator.js';
