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

  it('allows the API to import the conductor contract and itself', async () => {
    const code = "import type { ConductorClient } from '../conductor/client.js';\nimport { errorBody } from './errors.js';\nexport type C = ConductorClient;\nexport const e = errorBody;\n";
    expect(await boundaryErrors('src/api/probe.ts', code)).toEqual([]);
  });
});
