/**
 * The shape of a request's params for the methods that take arguments,
 * checked before the SDK sees them: its own check answers -32602 with a raw
 * dump of its schema's issues, where a client (and the person reading its
 * log) needs the one argument that is wrong, named. Both transports use it.
 */

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function kind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

const SHAPES: Readonly<Record<string, readonly [string, 'string' | 'object', boolean][]>> = {
  'tools/call': [
    ['name', 'string', true],
    ['arguments', 'object', false],
  ],
  'prompts/get': [
    ['name', 'string', true],
    ['arguments', 'object', false],
  ],
  'resources/read': [['uri', 'string', true]],
  'completion/complete': [
    ['ref', 'object', true],
    ['argument', 'object', true],
  ],
};

/** What is wrong with a request's params, as "Invalid params: …", or undefined. */
export function paramsProblem(method: string, params: unknown): string | undefined {
  const shape = SHAPES[method];
  if (shape === undefined) return undefined;
  const p = isObject(params) ? params : {};
  for (const [name, type, required] of shape) {
    const value = p[name];
    if (value === undefined) {
      if (required) return `Invalid params: ${method} needs params.${name}`;
      continue;
    }
    const ok = type === 'string' ? typeof value === 'string' : isObject(value);
    if (!ok) {
      return `Invalid params: params.${name} must be ${type === 'string' ? 'a string' : 'an object'} (got ${kind(value)})`;
    }
  }
  return undefined;
}
