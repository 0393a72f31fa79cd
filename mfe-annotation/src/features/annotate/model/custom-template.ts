import { parse, type AST } from '@handlebars/parser';
import type { AnnotationRecord } from './types.js';

/**
 * Custom field templates in Handlebars, the template language of the reference. Handlebars'
 * own compiler turns a template into JavaScript and runs it with `new Function`, which the page's
 * CSP (no 'unsafe-eval') forbids: the official parser reads the template here and this module
 * walks its tree. Built in: `if`, `unless` (with `includeZero`), `each` (arrays and objects, with
 * `@index`, `@key`, `@first`, `@last`, block parameters), `with`, `lookup`, `json`, `{{else}}`
 * and `{{else if}}` chains, `../` and `@root`, comments and whitespace control. Partials and
 * decorators are not part of a custom field and print nothing.
 */

type Scope = Record<string, unknown>;

interface Frame {
  context: unknown;
  data: Scope;
  blockParams: Scope;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"'`=]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;', '`': '&#x60;', '=': '&#x3D;' })[c]!);

/** Handlebars' emptiness: false, null, undefined, '', 0 (unless includeZero) and []. */
function isEmpty(value: unknown, includeZero = false): boolean {
  if (value === 0) return !includeZero;
  return !value || (Array.isArray(value) && value.length === 0);
}

function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function property(target: unknown, key: string): unknown {
  if (target === null || target === undefined || typeof target !== 'object') return undefined;
  return Object.hasOwn(target, key) ? (target as Scope)[key] : undefined;
}

class Renderer {
  program(program: AST.Program | undefined, frames: Frame[]): string {
    if (!program) return '';
    return program.body.map((statement) => this.statement(statement, frames)).join('');
  }

  private statement(statement: AST.Statement, frames: Frame[]): string {
    switch (statement.type) {
      case 'ContentStatement':
        return (statement as AST.ContentStatement).value;
      case 'MustacheStatement': {
        const mustache = statement as AST.MustacheStatement;
        const text = toText(this.call(mustache, frames));
        return mustache.escaped ? escapeHtml(text) : text;
      }
      case 'BlockStatement':
        return this.block(statement as AST.BlockStatement, frames);
      default:
        return ''; // comments, partials, decorators
    }
  }

  private path(path: AST.PathExpression, frames: Frame[]): unknown {
    const [head, ...tail] = path.parts.map(String);
    const frame = frames[Math.max(0, frames.length - 1 - path.depth)]!;
    let value: unknown;
    if (path.data) value = property(frame.data, head ?? ''); // @index, @key, @first, @last, @root
    else if (head !== undefined && path.depth === 0 && frames.some((f) => Object.hasOwn(f.blockParams, head))) {
      value = frames.findLast((f) => Object.hasOwn(f.blockParams, head))!.blockParams[head];
    } else if (head === undefined) return frame.context; // `this`, `.`, `../`
    else value = property(frame.context, head);
    for (const key of tail) value = property(value, key);
    return value;
  }

  private expression(expression: AST.Expression, frames: Frame[]): unknown {
    switch (expression.type) {
      case 'PathExpression':
        return this.path(expression as AST.PathExpression, frames);
      case 'SubExpression':
        return this.call(expression as AST.SubExpression, frames);
      case 'StringLiteral':
      case 'NumberLiteral':
      case 'BooleanLiteral':
        return (expression as AST.StringLiteral).value;
      default:
        return undefined;
    }
  }

  /** A mustache or sub-expression: a helper with its arguments, else a value. */
  private call(node: AST.MustacheStatement | AST.SubExpression, frames: Frame[]): unknown {
    const args = node.params.map((param) => this.expression(param, frames));
    const name = node.path.type === 'PathExpression' ? (node.path as AST.PathExpression).original : undefined;
    if (name === 'lookup') return property(args[0], toText(args[1])) ?? (Array.isArray(args[0]) ? args[0][Number(args[1])] : undefined);
    if (name === 'json') return JSON.stringify(args[0] ?? null);
    if (args.length > 0) return ''; // an unknown helper
    return this.expression(node.path, frames);
  }

  private hash(block: AST.BlockStatement, key: string, frames: Frame[]): unknown {
    const pair = block.hash?.pairs.find((p) => p.key === key);
    return pair ? this.expression(pair.value, frames) : undefined;
  }

  private block(block: AST.BlockStatement, frames: Frame[]): string {
    const name = block.path.original;
    const frame = frames[frames.length - 1]!;
    const inner = (context: unknown, data: Scope = {}, params: unknown[] = []) => {
      const blockParams = Object.fromEntries(block.program.blockParams?.map((param, i) => [param, params[i]]) ?? []);
      return this.program(block.program, [...frames, { context, data: { ...frame.data, ...data }, blockParams }]);
    };
    const otherwise = () => this.program(block.inverse, frames);
    const value = block.params.length > 0 ? this.expression(block.params[0]!, frames) : undefined;
    switch (name) {
      case 'if':
        return isEmpty(value, Boolean(this.hash(block, 'includeZero', frames))) ? otherwise() : this.program(block.program, frames);
      case 'unless':
        return isEmpty(value, Boolean(this.hash(block, 'includeZero', frames))) ? this.program(block.program, frames) : otherwise();
      case 'with':
        return isEmpty(value) ? otherwise() : inner(value, {}, [value]);
      case 'each':
        return this.each(value, inner, otherwise);
      default: {
        // A block on a value (mustache sections): a list repeats, a truthy value enters it.
        const section = this.path(block.path, frames);
        if (Array.isArray(section)) return this.each(section, inner, otherwise);
        if (isEmpty(section)) return otherwise();
        return inner(typeof section === 'object' ? section : frame.context);
      }
    }
  }

  private each(value: unknown, inner: (context: unknown, data: Scope, params: unknown[]) => string, otherwise: () => string): string {
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : value && typeof value === 'object' ? Object.entries(value) : [];
    if (entries.length === 0) return otherwise();
    return entries.map(([key, item], index) =>
      inner(item, { index, key, first: index === 0, last: index === entries.length - 1 }, [item, key])).join('');
  }
}

/**
 * Renders a custom field's template for a record. The template sees `record` (`id`, `fields`,
 * `metadata`) and, as a shortcut, the keys of this field's own value (`{{title}}` for
 * `record.fields.<field>.title`). Values are HTML-escaped unless in triple braces (the result is
 * sanitised and shown in a sandboxed frame either way). A template that does not parse throws.
 */
export function renderCustomTemplate(template: string, record: AnnotationRecord, fieldName: string): string {
  const own = record.fields[fieldName];
  const root = {
    ...(own && typeof own === 'object' && !Array.isArray(own) ? own : {}),
    record: { id: record.id, fields: record.fields, metadata: record.metadata ?? {} },
  };
  return new Renderer().program(parse(template), [{ context: root, data: { root }, blockParams: {} }]);
}
