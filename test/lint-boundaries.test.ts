/**
 * The layer rule of eslint.config.js (docs/architecture.md) catches imports against the dependency direction, and
 * its table (`LAYERS`) is the one docs/architecture.md shows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: ROOT });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(import.meta.dirname, '..', file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'ingot/boundaries').map((m) => m.message);
}

describe('layer boundaries', () => {
  it('refuses the CLI importing the database layer', async () => {
    const errors = await boundaryErrors('src/cli/probe.ts', "import type { Store } from '../db/store.js';\nexport type X = Store;\n");
    expect(errors).toEqual(["layer 'cli' may not import layer 'db' (docs/architecture.md, the layout of src/)"]);
  });

  it('refuses the domain importing the API, and the agent importing the conductor', async () => {
    expect(await boundaryErrors('src/domain/probe.ts', "export { buildApp } from '../api/app.js';\n")).toHaveLength(1);
    expect(await boundaryErrors('src/agent/deep/probe.ts', "import '../../conductor/task.js';\n")).toHaveLength(1);
  });

  it('refuses the API importing any file of the conductor but its contract, and says why', async () => {
    const errors = await boundaryErrors('src/api/probe.ts', "import { refuseWhileTransitioning } from '../conductor/flows/management.js';\nexport const r = refuseWhileTransitioning;\n");
    expect(errors).toEqual([
      "layer 'api' may import of 'conductor' only conductor/client.ts: the rest is the conductor's inside, which the api reaches through that contract alone, so it can run in another process (docs/architecture.md, the conductor contract)",
    ]);
    expect(await boundaryErrors('src/api/routes/deep/probe.test.ts', "import { LocalConductorClient } from '../../../conductor/local-client.js';\nexport const L = LocalConductorClient;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/api/probe.ts', "export type { Task } from '../conductor/task.js';\n")).toHaveLength(1);
    expect(await boundaryErrors('src/api/probe.ts', "export const load = () => import('../conductor/json-transport.js');\n")).toHaveLength(1);
  });

  it('leaves the composition roots free to wire the conductor together', async () => {
    const code = "import { LocalConductorClient } from '../conductor/local-client.js';\nexport const L = LocalConductorClient;\n";
    expect(await boundaryErrors('src/main/probe.ts', code)).toEqual([]);
  });

  it('allows the API to import the conductor contract and itself', async () => {
    const code = "import type { ConductorClient } from '../conductor/client.js';\nimport { errorBody } from './errors.js';\nexport type C = ConductorClient;\nexport const e = errorBody;\n";
    expect(await boundaryErrors('src/api/probe.ts', code)).toEqual([]);
    expect(await boundaryErrors('src/api/routes/probe.ts', "import type { NodeChanges } from '../../conductor/client.js';\nexport type N = NodeChanges;\n")).toEqual([]);
  });
});

type LayerTable = Record<string, string[]>;

/** The table of docs/architecture.md "The layout of src/": folder -> the layers its last column names. */
function documentedLayers(): LayerTable {
  const text = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = text.split(/^## /m).find((s) => s.startsWith('The layout of src/')) ?? '';
  const rows = section.split('\n').filter((line) => /^\| `[a-z-]+\/` \|/.test(line)).map((line) => line.split('|').map((cell) => cell.trim()));
  const folders = rows.map((cells) => (cells[1] ?? '').replace(/^`|\/`$/g, ''));
  const table: LayerTable = {};
  rows.forEach((cells, i) => {
    const folder = folders[i]!;
    const imports = cells[3] ?? '';
    table[folder] = /every other folder/.test(imports)
      ? folders.filter((f) => f !== folder)
      : [...imports.matchAll(/`([a-z][a-z-]*)`/g)].map((m) => m[1]!);
  });
  return table;
}

/** Each layer's imports sorted, so that the order in which a table lists them does not matter. */
function sorted(table: LayerTable): LayerTable {
  const keys = Object.keys(table).sort();
  return Object.fromEntries(keys.map((k) => [k, [...(table[k] ?? [])].sort()]));
}

describe('the layer table', () => {
  it('is the same in eslint.config.js and docs/architecture.md, and names every folder of src/', async () => {
    const { LAYERS } = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.js')).href)) as { LAYERS: LayerTable };
    const documented = documentedLayers();
    const folders = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect(Object.keys(sorted(LAYERS))).toEqual(folders);
    expect(Object.keys(sorted(documented))).toEqual(folders);
    expect(sorted(documented)).toEqual(sorted(LAYERS));
  });
});
