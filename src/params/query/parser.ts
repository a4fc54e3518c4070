import type { QueryNode } from './ast.js';
import { QUERY_LIMITS } from './ast.js';
import { fail } from './errors.js';
import { type QueryField, queryField, unknownFieldHint } from './fields.js';
import { Lexer, type Token } from './lexer.js';
import type { Comparison } from './target.js';
import { rejectWildcard, toComparison, type ValueItem, type WordItem } from './validate.js';

/** The field a bare term or phrase searches. */
export const DEFAULT_FIELD = 'title';

const OPERATORS = new Set(['AND', 'OR', 'NOT', 'TO']);

/**
 * Recursive descent over the grammar in docs/QUERY-LANGUAGE.md. Recursion only
 * happens at `(`, `field:(` and `{{`, which the depth limit bounds, so no input
 * can exhaust the stack; NOT chains are built in a loop.
 */
export class Parser {
  private readonly lx: Lexer;
  private depth = 0;
  private predicates = 0;
  private inBlock = false;

  constructor(private readonly text: string) {
    this.lx = new Lexer(text);
  }

  parse(): QueryNode {
    checkLength(this.text);
    if (this.lx.peek().type === 'eof') fail('ER0701', 'an empty query', 0, this.text.length);
    const node = this.orExpr();
    const rest = this.lx.peek();
    if (rest.type !== 'eof') this.unexpected(rest);
    return node;
  }

  private orExpr(): QueryNode {
    const children = [this.andExpr()];
    for (;;) {
      const t = this.lx.peek();
      if (!isWord(t, 'OR')) break;
      this.lx.next();
      this.needOperand('OR', t);
      children.push(this.andExpr());
    }
    return children.length === 1 ? (children[0] as QueryNode) : { kind: 'or', children };
  }

  /** `a AND b`, and `a b` (juxtaposition is AND). */
  private andExpr(): QueryNode {
    const children = [this.notExpr()];
    for (;;) {
      const t = this.lx.peek();
      if (isWord(t, 'AND')) {
        this.lx.next();
        this.needOperand('AND', t);
      } else if (!startsOperand(t)) {
        break;
      }
      children.push(this.notExpr());
    }
    return children.length === 1 ? (children[0] as QueryNode) : { kind: 'and', children };
  }

  private notExpr(): QueryNode {
    let nots = 0;
    for (;;) {
      const t = this.lx.peek();
      if (!isWord(t, 'NOT')) break;
      this.lx.next();
      this.needOperand('NOT', t);
      nots++;
    }
    let node = this.primary();
    for (; nots > 0; nots--) node = { kind: 'not', child: node };
    return node;
  }

  private needOperand(op: string, at: Token): void {
    if (!startsOperand(this.lx.peek())) {
      fail('ER0701', `${op} without a term after it`, at.pos, at.len);
    }
  }

  private primary(): QueryNode {
    const t = this.lx.next();
    switch (t.type) {
      case 'lparen': {
        this.enter(t);
        if (this.lx.peek().type === 'rparen') fail('ER0701', 'empty parentheses', t.pos, 2);
        const node = this.orExpr();
        this.close('rparen', t, 'an unclosed "("');
        return node;
      }
      case 'lblock': {
        if (this.inBlock) {
          fail(
            'ER0712',
            'an entity block inside an entity block',
            t.pos,
            t.len,
            'one {{ … }} already applies to one entity',
          );
        }
        this.enter(t);
        if (this.lx.peek().type === 'rblock') fail('ER0701', 'an empty entity block', t.pos, 4);
        this.inBlock = true;
        const child = this.orExpr();
        this.inBlock = false;
        this.close('rblock', t, 'an unclosed "{{"');
        return { kind: 'entity', child };
      }
      case 'phrase':
        return this.predicate(this.defaultField(t), {
          kind: 'phrase',
          text: t.text,
          slop: t.slop,
          pos: t.pos,
          len: t.len,
        });
      case 'word':
        return this.wordOperand(t);
      default:
        return this.unexpected(t);
    }
  }

