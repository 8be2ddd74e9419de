// Lint rules for Ingot, including the layer boundaries of docs/architecture.md ("The layout of src/"): each folder of src/ may
// import only the layers listed for it below (dependencies point one way).
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** layer -> the layers it may import (itself always allowed); docs/architecture.md has the same table. */
export const LAYERS = {
  shared: [],
  domain: ['shared'],
  config: ['shared'],
  protocol: ['shared'],
  db: ['shared', 'domain', 'config'],
  drivers: ['shared', 'domain', 'config', 'protocol'],
  inspection: ['shared', 'domain', 'config', 'protocol'],
  images: ['shared', 'config'],
  boot: ['shared', 'domain', 'config', 'images'],
  conductor: ['shared', 'domain', 'config', 'protocol', 'db', 'drivers', 'inspection', 'images', 'boot'],
  api: ['shared', 'domain', 'config', 'protocol', 'db', 'inspection', 'conductor'],
  agent: ['shared', 'protocol'],
  bmc: ['shared', 'config', 'protocol', 'agent'],
  cli: ['shared', 'protocol'],
  lab: ['shared', 'config', 'protocol', 'bmc'],
  main: Object.keys({ shared: 1, domain: 1, config: 1, protocol: 1, db: 1, drivers: 1, inspection: 1, images: 1, boot: 1, conductor: 1, api: 1, agent: 1, bmc: 1, cli: 1, lab: 1 }),
};

/**
 * layer -> layer -> the only files (under src/, without extension) of that layer it may import. The API
 * reaches the conductor through its contract alone, so that the contract can go on the wire between
 * processes (`ingot api`, `ingot conductor`) without the API noticing.
 */
const ONLY_THROUGH = {
  api: { conductor: ['conductor/client'] },
};

const SRC = path.resolve('src');

function layerOf(file) {
  const rel = path.relative(SRC, file);
  if (rel.startsWith('..')) return undefined;
  return rel.split(path.sep)[0];
}

const boundaries = {
  meta: {
    type: 'problem',
    messages: {
      forbidden: "layer '{{from}}' may not import layer '{{to}}' (docs/architecture.md, the layout of src/)",
      contract: "layer '{{from}}' may import of '{{to}}' only {{only}}: the rest is the {{to}}'s inside, which the {{from}} reaches through that contract alone, so it can run in another process (docs/architecture.md, the conductor contract)",
    },
  },
  create(context) {
    const from = layerOf(context.filename);
    if (!from || !(from in LAYERS)) return {};
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), spec);
      const to = layerOf(target);
      if (!to || to === from) return;
      if (!LAYERS[from].includes(to)) {
        context.report({ node, messageId: 'forbidden', data: { from, to } });
        return;
      }
      const only = ONLY_THROUGH[from]?.[to];
      const file = path.relative(SRC, target).split(path.sep).join('/').replace(/\.(js|ts)$/, '');
      if (only && !only.includes(file)) {
        context.report({ node, messageId: 'contract', data: { from, to, only: only.map((f) => `${f}.ts`).join(', ') } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'ingot-data/**', 'bin/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { ingot: { rules: { boundaries } } },
    rules: {
      'ingot/boundaries': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
    },
  },
  { files: ['eslint.config.js', 'vitest.config.ts', 'vitest.lab.config.ts', 'vitest.peers.config.ts'], rules: { 'no-restricted-syntax': 'off' } },
);
