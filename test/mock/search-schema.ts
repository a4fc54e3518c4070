import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** Response schemas of spec/openapi.json, the project's copy of the provider's document. */
const path = resolve(dirname(fileURLToPath(import.meta.url)), '../../spec/openapi.json');
interface OpenApi {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>
  >;
}
const doc = JSON.parse(readFileSync(path, 'utf8')) as OpenApi;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

function validator(apiPath: string, method: string): ValidateFunction {
  const id = `${method} ${apiPath}`;
  let v = compiled.get(id);
  if (v === undefined) {
    const schema =
      doc.paths[apiPath]?.[method]?.responses['200']?.content?.['application/json']?.schema;
    if (schema === undefined) throw new Error(`no 200 schema for ${id}`);
    v = ajv.compile(schema);
    compiled.set(id, v);
  }
  return v;
}

/** Throws with ajv's messages when `body` is not a valid 200 answer of the operation. */
export function expectSchema(apiPath: string, body: unknown, method = 'post'): void {
  const validate = validator(apiPath, method);
  if (!validate(body))
    throw new Error(`${method} ${apiPath}: ${JSON.stringify(validate.errors, null, 1)}`);
}
