import type { QueryNode } from './ast.js';
import { isWordText } from './lexer.js';
import { DEFAULT_FIELD } from './parser.js';
import type { Comparison } from './target.js';

/**
 * The canonical text of a tree: explicit AND, upper-case operators, bare terms
 * for the title, parentheses only where the tree needs them. Parsing the result
 * gives an equal tree, at no greater nesting depth.
 */
export function printQuery(node: QueryNode): string {
  switch (node.kind) {
    case 'and':
      // OR and AND children came from parentheses; keep them.
      return node.children
        .map((c) => (c.kind === 'and' || c.kind === 'or' ? `(${printQuery(c)})` : printQuery(c)))
        .join(' AND ');
    case 'or':
      // AND binds tighter than OR, so an AND child needs no parentheses.
      return node.children
        .map((c) => (c.kind === 'or' ? `(${printQuery(c)})` : printQuery(c)))
        .join(' OR ');
    case 'not':
      return `NOT ${node.child.kind === 'and' || node.child.kind === 'or' ? `(${printQuery(node.child)})` : printQuery(node.child)}`;
    case 'entity':
      return `{{${printQuery(node.child)}}}`;
    case 'group':
      return `${node.field}:(${node.values.map((v) => printValue(v, 'group')).join(node.op === 'or' ? ' OR ' : ' AND ')})`;
    case 'predicate': {
      const { field, comparison: c } = node;
      if (
        field === DEFAULT_FIELD &&
        (c.op === 'phrase' || (c.op === 'eq' && isBareWord(c.value)))
      ) {
        return printValue(c, 'bare');
      }
      return `${field}:${printValue(c, 'attached')}`;
    }
  }
}

/** Where a value is written: bare (title), right after `field:`, or among the values of a group. */
type Place = 'bare' | 'attached' | 'group';

function printValue(c: Comparison, place: Place): string {
  switch (c.op) {
    case 'eq':
      return printWord(c.value, place);
    case 'phrase':
      return c.slop > 0 ? `${quote(c.value)}~${c.slop}` : quote(c.value);
    case 'gt':
      return `>${printWord(String(c.value), 'group')}`;
    case 'gte':
      return `>=${printWord(String(c.value), 'group')}`;
    case 'lt':
      return `<${printWord(String(c.value), 'group')}`;
    case 'lte':
      return `<=${printWord(String(c.value), 'group')}`;
    case 'range':
      return `[${c.from === undefined ? '*' : printWord(String(c.from), 'group')} TO ${c.to === undefined ? '*' : printWord(String(c.to), 'group')}]`;
  }
}

const OPERATOR = /^(AND|OR|NOT|TO)$/;

/** A word as it can stand at `place`; quoted when it could not (quotes only quote outside title phrases). */
function printWord(value: string, place: Place): string {
  if (!isWordText(value) || /[*?]/.test(value)) return quote(value);
  if (place === 'group' && OPERATOR.test(value)) return quote(value);
  return value;
}

/** A title term that can be written without `title:`. */
function isBareWord(value: string): boolean {
  return (
    isWordText(value) &&
    !value.includes(':') &&
    !/^(and|or|not)$/i.test(value) &&
    value !== 'TO' &&
    value !== '&&' &&
    value !== '||' &&
    !/^[-+!]./.test(value)
  );
}

function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/** An indented outline of the tree, for `news query check`. */
export function describeQuery(node: QueryNode): string {
  const lines: string[] = [];
  const walk = (n: QueryNode, indent: string): void => {
    switch (n.kind) {
      case 'and':
      case 'or':
        lines.push(`${indent}${n.kind.toUpperCase()}`);
        for (const c of n.children) walk(c, `${indent}  `);
        return;
      case 'not':
        lines.push(`${indent}NOT`);
        walk(n.child, `${indent}  `);
        return;
      case 'entity':
        lines.push(`${indent}ENTITY (all conditions hold for one entity)`);
        walk(n.child, `${indent}  `);
        return;
      case 'group':
        lines.push(`${indent}${n.field} ${n.op === 'or' ? 'any of' : 'all of'}`);
        for (const v of n.values) lines.push(`${indent}  ${describeComparison(v)}`);
        return;
      case 'predicate':
        lines.push(`${indent}${n.field} ${describeComparison(n.comparison)}`);
        return;
    }
  };
  walk(node, '');
  return lines.join('\n');
}

function describeComparison(c: Comparison): string {
  switch (c.op) {
    case 'eq':
      return `= ${printWord(c.value, 'group')}`;
    case 'phrase':
      return `phrase ${quote(c.value)}${c.slop > 0 ? ` within ${c.slop} words` : ''}`;
    case 'gt':
      return `> ${c.value}`;
    case 'gte':
      return `>= ${c.value}`;
    case 'lt':
      return `< ${c.value}`;
    case 'lte':
      return `<= ${c.value}`;
    case 'range':
      return `in [${c.from ?? '*'} TO ${c.to ?? '*'}]`;
  }
}
