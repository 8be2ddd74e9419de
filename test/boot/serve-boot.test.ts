/**
 * `ingot serve` with its boot servers on: the TFTP server and the HTTP boot server listen on the ports
 * they report (port 0 through the environment: any free one) and serve what the boot interfaces write under the data directory,
 * and a node with the `ipxe` boot interface says in `validate` what network boot still needs.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOk } from '../support/http.js';
import { startServer, type RunningServer } from '../support/server.js';

const run = promisify(execFile);
let ingot: RunningServer;
let tftpPort: number;
let httpPort: number;

beforeAll(async () => {
  // Port 0 for both: the servers take free ports and `ingot serve` prints them.
  ingot = await startServer({
    env: { INGOT_TFTP_ENABLED: 'true', INGOT_TFTP_PORT: '0', INGOT_BOOT_HTTP_ENABLED: 'true', INGOT_BOOT_HTTP_PORT: '0', INGOT_BOOT_HTTP_HOST: '127.0.0.1', INGOT_TFTP_HOST: '127.0.0.1' },
  });
  tftpPort = ingot.tftpPort as number;
  httpPort = ingot.httpBootPort as number;
}, 30_000);
afterAll(async () => {
  await ingot?.dispose();
});

describe('boot servers in ingot serve', () => {
  it('says which ports it bound, and serves the TFTP root and the HTTP root of the data directory', async () => {
    expect(ingot.output()).toMatch(new RegExp(`ingot: TFTP server listening on 127\\.0\\.0\\.1 port ${tftpPort} \\(UDP\\)`));
    expect(ingot.output()).toContain(`ingot: HTTP boot server listening on 127.0.0.1 port ${httpPort}`);
    await mkdir(path.join(ingot.dataDir, 'tftpboot'), { recursive: true });
    await writeFile(path.join(ingot.dataDir, 'tftpboot', 'hello.txt'), 'over tftp\n');
    const tftp = await run('curl', ['-s', `tftp://127.0.0.1:${tftpPort}/hello.txt`]).catch((err: unknown) => {
      throw new Error(`curl tftp failed (apt-get install curl): ${String(err)}`);
    });
    expect(tftp.stdout).toBe('over tftp\n');
    await writeFile(path.join(ingot.dataDir, 'httpboot', 'kernel'), 'KERNELBYTES');
    const ranged = await fetch(`http://127.0.0.1:${httpPort}/kernel`, { headers: { range: 'bytes=6-10' } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('BYTES');
    const dispatcher = await fetch(`http://127.0.0.1:${httpPort}/boot.ipxe`);
    expect(await dispatcher.text()).toMatch(/^#!ipxe/);
  });

  it('an ipmi node boots with ipxe by default, and validate names what network boot needs', async () => {
    const node = await apiOk<{ uuid: string; boot_interface: string }>(ingot.url, 'POST', '/v1/nodes', { driver: 'ipmi', name: 'netboot', driver_info: { ipmi_address: '192.0.2.9' } });
    expect(node.boot_interface).toBe('ipxe');
    const v = await apiOk<{ boot: { result: boolean; reason: string | null } }>(ingot.url, 'GET', `/v1/nodes/${node.uuid}/validate`);
    expect(v.boot.result).toBe(false);
    expect(v.boot.reason).toMatch(/deploy_kernel/);
  });
});
