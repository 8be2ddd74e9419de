/**
 * One list of Redfish driver checks, run against every Redfish peer: Ingot's own BMC emulator
 * (test/hardware/redfish-scenarios.test.ts, in `npm test`) and sushy-tools' emulator with its fake systems
 * driver (test/peers/, `npm run test:peers`). Power, reboot, boot device and persistence, boot mode, NMI,
 * virtual media for the boot interfaces and for the vmedia API, out-of-band inspection, credentials,
 * session or basic authentication and certificate verification.
 *
 * Each check acts through the driver and reads the outcome back from the BMC without the driver (a plain
 * GET of the Redfish resource), so a driver that sends the wrong request fails even if it reads its own
 * mistake back. What a peer does not do is declared in {@link RedfishPeer.lacks} and checked as a fact:
 * if the peer gains the feature, the check fails and the declaration goes.
 */
import http, { createServer, type Server } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/domain/node.js';
import type { DiscoveredPort } from '../../src/drivers/interfaces/base.js';
import { sampleTask } from '../../src/drivers/interfaces/sample-task.test-support.js';
import type { RedfishResource } from '../../src/drivers/redfish/client.js';
import { localGb, portsOf } from '../../src/drivers/redfish/inspect-mapping.js';
import { readStorage, redfishInspect } from '../../src/drivers/redfish/inspect.js';
import { getBootMode, redfishManagement, setBootMode } from '../../src/drivers/redfish/management.js';
import type { RedfishClientPool } from '../../src/drivers/redfish/pool.js';
import { redfishPower } from '../../src/drivers/redfish/power.js';
import { linkOf, openSystem, readMembers, readSystem } from '../../src/drivers/redfish/system.js';
import { ejectMedia, insertMedia } from '../../src/drivers/redfish/virtual-media.js';

/** The systems a peer provides, one per check, so that the checks can run at the same time. */
export const SCENARIO_SYSTEMS = ['power', 'reboot', 'boot-device', 'boot-mode', 'nmi', 'media', 'vmedia-api', 'inspect', 'auth'] as const;
export type ScenarioSystem = (typeof SCENARIO_SYSTEMS)[number];

/** One system of a peer as the checks see it. */
export interface PeerSystem {
  /** `driver_info` of a node on this system (address, system id, credentials, CA bundle). */
  driverInfo: JsonObject;
  /** The path of the system resource. */
  path: string;
  /** Paths of its virtual CD and virtual floppy/USB device. */
  media: { cd: string; floppy: string };
  /** GETs a path with the system's credentials, without the driver. */
  raw(path: string): Promise<RedfishResource>;
}

/** What the inspection of the `inspect` system yields on this peer. */
export type PeerInspection = (
  | { outcome: 'done'; properties: JsonObject }
  | { outcome: 'fails'; error: RegExp }
) & {
  /** The ports the NICs (EthernetInterfaces) map to. */
  ports: DiscoveredPort[];
  /** local_gb from the Storage drives and volumes alone. */
  storageLocalGb: number;
};

/** A Redfish service to run the checks against. */
export interface RedfishPeer {
  system(name: ScenarioSystem): PeerSystem;
  /** Images the BMC can fetch (virtual media insertion), and one that answers 404. */
  images: { cd: string; otherCd: string; floppy: string; missing: string };
  inspection: PeerInspection;
  /** What this peer lacks, each checked as the behaviour it shows instead. */
  lacks: {
    /** BootSourceOverrideEnabled is always Continuous: a one-time boot device reads back as persistent. */
    oneTimeBoot?: true;
    /** ResetType Nmi is refused; the error the driver reports. */
    nmi?: RegExp;
    /** No SessionService: session authentication is refused, basic works. */
    sessions?: true;
    /** InsertMedia does not fetch the image: an image URL that answers 404 is inserted anyway. */
    mediaFetch?: true;
  };
}

/** The driver interfaces over `pool`. */
function drivers(pool: RedfishClientPool) {
  return { power: redfishPower({ pool }), management: redfishManagement({ pool }), inspect: redfishInspect({ pool }) };
}

function taskOn(sys: PeerSystem, fields: JsonObject = {}, node: Parameters<typeof sampleTask>[0] = {}) {
  return sampleTask({ driver: 'redfish', driver_info: { ...sys.driverInfo, ...fields }, ...node });
}