  private wordOperand(t: Token & { type: 'word' }): QueryNode {
    this.checkOperatorWord(t);
    const colon = t.text.indexOf(':');
    if (colon < 0)
      return this.predicate(this.defaultField(t), {
        kind: 'word',
        text: t.text,
        pos: t.pos,
        len: t.len,
      });
    const name = t.text.slice(0, colon);
    if (name === '')
      fail('ER0701', 'a ":" without a field name', t.pos, 1, 'quote a value that contains ":"');
    rejectWildcard({ text: name, pos: t.pos, len: colon });
    const field = this.field(name, t.pos);
    const valuePos = t.pos + colon + 1;
    if (colon + 1 < t.text.length) {
      return this.predicate(field, {
        kind: 'word',
        text: t.text.slice(colon + 1),
        pos: valuePos,
        len: t.len - colon - 1,
      });
    }
    if (this.lx.peek().type === 'lparen') return this.group(field);
    const item = this.valueItem(false);
    if (item === undefined) fail('ER0701', `no value after "${name}:"`, valuePos, 0);
    return this.predicate(field, item);
  }

  /** The value after `field:` (or inside `field:( … )`), or undefined when none starts here. */
  private valueItem(inGroup: boolean): ValueItem | undefined {
    const t = this.lx.peek();
    switch (t.type) {
      case 'phrase':
        this.lx.next();
        return { kind: 'phrase', text: t.text, slop: t.slop, pos: t.pos, len: t.len };
      case 'word':
        if (OPERATORS.has(t.text)) {
          if (inGroup && t.text === 'NOT') {
            fail(
              'ER0701',
              'NOT inside a field group',
              t.pos,
              t.len,
              'write NOT field:value outside the group',
            );
          }
          return undefined;
        }
        this.lx.next();
        return { kind: 'word', text: t.text, pos: t.pos, len: t.len };
      case 'cmp': {
        this.lx.next();
        const v = this.lx.next();
        if (v.type !== 'word' || OPERATORS.has(v.text))
          fail('ER0701', `no value after "${this.text.slice(t.pos, t.pos + t.len)}"`, v.pos, v.len);
        return { kind: 'cmp', op: t.op, value: word(v), pos: t.pos, len: v.pos + v.len - t.pos };
      }
      case 'lbracket':
        this.lx.next();
        return this.range(t);
      default:
        return undefined;
    }
  }

  private range(open: Token): ValueItem {
    const from = this.lx.next();
    if (from.type !== 'word' || OPERATORS.has(from.text))
      fail('ER0701', 'a range without a start', from.pos, from.len, 'write [a TO b]');
    const to = this.lx.next();
    if (!isWord(to, 'TO')) fail('ER0701', 'a range without TO', to.pos, to.len, 'write [a TO b]');
    const end = this.lx.next();
    if (end.type !== 'word' || OPERATORS.has(end.text))
      fail('ER0701', 'a range without an end', end.pos, end.len, 'write [a TO b]');
    const close = this.lx.next();
    if (close.type !== 'rbracket') {
      fail(
        'ER0701',
        close.type === 'rblock' ? 'an exclusive range end "}"' : 'an unclosed "["',
        open.pos,
        1,
        'ranges are inclusive: [a TO b]',
      );
    }
    return {
      kind: 'range',
      from: word(from),
      to: word(end),
      pos: open.pos,
      len: close.pos + 1 - open.pos,
    };
  }

  /** `field:(a OR b OR c)`: one operator throughout; juxtaposition is AND. */
  private group(field: QueryField): QueryNode {
    const open = this.lx.next();
    this.enter(open);
    let op: 'and' | 'or' | undefined;
    const values: Comparison[] = [];
    for (;;) {
      const at = this.lx.peek();
      const item = this.valueItem(true);
      if (item === undefined) {
        if (at.type !== 'rparen') this.unexpected(at);
        fail(
          'ER0701',
          values.length === 0
            ? 'an empty field group'
            : 'a field group that ends after an operator',
          at.pos,
          1,
        );
      }
      if (values.length >= QUERY_LIMITS.maxGroupValues) {
        fail(
          'ER0711',
          `more than ${QUERY_LIMITS.maxGroupValues} values in one group`,
          item.pos,
          item.len,
        );
      }
      this.count(item.pos, item.len);
      values.push(toComparison(field, item));
      const t = this.lx.peek();
      if (t.type === 'rparen') break;
      let next: 'and' | 'or' = 'and';
      if (isWord(t, 'OR') || isWord(t, 'AND')) {
        next = t.text === 'OR' ? 'or' : 'and';
        this.lx.next();
      } else if (t.type === 'eof') {
        fail('ER0701', 'an unclosed "("', open.pos, 1);
      }
      if (op !== undefined && op !== next) {
        fail(
          'ER0701',
          'AND and OR mixed in one field group',
          t.pos,
          t.len,
          'split it: (f:(a OR b) AND f:c)',
        );
      }
      op = next;
    }
    this.lx.next();
    this.depth--;
    const [only] = values;
    if (values.length === 1 && only !== undefined)
      return { kind: 'predicate', field: field.name, comparison: only };
    return { kind: 'group', field: field.name, op: op ?? 'or', values };
  }

