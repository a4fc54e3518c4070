/**
 * A deliberately small router: method + path pattern (`/v1/people/:id`) → a
 * route record. The mock has a few dozen fixed routes, so a linear scan over
 * pre-split patterns is faster than anything cleverer at this size.
 */

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface RouteMatch<R> {
  route: R;
  params: Record<string, string>;
}

export type MatchResult<R> =
  | { kind: 'found'; match: RouteMatch<R> }
  /** The path exists under other methods: answer 405 with these in `Allow`. */
  | { kind: 'method-not-allowed'; allow: Method[] }
  | { kind: 'not-found' };

interface Entry<R> {
  methods: readonly Method[];
  segments: readonly string[];
  route: R;
}

export class Router<R> {
  private readonly entries: Entry<R>[] = [];

  add(methods: Method | readonly Method[], pattern: string, route: R): this {
    this.entries.push({
      methods: typeof methods === 'string' ? [methods] : methods,
      segments: split(pattern),
      route,
    });
    return this;
  }

  match(method: string, pathname: string): MatchResult<R> {
    const segments = split(pathname);
    const allow = new Set<Method>();
    for (const entry of this.entries) {
      const params = matchSegments(entry.segments, segments);
      if (params === undefined) continue;
      if ((entry.methods as readonly string[]).includes(method)) {
        return { kind: 'found', match: { route: entry.route, params } };
      }
      for (const m of entry.methods) allow.add(m);
    }
    return allow.size > 0
      ? { kind: 'method-not-allowed', allow: [...allow] }
      : { kind: 'not-found' };
  }
}

function split(path: string): string[] {
  // A trailing slash is tolerated: `/v1/people/` is `/v1/people`.
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(
  pattern: readonly string[],
  actual: readonly string[],
): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const a = actual[i]!;
    if (p.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(a);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = value;
    } else if (p !== a) {
      return undefined;
    }
  }
  return params;
}
