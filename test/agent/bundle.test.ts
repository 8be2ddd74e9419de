// The bundled agent (scripts/bundle-agent.mjs) runs on plain Node from a directory without node_modules.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import type { InspectionPayload } from '../../src/protocol/agent/inventory.js';
import { MESSAGES as AGENT_BUNDLE_MESSAGES } from '../../src/shared/messages/agent-bundle.js';
import { MESSAGES } from '../../src/shared/messages/index.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { listenHttp, readText, sendJson } from '../support/http-server.js';
import { PROFILE, command, fakeConductor } from './deploy-peers.js';

const run = promisify(execFile);
let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ingot-agent-bundle-'));
  bundle = path.join(dir, 'ingot-agent.cjs');
  await run(process.execPath, ['scripts/bundle-agent.mjs', '--outfile', bundle], { cwd: path.resolve(import.meta.dirname, '../..') });
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs the bundle with plain node from the temp dir; resolves with the exit code even when it fails. */
async function agent(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bundle, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('bundled agent', () => {
  it('imports nothing but node: builtins', async () => {
    const text = await readFile(bundle, 'utf8');
    const specifiers = [...text.matchAll(/(?:^|\n)\s*import\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((s) => !s?.startsWith('node:'))).toEqual([]);
  });

  it('carries the messages it can raise, and not the server\'s', async () => {
    const text = await readFile(bundle, 'utf8');
    // Every message id of Ingot that the bundle names as a string must be in the agent's table.
    const named = Object.keys(MESSAGES).filter((id) => text.includes(`"${id}"`));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((id) => !Object.hasOwn(AGENT_BUNDLE_MESSAGES, id))).toEqual([]);
    // The server's tables stay out (their texts would be dead weight in the ramdisk).
    const serverOnly = Object.entries(MESSAGES).filter(([id]) => !Object.hasOwn(AGENT_BUNDLE_MESSAGES, id));
    expect(serverOnly.length).toBeGreaterThan(0);
    expect(serverOnly.filter(([, spec]) => text.includes(JSON.stringify(spec.text)))).toEqual([]);
  });

  it('prints its usage with --help', async () => {
    const r = await agent(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--inspection-callback-url');
  });

  it('exits 2 naming a bad parameter', async () => {
    const r = await agent(['--hardware-manager=bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--hardware-manager: "bogus" is not a hardware manager');
  });

  it('inspects this machine and prints the payload', async () => {
    const r = await agent(['--print-payload', '--inspection-collectors=default,pci-devices']);
    expect(r.code).toBe(0);
    const p = JSON.parse(r.stdout) as InspectionPayload;
    expect(p.inventory.cpu.count).toBe(os.cpus().length);
    expect(p.inventory.interfaces.length).toBeGreaterThan(0);
    expect(Array.isArray(p.pci_devices)).toBe(true);
  });

  it('posts a simulated machine to a callback server', async () => {
    const profileFile = path.join(dir, 'profile.json');
    await writeFile(profileFile, JSON.stringify(simulatedProfile(3)));
    const got: InspectionPayload[] = [];
    const server = await listenHttp(async (req, res) => {
      got.push(JSON.parse(await readText(req)) as InspectionPayload);
      sendJson(res, 202, { uuid: 'abc' });
    });
    try {
      const url = `${server.url}/v1/continue_inspection`;
      const r = await agent([`--inspection-callback-url=${url}`, '--hardware-manager=simulated', `--simulated-profile=${profileFile}`, '--inspection-collectors=default,logs']);
      expect(r.stderr).toContain('HTTP 202');
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe('{"uuid":"abc"}');
      expect(got).toHaveLength(1);
      expect(got[0]?.inventory.interfaces.map((i) => i.mac_address)).toEqual(simulatedProfile(3).nics.map((n) => n.mac));
      expect(typeof got[0]?.logs).toBe('string');
    } finally {
      await server.close();
    }
  });

  it('runs the deploy agent: looks up, heartbeats, serves commands and exits 0 after power_off', async () => {
    const token = 'bundle-token-0123456789abcdef0123456789abcdef';
    const conductor = await fakeConductor({ nodeUuid: '0b8e3f3c-6b7e-4c35-9c7c-0d6a1b2c3d4e', token, macs: [PROFILE.nics[0]!.mac], heartbeatTimeoutS: 300 });
    const profileFile = path.join(dir, 'deploy-profile.json');
    await writeFile(profileFile, JSON.stringify(PROFILE));
    const child = execFile(process.execPath, [bundle, `--api-url=${conductor.url}`, '--hardware-manager=simulated', `--simulated-profile=${profileFile}`, `--simulated-disk=/dev/sda=${path.join(dir, 'sda.img')}`, '--listen-host=127.0.0.1', '--listen-port=0', '--lookup-interval=0.1'], { cwd: dir, env: { PATH: process.env.PATH ?? '' } });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      const end = Date.now() + 15_000;
      while (conductor.heartbeats.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(conductor.heartbeats, stderr).toHaveLength(1);
      const agentUrl = conductor.heartbeats[0]!.body.callback_url;
      expect(agentUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await command(agentUrl, 'standby.sync', {})).status).toBe(401);
      const steps = await command(agentUrl, 'clean.get_clean_steps', { node: {}, ports: [] }, { token });
      expect(steps.body.command_status).toBe('SUCCEEDED');
      expect((await command(agentUrl, 'standby.power_off', {}, { token, wait: true })).body.command_status).toBe('SUCCEEDED');
      expect(await exited).toBe(0);
      expect(stderr).toContain('deploy agent finished: power_off');
    } finally {
      if (child.exitCode === null && child.pid) process.kill(child.pid);
      await conductor.close();
    }
  });
});
