import type { QueryNode } from './ast.js';
import { fail } from './errors.js';
import type { Comparison, QueryTarget } from './target.js';

type Test<T> = (x: T) => boolean;

/**
 * Turns a parsed tree into one predicate over documents. All the work of reading
 * the tree and asking the target for leaf predicates happens here, once; the
 * returned function only calls closures and allocates nothing per document.
 */
export function compileQuery<Doc, Entity>(
  tree: QueryNode,
  target: QueryTarget<Doc, Entity>,
): (doc: Doc) => boolean {
  const leaf = (field: string, c: Comparison): Test<Doc> => target.predicate(field, c);
  return build<Doc>(tree, leaf, (child) => {
    const inner = build<Entity>(
      child,
      (field, c) => target.entityPredicate(field, c),
      () => fail('ER0712', 'an entity block inside an entity block', 0, 0),
    );
    return (doc) => {
      const entities = target.entities(doc);
      for (let i = 0; i < entities.length; i++) {
        if (inner(entities[i] as Entity)) return true;
      }
      return false;
    };
  });
}

function build<T>(
  node: QueryNode,
  leaf: (field: string, c: Comparison) => Test<T>,
  block: (child: QueryNode) => Test<T>,
): Test<T> {
  const rec = (n: QueryNode): Test<T> => build(n, leaf, block);
  switch (node.kind) {
    case 'predicate':
      return leaf(node.field, node.comparison);
    case 'group':
      return combine(
        node.op,
        node.values.map((v) => leaf(node.field, v)),
      );
    case 'and':
    case 'or':
      return combine(node.kind, node.children.map(rec));
    case 'not': {
      const inner = rec(node.child);
      return (x) => !inner(x);
    }
    case 'entity':
      return block(node.child);
  }
}

function combine<T>(op: 'and' | 'or', tests: readonly Test<T>[]): Test<T> {
  const [a, b, c] = tests;
  if (a === undefined) return () => op === 'and';
  if (b === undefined) return a;
  if (tests.length === 2) return op === 'and' ? (x) => a(x) && b(x) : (x) => a(x) || b(x);
  if (tests.length === 3 && c !== undefined) {
    return op === 'and' ? (x) => a(x) && b(x) && c(x) : (x) => a(x) || b(x) || c(x);
  }
  const all = tests.slice();
  const n = all.length;
  if (op === 'and') {
    return (x) => {
      for (let i = 0; i < n; i++) if (!(all[i] as Test<T>)(x)) return false;
      return true;
    };
  }
  return (x) => {
    for (let i = 0; i < n; i++) if ((all[i] as Test<T>)(x)) return true;
    return false;
  };
}