  private predicate(field: QueryField, item: ValueItem): QueryNode {
    this.count(item.pos, item.len);
    return { kind: 'predicate', field: field.name, comparison: toComparison(field, item) };
  }

  private field(name: string, pos: number): QueryField {
    const field = queryField(name);
    if (field === undefined)
      return fail('ER0702', `unknown field "${name}"`, pos, name.length, unknownFieldHint(name));
    if (this.inBlock && !field.inEntityBlock) {
      fail(
        'ER0712',
        `${name} inside an entity block`,
        pos,
        name.length,
        'inside {{ }} only entity.* fields',
      );
    }
    if (!this.inBlock && !field.outsideEntityBlock) {
      fail('ER0712', `${name} outside an entity block`, pos, name.length, `write {{${name}:…}}`);
    }
    return field;
  }

  private defaultField(t: Token): QueryField {
    if (this.inBlock) {
      fail(
        'ER0712',
        'a bare term inside an entity block',
        t.pos,
        t.len,
        'name the field: entity.name:…',
      );
    }
    return queryField(DEFAULT_FIELD) as QueryField;
  }

  private checkOperatorWord(t: Token & { type: 'word' }): void {
    if (t.text === 'AND' || t.text === 'OR')
      fail('ER0701', `${t.text} without a term before it`, t.pos, t.len);
    if (t.text === 'TO')
      fail('ER0701', 'TO outside a range', t.pos, t.len, 'ranges are field:[a TO b]');
    if (t.text === '&&' || t.text === '||') {
      fail(
        'ER0710',
        `"${t.text}" is not an operator here`,
        t.pos,
        t.len,
        `write ${t.text === '&&' ? 'AND' : 'OR'}`,
      );
    }
    const prefix = t.text[0];
    if ((prefix === '-' || prefix === '+' || prefix === '!') && t.text.length > 1) {
      fail(
        'ER0710',
        `the prefix operator "${prefix}" is not supported`,
        t.pos,
        1,
        'write NOT term, or quote the term',
      );
    }
    const upper = t.text.toUpperCase();
    if (upper === 'AND' || upper === 'OR' || upper === 'NOT') {
      fail(
        'ER0701',
        `"${t.text}": operators are upper case`,
        t.pos,
        t.len,
        `write ${upper}, or quote "${t.text}" to search the word`,
      );
    }
  }

  private enter(t: Token): void {
    if (++this.depth > QUERY_LIMITS.maxDepth) {
      fail('ER0711', `nesting deeper than ${QUERY_LIMITS.maxDepth}`, t.pos, t.len);
    }
  }

  private close(type: 'rparen' | 'rblock', open: Token, what: string): void {
    const t = this.lx.peek();
    if (t.type !== type) {
      if (t.type === 'eof') fail('ER0701', what, open.pos, open.len);
      this.unexpected(t);
    }
    this.lx.next();
    this.depth--;
  }

  private count(pos: number, len: number): void {
    if (++this.predicates > QUERY_LIMITS.maxPredicates) {
      fail('ER0711', `more than ${QUERY_LIMITS.maxPredicates} predicates`, pos, len);
    }
  }

  private unexpected(t: Token): never {
    const what =
      t.type === 'eof' ? 'the end of the query' : `"${this.text.slice(t.pos, t.pos + t.len)}"`;
    return fail('ER0701', `unexpected ${what}`, t.pos, t.len);
  }
}

function isWord(t: Token, text: string): t is Token & { type: 'word'; text: string } {
  return t.type === 'word' && t.text === text;
}

/** Whether a term, phrase, group or block (or NOT) starts at this token. */
function startsOperand(t: Token): boolean {
  switch (t.type) {
    case 'word':
      return t.text !== 'AND' && t.text !== 'OR' && t.text !== 'TO';
    case 'phrase':
    case 'lparen':
    case 'lblock':
      return true;
    default:
      return false;
  }
}

function word(t: Token & { type: 'word' }): WordItem {
  return { text: t.text, pos: t.pos, len: t.len };
}

/** ER0711 when the text has more than the limit's code points. */
function checkLength(text: string): void {
  if (text.length <= QUERY_LIMITS.maxLength) return;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    if (++n > QUERY_LIMITS.maxLength) {
      fail('ER0711', `longer than ${QUERY_LIMITS.maxLength} characters`, i, text.length - i);
    }
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++;
  }
}
