import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The project's copy of the provider's documents (spec/README.md says where they come from). */
export const SPEC_DIR = fileURLToPath(new URL('../../spec/', import.meta.url));

let cached: unknown;
/** The provider's OpenAPI document. */
export function openapi(): OpenApiDoc {
  cached ??= JSON.parse(readFileSync(`${SPEC_DIR}openapi.json`, 'utf8'));
  return cached as OpenApiDoc;
}

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  [key: string]: unknown;
}

export interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
      }
    >
  >;
}

/** The JSON request-body schema of an operation. */
export function requestSchema(path: string, method: string): JsonSchema {
  const schema = openapi().paths[path]?.[method]?.requestBody?.content['application/json']?.schema;
  if (!schema) throw new Error(`no request body schema for ${method} ${path}`);
  return schema;
}
