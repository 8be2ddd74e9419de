/**
 * No import cycle between the files of src/ (STANDARDS: "no import cycles"). The graph is built with the
 * TypeScript compiler's own scanner (`ts.preProcessFile`) from every `.ts` file under src/, unit tests and
 * their helpers included: static imports (type-only ones too), `export … from` and dynamic `import()`.
 * Relative specifiers are resolved as the compiler resolves them (NodeNext); package imports are no edges.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');
const OPTIONS: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, allowJs: false };

/** Every `.ts` file under `dir` (declaration files excluded). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** File -> the files of `files` it imports (relative specifiers, resolved by the compiler). */
function importGraph(files: readonly string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): Map<string, string[]> {
  const known = new Set(files);
  // Only the files of the graph exist for the resolver: an import of anything else is no edge.
  const host: ts.ModuleResolutionHost = { fileExists: (f) => known.has(path.resolve(f)), readFile: (f) => ts.sys.readFile(f) };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(read(file), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const resolved = ts.resolveModuleName(fileName, file, OPTIONS, host).resolvedModule?.resolvedFileName;
      if (resolved) targets.add(path.resolve(resolved));
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const rel = (file: string) => path.relative(ROOT, file);

describe('import graph of src/', () => {
  const files = sourceFiles(SRC);
  const graph = importGraph(files);

  it('reads every kind of import: static, type-only, export-from and dynamic', () => {
    const probe = path.join(SRC, 'probe.ts');
    const read = () => "import type { A } from './a.js';\nexport { b } from './b.js';\nconst c = await import('./c.js');\nimport './d.js';\n";
    const probed = importGraph([probe, ...['a', 'b', 'c', 'd'].map((n) => path.join(SRC, `${n}.ts`))], (f) => (f === probe ? read() : ''));
    expect(probed.get(probe)?.map(rel)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts']);
  });

  it('finds a cycle, and names its files', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => path.join(SRC, `${n}.ts`)) as [string, string, string];
    const texts: Record<string, string> = { [a]: "import type { B } from './b.js';\n", [b]: "import { c } from './c.js';\n", [c]: "export * from './a.js';\n" };
    expect(cycles(importGraph([a, b, c], (f) => texts[f] ?? '')).map((cycle) => cycle.map(rel))).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts']]);
  });

  it('has no cycle', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(cycles(graph).map((cycle) => cycle.map(rel))).toEqual([]);
  });
});
