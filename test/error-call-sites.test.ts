/**
 * Errors are raised by message id with values, never with a sentence written at the call site (docs/errors.md):
 * no `fail(id, '…')` and no `new IngotError(code, …)` in the product code of src/, but in the few places that
 * build an error from a message rendered elsewhere (the mechanism itself, an error class rebuilt from
 * the conductor contract's wire, an IPMI client error raised under the interface's code). Read with the
 * TypeScript parser, so a sentence split over lines or built in a template is found too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..', 'src');

/** The files that may construct an IngotError from a message they were given, each with why. */
const BUILDS_FROM_RENDERED: Readonly<Record<string, string>> = {
  'shared/errors.ts': 'the mechanism',
  'conductor/json-transport.ts': 'rebuilds the error a conductor answered over the wire',
  'drivers/ipmi/errors.ts': 'raises an IPMI client error, rendered from its table, under the interface’s code',
};

/** The product files of src/: no tests, test support or conformance suites. */
function productFiles(): string[] {
  return readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !/\.(test|test-support|case)\.ts$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(SRC, path.join(e.parentPath, e.name)))
    .sort();
}

/** Where `text` raises an error with a sentence: `fail(x, '…' | `…` | a + b)` or `new IngotError(…)`. */
function sentences(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const isText = (node: ts.Expression | undefined) =>
    node !== undefined && (ts.isStringLiteral(node) || ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isBinaryExpression(node));
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'fail' && isText(node.arguments[1])) {
      found.push(`${at(node)} fail() with a sentence`);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'IngotError' && !Object.hasOwn(BUILDS_FROM_RENDERED, file)) {
      found.push(`${at(node)} new IngotError()`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('error call sites', () => {
  it('raise errors by message id and values, nowhere with a sentence', () => {
    const files = productFiles();
    expect(files.length).toBeGreaterThan(300);
    expect(files.flatMap((f) => sentences(f, readFileSync(path.join(SRC, f), 'utf8')))).toEqual([]);
  });

  it('finds a sentence however it is written', () => {
    const code = [
      "throw fail('InvalidParameterValue', 'a sentence');",
      'throw fail("NodeNotFound", `Node ${x} could not be found.`);',
      "throw fail('DriverOperationError',\n  'split ' + 'over lines');",
      "throw new IngotError('Internal', 'x');",
      "throw fail('NodeNotFound', { node: x });",
    ].join('\n');
    expect(sentences('x.ts', code)).toEqual(['x.ts:1 fail() with a sentence', 'x.ts:2 fail() with a sentence', 'x.ts:3 fail() with a sentence', 'x.ts:5 new IngotError()']);
  });

  it('names only files that exist as the places that build errors from rendered messages', () => {
    const files = new Set(productFiles());
    for (const file of Object.keys(BUILDS_FROM_RENDERED)) expect(files.has(file), file).toBe(true);
  });
});
