/**
 * A network boot environment over temporary directories, with recording fakes of DHCP and images, and
 * sample tasks on it whose node has the environment's ports and a management interface recording the
 * boot devices set.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { lazy } from '../../../test/support/lazy.js';
import type { BootConfig } from '../../config/boot.js';
import type { BootDevice, Node, Port } from '../../domain/node.js';
import { fakeManagement } from '../fake/management.js';
import { sampleTask, type SampleTask } from '../interfaces/sample-task.test-support.js';
import type { BootDhcpInput, BootDhcpOption, NetworkBootEnvironment } from './environment.js';

export const MAC_PXE = '52:54:00:aa:bb:01';
export const MAC_OTHER = '52:54:00:aa:bb:02';
export const TOKEN = 'secret-agent-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export function samplePort(address: string, pxe: boolean, id: number): Port {
  return {
    id, uuid: `00000000-0000-0000-0000-00000000000${id}`, address, node_id: 1, portgroup_id: null, name: null, extra: {}, internal_info: {},
    local_link_connection: {}, pxe_enabled: pxe, physical_network: null, is_smartnic: false, created_at: '2026-01-01T00:00:00.000Z', updated_at: null,
  };
}

export interface FakeEnv extends NetworkBootEnvironment {
  dir: string;
  portList: Port[];
  dhcpCalls: { op: 'update' | 'clean'; macs: string[]; options?: readonly BootDhcpOption[] }[];
  dhcpInputs: BootDhcpInput[];
  linked: string[];
  released: string[];
  bootDevices: { device: BootDevice; persistent: boolean }[];
  /** Bytes the fake cache holds for a URL. */
  bytesOf(url: string): string;
  /** A sample task on a node with `over`, the ports of {@link portList} and a management interface recording into {@link bootDevices}. */
  task(over?: Partial<Node>, signal?: AbortSignal): SampleTask;
  read(file: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function fakeEnv(overrides: Partial<BootConfig> = {}): Promise<FakeEnv> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ingot-netboot-'));
  const tftp = path.join(dir, 'tftp');
  const http = path.join(dir, 'http');
  const cache = path.join(dir, 'cache');
  for (const d of [tftp, http, cache]) await mkdir(d, { recursive: true });
  const config: BootConfig = {
    http_enabled: true, http_host: '127.0.0.1', http_port: 0, http_root_dir: http, http_url: 'http://10.9.0.1:8088', tftp_root_dir: tftp,
    tftp_server: '10.9.0.1', tftp_path_prefix: '', api_url: 'http://10.9.0.1:6385', kernel_append_params: 'nofb vga=normal',
    pxe_bootfile_name: 'pxelinux.0', uefi_pxe_bootfile_name: 'bootx64.efi', ipxe_bootfile_name: 'undionly.kpxe', uefi_ipxe_bootfile_name: 'snponly.efi',
    ipxe_timeout_s: 0, uefi_http_bootfile_name: 'bootx64.efi', ...overrides,
  };
  const bytesOf = (url: string) => `image bytes of ${url}\n`;
  const env: FakeEnv = {
    dir, config, portList: [samplePort(MAC_PXE, true, 1), samplePort(MAC_OTHER, false, 2)], dhcpCalls: [], dhcpInputs: [], linked: [], released: [], bootDevices: [],
    bytesOf,
    dhcp: {
      async updatePortOptions(_node, ports, options) {
        env.dhcpCalls.push({ op: 'update', macs: ports.map((p) => p.address), options });
      },
      async cleanPortOptions(ports) {
        env.dhcpCalls.push({ op: 'clean', macs: ports.map((p) => p.address) });
      },
    },
    dhcpOptions(input) {
      env.dhcpInputs.push(input);
      return [{ option: 67, value: input.ipxeScriptUrl ?? input.biosBootFile }];
    },
    images: {
      async linkForNode(key, req) {
        env.linked.push(key);
        const file = path.join(cache, key);
        await writeFile(file, bytesOf(req.url));
        return { path: file };
      },
      async releaseNode(key) {
        env.released.push(key);
        await rm(path.join(cache, key), { force: true });
      },
    },
    task(over = {}, signal) {
      const management = {
        ...fakeManagement(),
        async setBootDevice(_task: unknown, device: BootDevice, persistent: boolean) {
          env.bootDevices.push({ device, persistent });
        },
      };
      return sampleTask(over, signal, { ports: env.portList, driver: { management } });
    },
    read: (file) => readFile(file, 'utf8'),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
  return env;
}

/** driver_info of a node that can network-boot the agent. */
export const DEPLOY_INFO = { deploy_kernel: 'http://images.example/ipa.kernel', deploy_ramdisk: 'file:///srv/ipa.initramfs' };

/**
 * A fake environment for the calling `describe` block: a fresh one for each test (`'test'`) or one for
 * all its tests (`'block'`), cleaned up after.
 */
export function useFakeEnv(per: 'test' | 'block' = 'test'): FakeEnv {
  let env: FakeEnv | undefined;
  (per === 'test' ? beforeEach : beforeAll)(async () => {
    env = await fakeEnv();
  });
  (per === 'test' ? afterEach : afterAll)(async () => {
    await env?.cleanup();
    env = undefined;
  });
  return lazy(() => env, 'the fake network boot environment');
}

/** A task on `env` whose node is ready to boot the deploy ramdisk: its deploy images and agent token, with `over`. */
export function deployReadyTask(env: FakeEnv, over: Partial<Node> = {}): SampleTask {
  return env.task({ driver_info: { ...DEPLOY_INFO }, driver_internal_info: { agent_secret_token: TOKEN }, ...over });
}