/** The Boot object of the system as the BMC shows it. */
async function rawBoot(sys: PeerSystem): Promise<RedfishResource> {
  return ((await sys.raw(sys.path))['Boot'] ?? {}) as RedfishResource;
}

/**
 * Registers the checks under `label`. `peer` and `pool` are read when the checks run (the peer starts in
 * the caller's `beforeAll`).
 */
export function redfishDriverScenarios(label: string, peer: () => RedfishPeer, pool: () => RedfishClientPool): void {
  describe.concurrent(`redfish driver against ${label}`, () => {
    it('powers on, off and softly off, each reaching the BMC, and lists the power actions the BMC allows', async () => {
      const sys = peer().system('power');
      const { power } = drivers(pool());
      const task = taskOn(sys);
      expect(await power.getSupportedPowerStates(task)).toEqual(
        expect.arrayContaining(['power on', 'power off', 'soft power off', 'rebooting', 'soft rebooting']),
      );
      await power.setPowerState(task, 'power on');
      expect((await sys.raw(sys.path))['PowerState']).toBe('On');
      expect(await power.getPowerState(task)).toBe('power on');
      await power.setPowerState(task, 'power off');
      expect((await sys.raw(sys.path))['PowerState']).toBe('Off');
      expect(await power.getPowerState(task)).toBe('power off');
      await power.setPowerState(task, 'power on');
      await power.setPowerState(task, 'soft power off');
      expect((await sys.raw(sys.path))['PowerState']).toBe('Off');
    });

    it('reboots hard and softly, ending powered on, and a reboot of a machine that is off powers it on', async () => {
      const sys = peer().system('reboot');
      const { power } = drivers(pool());
      const task = taskOn(sys);
      await power.setPowerState(task, 'power off');
      await power.reboot(task, false);
      expect((await sys.raw(sys.path))['PowerState']).toBe('On');
      await power.setPowerState(task, 'rebooting');
      expect((await sys.raw(sys.path))['PowerState']).toBe('On');
      await power.setPowerState(task, 'soft rebooting');
      expect((await sys.raw(sys.path))['PowerState']).toBe('On');
      expect(await power.getPowerState(task)).toBe('power on');
    });

    it('sets the boot device once and persistently, with the node’s boot mode, and refuses one the BMC does not offer', async () => {
      const p = peer();
      const sys = p.system('boot-device');
      const { management } = drivers(pool());
      const task = taskOn(sys);
      expect(await management.getSupportedBootDevices(task)).toEqual(expect.arrayContaining(['pxe', 'disk', 'cdrom']));

      await management.setBootDevice(task, 'pxe', true);
      expect(await rawBoot(sys)).toMatchObject({ BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Continuous' });
      expect(await management.getBootDevice(task)).toEqual({ boot_device: 'pxe', persistent: true });

      await management.setBootDevice(task, 'disk', false);
      const once = p.lacks.oneTimeBoot ? 'Continuous' : 'Once';
      expect(await rawBoot(sys)).toMatchObject({ BootSourceOverrideTarget: 'Hdd', BootSourceOverrideEnabled: once });
      expect(await management.getBootDevice(task)).toEqual({ boot_device: 'disk', persistent: !!p.lacks.oneTimeBoot });

      // The node's boot mode goes with the device (BootSourceOverrideMode in the same PATCH).
      await management.setBootDevice(taskOn(sys, {}, { boot_mode: 'bios' }), 'cdrom', false);
      expect(await rawBoot(sys)).toMatchObject({ BootSourceOverrideTarget: 'Cd', BootSourceOverrideMode: 'Legacy' });
      await management.setBootDevice(taskOn(sys, {}, { boot_mode: 'uefi' }), 'pxe', true);
      expect(await rawBoot(sys)).toMatchObject({ BootSourceOverrideTarget: 'Pxe', BootSourceOverrideMode: 'UEFI' });

      await expect(management.setBootDevice(task, 'safe', false)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
      expect(await rawBoot(sys)).toMatchObject({ BootSourceOverrideTarget: 'Pxe' });
    });

    it('sets and reads the boot mode (BootSourceOverrideMode) and refuses an unknown one', async () => {
      const sys = peer().system('boot-mode');
      const task = taskOn(sys);
      const opts = { pool: pool() };
      await setBootMode(task, 'bios', opts);
      expect(await rawBoot(sys)).toMatchObject({ BootSourceOverrideMode: 'Legacy' });
      expect(await getBootMode(task, opts)).toBe('bios');
      await setBootMode(task, 'uefi', opts);
      expect(await rawBoot(sys)).toMatchObject({ BootSourceOverrideMode: 'UEFI' });
      expect(await getBootMode(task, opts)).toBe('uefi');
      await expect(setBootMode(task, 'efi' as 'uefi', opts)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
      expect(await getBootMode(task, opts)).toBe('uefi');
    });

    it('injects an NMI into a running machine', async () => {
      const p = peer();
      const sys = p.system('nmi');
      const { power, management } = drivers(pool());
      const task = taskOn(sys);
      await power.setPowerState(task, 'power on');
      const nmi = management.injectNmi?.(task);
      if (p.lacks.nmi) {
        await expect(nmi).rejects.toMatchObject({ code: 'DriverOperationError', message: expect.stringMatching(p.lacks.nmi) });
      } else {
        await expect(nmi).resolves.toBeUndefined();
      }
      expect((await sys.raw(sys.path))['PowerState']).toBe('On');
    });

    it('inserts, replaces and ejects virtual media for the boot interfaces', async () => {
      const p = peer();
      const sys = p.system('media');
      const task = taskOn(sys);
      const opts = { pool: pool() };
      await insertMedia(task, p.images.cd, 'cd', opts);
      expect(await sys.raw(sys.media.cd)).toMatchObject({ Image: p.images.cd, Inserted: true });
      // The same image again is a no-op; another one replaces it.
      await insertMedia(task, p.images.cd, 'cd', opts);
      await insertMedia(task, p.images.otherCd, 'cd', opts);
      expect(await sys.raw(sys.media.cd)).toMatchObject({ Image: p.images.otherCd, Inserted: true });
      await insertMedia(task, p.images.floppy, 'floppy', opts);
      expect(await sys.raw(sys.media.floppy)).toMatchObject({ Image: p.images.floppy, Inserted: true });
      await ejectMedia(task, 'floppy', opts);
      expect(await sys.raw(sys.media.floppy)).toMatchObject({ Inserted: false });
      expect(await sys.raw(sys.media.cd)).toMatchObject({ Image: p.images.otherCd, Inserted: true });
      await ejectMedia(task, undefined, opts);
      expect(await sys.raw(sys.media.cd)).toMatchObject({ Inserted: false });
    });

    it('attaches and detaches virtual media through the vmedia API, refusing an occupied device and an image the BMC cannot fetch', async () => {
      const p = peer();
      const sys = p.system('vmedia-api');
      const { management } = drivers(pool());
      const m = management as Required<typeof management>;
      const task = taskOn(sys);
      await m.detachVirtualMedia(task);
      await m.attachVirtualMedia(task, 'cdrom', p.images.cd);
      expect(await sys.raw(sys.media.cd)).toMatchObject({ Image: p.images.cd, Inserted: true, WriteProtected: true });
      const listed = await m.getVirtualMedia(task);
      expect(listed).toContainEqual({ media_types: expect.arrayContaining(['CD']), inserted: true, image: p.images.cd });

      await expect(m.attachVirtualMedia(task, 'cdrom', p.images.otherCd)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
      expect(await sys.raw(sys.media.cd)).toMatchObject({ Image: p.images.cd, Inserted: true });
      await m.detachVirtualMedia(task, ['cdrom']);
      expect(await sys.raw(sys.media.cd)).toMatchObject({ Inserted: false });

      const missing = m.attachVirtualMedia(task, 'cdrom', p.images.missing);
      if (p.lacks.mediaFetch) {
        await missing;
        expect(await sys.raw(sys.media.cd)).toMatchObject({ Image: p.images.missing, Inserted: true });
      } else {
        await expect(missing).rejects.toMatchObject({
          code: 'InvalidParameterValue', message: expect.stringMatching(/^All virtual media mount attempts failed\. Error encountered: .*answered 400/),
        });
        expect(await sys.raw(sys.media.cd)).toMatchObject({ Inserted: false });
      }
      await m.detachVirtualMedia(task);
      expect(await sys.raw(sys.media.cd)).toMatchObject({ Inserted: false });
    });

    it('inspects the machine out of band: properties, ports from the NICs and local_gb from the drives', async () => {
      const p = peer();
      const sys = p.system('inspect');
      const { inspect } = drivers(pool());
      const task = taskOn(sys, {}, { properties: { vendor: 'kept' } });
      await inspect.validate(task);
      // The NIC and Storage parts of the mapping on their own (every peer has them), then the whole.
      const h = await openSystem(task, { pool: pool() });
      const system = await readSystem(h);
      const nics = await readMembers(h, linkOf(system, 'EthernetInterfaces') ?? `${sys.path}/EthernetInterfaces`);
      expect(portsOf(nics)).toEqual(p.inspection.ports);
      expect(localGb({ storage: await readStorage(h, system), simpleStorage: [] })).toBe(p.inspection.storageLocalGb);
      if (p.inspection.outcome === 'done') {
        expect(await inspect.inspectHardware(task)).toBe('done');
        expect(task.node.properties).toEqual({ vendor: 'kept', ...p.inspection.properties });
        expect(task.reportedPorts).toEqual(p.inspection.ports);
      } else {
        await expect(inspect.inspectHardware(task)).rejects.toThrow(p.inspection.error);
        expect(task.node.properties).toEqual({ vendor: 'kept' });
        expect(task.reportedPorts).toEqual([]);
      }
    });

    it('reports rejected credentials and an untrusted certificate clearly, and authenticates by session or basic as asked', async () => {
      const p = peer();
      const sys = p.system('auth');
      const { power } = drivers(pool());
      const wrong = taskOn(sys, { redfish_password: 'not-the-password' });
      await expect(power.getPowerState(wrong)).rejects.toThrow(/answered 401 .*credentials rejected: check redfish_username and redfish_password/);

      expect(await power.getPowerState(taskOn(sys, { redfish_auth_type: 'basic' }))).toMatch(/^power (on|off)$/);
      const session = power.getPowerState(taskOn(sys, { redfish_auth_type: 'session' }));
      if (p.lacks.sessions) await expect(session).rejects.toThrow(/offers no SessionService; set driver_info redfish_auth_type to basic or auto/);
      else expect(await session).toMatch(/^power (on|off)$/);

      await expect(power.getPowerState(taskOn(sys, { redfish_verify_ca: true }))).rejects.toThrow(/TLS certificate verification failed .*redfish_verify_ca/);
    });
  });
}

/** A plain GET of `url` + `path` with basic credentials, trusting `ca` (PEM) for HTTPS. */
export function rawGet(base: string, path: string, auth: { username: string; password: string }, ca?: string): Promise<RedfishResource> {
  const url = new URL(path, base);
  const lib = url.protocol === 'https:' ? https : http;
  const headers = { accept: 'application/json', authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` };
  return new Promise((resolve, reject) => {
    const req = lib.get(url, { headers, ...(ca ? { ca } : {}) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${url.href}: HTTP ${res.statusCode} ${text}`));
        else resolve(JSON.parse(text) as RedfishResource);
      });
    });
    req.on('error', reject);
  });
}

/** A loopback HTTP server of small images for virtual media (any other path answers 404). */
export interface MediaServer {
  images: RedfishPeer['images'];
  close(): Promise<void>;
}

/** Serves `boot.iso`, `other.iso` and `config.img` (a few bytes each) on 127.0.0.1. */
export async function startMediaServer(): Promise<MediaServer> {
  const files: Record<string, Buffer> = {
    '/boot.iso': Buffer.from('CD001 boot image of the Redfish checks\n'),
    '/other.iso': Buffer.from('CD001 another image\n'),
    '/config.img': Buffer.from('config drive\n'),
  };
  const server: Server = createServer((req, res) => {
    const body = files[(req.url ?? '/').split('?')[0] ?? '/'];
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    images: { cd: `${base}/boot.iso`, otherCd: `${base}/other.iso`, floppy: `${base}/config.img`, missing: `${base}/missing.iso` },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
