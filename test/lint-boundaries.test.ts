/** The layer rule of eslint.config.js (DESIGN.md §2) catches imports against the dependency direction. */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '..') });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(import.meta.dirname, '..', file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'ingot/boundaries').map((m) => m.message);
}

describe('layer boundaries', () => {
  it('refuses the CLI importing the database layer', async () => {
    const errors = await boundaryErrors('src/cli/probe.ts', "import type { Store } from '../db/store.js';\nexport type X = Store;\n");
    expect(errors).toEqual(["layer 'cli' may not import layer 'db' (DESIGN.md §2)"]);
  });

  it('refuses the domain importing the API, and the agent importing the conductor', async () => {
    expect(await boundaryErrors('src/domain/probe.ts', "export { buildApp } from '../api/app.js';\n")).toHaveLength(1);
    expect(await boundaryErrors('src/agent/deep/probe.ts', "import '../../conductor/task.js';\n")).toHaveLength(1);
  });

  it('refuses the API importing any file of the conductor but its contract, and says why', async () => {
    const errors = await boundaryErrors('src/api/probe.ts', "import { refuseWhileTransitioning } from '../conductor/flows/management.js';\nexport const r = refuseWhileTransitioning;\n");
    expect(errors).toEqual([
      "layer 'api' may import of 'conductor' only conductor/client.ts: the rest is the conductor's inside, which the api reaches through that contract alone, so it can run in another process (DESIGN.md §1)",
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
