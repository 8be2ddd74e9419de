/**
 * The IPMI emulator at the byte level, driven by a small console built on Ingot's own codec: what
 * ipmitool cannot show (RAKP 4 refusal, session table behaviour, sequence window, idle timeout, faults).
 */
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startIpmiServer, type IpmiServer } from '../../src/bmc/ipmi/server.js';
import type { Machine, MachineFaults } from '../../src/bmc/machine.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { simulatedMachine } from '../../src/bmc/simulated.js';
import { untilTimersPending } from '../support/fake-timers.js';
import { UdpInbox } from '../support/udp-inbox.js';
import {

  ASF_TYPE_PING,
  CHASSIS_CONTROL,
  CIPHER_SUITES,
  CMD,
  COMPLETION,
  decodeAsf,
  decodeChannelAuthCapsResponse,
  decodeChannelInfoResponse,
  decodeCipherSuiteRecords,
  decodeIpmiResponse,
  decodeOpenSessionResponse,
  decodeRakp2,
  decodeRakp4,
  decodeV15Packet,
  deriveSessionKeys,
  encodeAsf,
  encodeChannelAuthCapsRequest,
  encodeChassisControlRequest,
  encodeCipherSuitesRequest,
  encodeCloseSessionRequest,
  encodeIpmiRequest,
  encodeOpenSessionRequest,
  encodeRakp1,
  encodeRakp3,
  encodeSessionPacket,
  encodeSetSessionPrivilegeRequest,
  encodeV15Packet,
  NETFN,
  openSessionPacket,
  parseSessionPacket,
  PAYLOAD_TYPE,
  PRIVILEGE,
  RAKP_STATUS,
  rakp3AuthCode,
  ROLE_NAME_ONLY_LOOKUP,
  sessionIntegrityKey,
  userKey,
  verifyRakp2,
  verifyRakp4,
  type IpmiResponse,
  type RakpContext,
  type SessionKeys,
} from '../../src/protocol/ipmi/index.js';


/** A minimal remote console over UDP: one request at a time, answers matched by arrival. */
class Console {
  private udp: UdpInbox<Buffer> | undefined;
  private rqSeq = 0;
  private seq = 0;
  keys?: SessionKeys;
  bmcSessionId = 0;
  consoleSessionId = 0;

  constructor(private readonly port: number) {}

  async bind(): Promise<this> {
    this.udp = await UdpInbox.open((msg) => msg);
    return this;
  }

  private get inbox(): UdpInbox<Buffer> {
    if (!this.udp) throw new Error('the console is not bound: call bind() first');
    return this.udp;
  }

  close(): void {
    void this.udp?.close();
  }

  /** Sends `datagram` without waiting for an answer (after forgetting what came before). */
  send(datagram: Buffer): void {
    this.inbox.drain();
    this.inbox.send(datagram, this.port);
  }

  /** Datagrams received since the last send. */
  received(): number {
    return this.inbox.length;
  }

  /** Sends `datagram` and waits for the next datagram back, or undefined after `timeoutMs`. */
  exchange(datagram: Buffer, timeoutMs = 1500): Promise<Buffer | undefined> {
    this.send(datagram);
    return this.inbox.next(timeoutMs);
  }

  async handshake(payloadType: number, payload: Buffer): Promise<Buffer> {
    const reply = await this.exchange(encodeSessionPacket({ payloadType, sessionId: 0, sequence: 0, payload }));
    if (!reply) throw new Error(`no answer to payload type 0x${payloadType.toString(16)}`);
    return openSessionPacket(parseSessionPacket(reply)).payload;
  }

  /** Open Session + RAKP 1..4. Returns the RAKP 2 status, and the RAKP 4 one when it got that far. */
  async login(username: string, password: string, suiteId = 17, opts: { skipRakp2Check?: boolean } = {}): Promise<{ rakp2: number; rakp4?: number }> {
    const suite = CIPHER_SUITES[suiteId];
    if (!suite) throw new Error('suite');
    this.consoleSessionId = (randomBytes(4).readUInt32LE(0) | 1) >>> 0;
    const open = decodeOpenSessionResponse(await this.handshake(PAYLOAD_TYPE.OPEN_SESSION_REQUEST, encodeOpenSessionRequest({ tag: 1, maxPrivilege: 0, consoleSessionId: this.consoleSessionId, ...suite })));
    expect(open.status).toBe(0);
    this.bmcSessionId = open.bmcSessionId ?? 0;
    const consoleRandom = randomBytes(16);
    const role = PRIVILEGE.ADMINISTRATOR | ROLE_NAME_ONLY_LOOKUP;
    const rakp2 = decodeRakp2(await this.handshake(PAYLOAD_TYPE.RAKP1, encodeRakp1({ tag: 2, bmcSessionId: this.bmcSessionId, consoleRandom, role, username })));
    if (rakp2.status !== 0) return { rakp2: rakp2.status };
    const ctx: RakpContext = {
      auth: suite.auth,
      consoleSessionId: this.consoleSessionId,
      bmcSessionId: this.bmcSessionId,
      consoleRandom,
      bmcRandom: rakp2.bmcRandom as Buffer,
      bmcGuid: rakp2.bmcGuid as Buffer,
      role,
      username,
    };
    const kuid = userKey(password);
    if (!opts.skipRakp2Check) expect(verifyRakp2(ctx, kuid, rakp2.authCode)).toBe(true);
    const rakp4 = decodeRakp4(await this.handshake(PAYLOAD_TYPE.RAKP3, encodeRakp3({ tag: 3, status: 0, bmcSessionId: this.bmcSessionId, authCode: rakp3AuthCode(ctx, kuid) })));
    if (rakp4.status !== 0) return { rakp2: 0, rakp4: rakp4.status };
    const sik = sessionIntegrityKey(ctx, kuid);
    expect(verifyRakp4(ctx, sik, rakp4.icv)).toBe(true);
    this.keys = deriveSessionKeys(suite, sik);
    return { rakp2: 0, rakp4: 0 };
  }

  /** Builds the datagram of a request in the session. */
  packet(netFn: number, cmd: number, data: Buffer = Buffer.alloc(0), sequence?: number, retry = false): Buffer {
    if (!retry) this.rqSeq = (this.rqSeq + 1) & 0x3f;
    const payload = encodeIpmiRequest({ netFn, cmd, rqSeq: this.rqSeq, data });
    return encodeSessionPacket({ payloadType: PAYLOAD_TYPE.IPMI, sessionId: this.bmcSessionId, sequence: sequence ?? ++this.seq, payload }, this.keys);
  }

  async command(netFn: number, cmd: number, data: Buffer = Buffer.alloc(0), timeoutMs?: number): Promise<IpmiResponse | undefined> {
    const reply = await this.exchange(this.packet(netFn, cmd, data), timeoutMs);
    if (!reply) return undefined;
    const pkt = openSessionPacket(parseSessionPacket(reply), this.keys);
    expect(pkt.sessionId).toBe(this.consoleSessionId);
    return decodeIpmiResponse(pkt.payload);
  }
}

const machine = (i: number, faults: Partial<MachineFaults> = {}, power: 'on' | 'off' = 'off'): Machine =>
  simulatedMachine({ name: `sim-${i}`, profile: simulatedProfile(i), username: 'admin', password: 'secret', faults, power });

let server: IpmiServer | undefined;
const consoles: Console[] = [];
/** What the emulator logged (debug), newest last. */
const serverLog: string[] = [];

async function setup(machines: Machine[], extra: { sessionTimeoutMs?: number; signal?: AbortSignal } = {}): Promise<number> {
  server = await startIpmiServer({ host: '127.0.0.1', machines, mode: { kind: 'port-per-machine', portBase: 0 }, logger: { debug: (l) => void serverLog.push(l) }, ...extra });
  return server.ports.get(machines[0]?.name ?? '') as number;
}

/** Waits for the emulator to log a line matching `pattern` after the first `from` lines. */
async function logged(pattern: RegExp, from = 0): Promise<void> {
  await vi.waitUntil(() => serverLog.slice(from).some((l) => pattern.test(l)), { timeout: 5000, interval: 5 });
}

/**
 * Sends `datagram` and waits for the emulator to log that it dropped it (`why`): no answer is owed, so
 * none must have come.
 */
async function expectIgnored(c: Console, datagram: Buffer, why: RegExp): Promise<void> {
  const from = serverLog.length;
  c.send(datagram);
  await logged(why, from);
  expect(c.received()).toBe(0);
}

async function consoleOn(port: number): Promise<Console> {
  const c = await new Console(port).bind();
  consoles.push(c);
  return c;
}

afterEach(async () => {
  vi.useRealTimers();
  for (const c of consoles.splice(0)) c.close();
  await server?.close();
  server = undefined;
  serverLog.length = 0;
});

describe('IPMI emulator protocol', () => {
  it('answers session-less probes: ASF ping, v1.5 and RMCP+ capabilities, cipher suites', async () => {
    const c = await consoleOn(await setup([machine(0)]));
    const pong = decodeAsf((await c.exchange(encodeAsf({ type: ASF_TYPE_PING, tag: 9, data: Buffer.alloc(0) }))) as Buffer);
    expect(pong).toMatchObject({ type: 0x40, tag: 9 });

    const capsReq = encodeIpmiRequest({ netFn: NETFN.APP, cmd: CMD.APP.GET_CHANNEL_AUTH_CAPABILITIES, rqSeq: 0, data: encodeChannelAuthCapsRequest({ channel: 0x0e, privilege: 4, v2: true }) });
    const v15 = decodeIpmiResponse(decodeV15Packet((await c.exchange(encodeV15Packet({ sequence: 0, sessionId: 0, message: capsReq }))) as Buffer).message);
    expect(v15.completionCode).toBe(0);
    expect(decodeChannelAuthCapsResponse(v15.data)).toMatchObject({ channel: 1, extended: true, supportsV20: true, anonymousLogin: false, nonNullUsernames: true });

    const records: Buffer[] = [];
    for (let index = 0; ; index++) {
      const req = encodeIpmiRequest({ netFn: NETFN.APP, cmd: CMD.APP.GET_CHANNEL_CIPHER_SUITES, rqSeq: 1, data: encodeCipherSuitesRequest({ channel: 0x0e, payloadType: 0, bySuite: true, listIndex: index }) });
      const res = decodeIpmiResponse(openSessionPacket(parseSessionPacket((await c.exchange(encodeSessionPacket({ payloadType: 0, sessionId: 0, sequence: 0, payload: req }))) as Buffer)).payload);
      expect(res.completionCode).toBe(0);
      records.push(res.data.subarray(1));
      if (res.data.length < 17) break;
    }
    expect(decodeCipherSuiteRecords(Buffer.concat(records)).map((s) => s.id)).toEqual([3, 17]);
  });

  it('refuses a proposal that is no supported suite with status 0x11', async () => {
    const c = await consoleOn(await setup([machine(0)]));
    const res = decodeOpenSessionResponse(await c.handshake(PAYLOAD_TYPE.OPEN_SESSION_REQUEST, encodeOpenSessionRequest({ tag: 1, maxPrivilege: 0, consoleSessionId: 5, auth: 1, integrity: 4, confidentiality: 1 })));
    expect(res.status).toBe(RAKP_STATUS.NO_CIPHER_SUITE_MATCH);
    expect(res.consoleSessionId).toBe(5);
  });

  it('answers a RAKP 3 made with the wrong password with RAKP 4 status 0x0F, and an unknown user with 0x0D', async () => {
    const c = await consoleOn(await setup([machine(0)]));
    expect(await c.login('admin', 'not-the-password', 3, { skipRakp2Check: true })).toEqual({ rakp2: 0, rakp4: RAKP_STATUS.INVALID_INTEGRITY_CHECK_VALUE });
    expect(await c.login('mallory', 'secret', 17)).toEqual({ rakp2: RAKP_STATUS.UNAUTHORIZED_NAME });
    expect(await c.login('admin', 'secret', 17)).toEqual({ rakp2: 0, rakp4: 0 });
  });

  it('runs commands in a session: privilege, power, unknown command, close', async () => {
    const m = machine(0);
    const c = await consoleOn(await setup([m]));
    await c.login('admin', 'secret', 3);
    // A session starts at User level: power control needs Operator.
    expect((await c.command(NETFN.CHASSIS, CMD.CHASSIS.CHASSIS_CONTROL, encodeChassisControlRequest(CHASSIS_CONTROL.POWER_UP)))?.completionCode).toBe(COMPLETION.INSUFFICIENT_PRIVILEGE);
    expect(await m.power()).toBe('off');
    expect((await c.command(NETFN.APP, CMD.APP.SET_SESSION_PRIVILEGE_LEVEL, encodeSetSessionPrivilegeRequest(PRIVILEGE.ADMINISTRATOR)))?.data[0]).toBe(4);
    expect((await c.command(NETFN.CHASSIS, CMD.CHASSIS.CHASSIS_CONTROL, encodeChassisControlRequest(CHASSIS_CONTROL.POWER_UP)))?.completionCode).toBe(0);
    expect(await m.power()).toBe('on');
    expect((await c.command(NETFN.APP, 0x99))?.completionCode).toBe(COMPLETION.INVALID_COMMAND);
    expect((await c.command(NETFN.STORAGE, 0x40))?.completionCode).toBe(COMPLETION.INVALID_COMMAND);
    expect((await c.command(NETFN.APP, CMD.APP.CLOSE_SESSION, encodeCloseSessionRequest(c.bmcSessionId)))?.completionCode).toBe(0);
    expect(await c.command(NETFN.APP, CMD.APP.GET_DEVICE_ID, Buffer.alloc(0), 400)).toBeUndefined();
  });

  it('answers a retried request (same rqSeq, new session sequence) without running it again', async () => {
    const m = machine(0, {}, 'on');
    const boots: string[] = [];
    m.onBoot((e) => boots.push(e.device));
    const c = await consoleOn(await setup([m]));
    await c.login('admin', 'secret', 17);
    await c.command(NETFN.APP, CMD.APP.SET_SESSION_PRIVILEGE_LEVEL, encodeSetSessionPrivilegeRequest(PRIVILEGE.OPERATOR));
    const cycle = encodeChassisControlRequest(CHASSIS_CONTROL.POWER_CYCLE);
    for (const retry of [false, true, true]) {
      const reply = await c.exchange(c.packet(NETFN.CHASSIS, CMD.CHASSIS.CHASSIS_CONTROL, cycle, undefined, retry));
      expect(decodeIpmiResponse(openSessionPacket(parseSessionPacket(reply as Buffer), c.keys).payload).completionCode).toBe(0);
    }
    expect(boots).toEqual(['disk']);
    await c.command(NETFN.CHASSIS, CMD.CHASSIS.CHASSIS_CONTROL, cycle);
    expect(boots).toEqual(['disk', 'disk']);
  });

  it('keeps concurrent sessions apart and counts them', async () => {
    const port = await setup([machine(0)]);
    const [a, b] = await Promise.all([consoleOn(port), consoleOn(port)]);
    if (!a || !b) throw new Error('consoles');
    await Promise.all([a.login('admin', 'secret', 3), b.login('admin', 'secret', 17)]);
    expect(a.bmcSessionId).not.toBe(b.bmcSessionId);
    const info = await a.command(NETFN.APP, CMD.APP.GET_CHANNEL_INFO, Buffer.from([0x0e]));
    expect(decodeChannelInfoResponse(info?.data as Buffer)).toMatchObject({ channel: 1, medium: 4, activeSessions: 2 });
    await a.command(NETFN.APP, CMD.APP.CLOSE_SESSION, encodeCloseSessionRequest(a.bmcSessionId));
    expect((await b.command(NETFN.APP, CMD.APP.GET_DEVICE_ID))?.completionCode).toBe(0);
  });

  it('ignores replayed, out-of-window and forged packets', async () => {
    const c = await consoleOn(await setup([machine(0)]));
    await c.login('admin', 'secret', 17);
    expect((await c.command(NETFN.APP, CMD.APP.GET_DEVICE_ID))?.completionCode).toBe(0);
    for (let i = 0; i < 40; i++) await c.command(NETFN.APP, CMD.APP.GET_DEVICE_ID);
    await expectIgnored(c, c.packet(NETFN.APP, CMD.APP.GET_DEVICE_ID, Buffer.alloc(0), 2), /sequence 2 outside the window/);
    await expectIgnored(c, c.packet(NETFN.APP, CMD.APP.GET_DEVICE_ID, Buffer.alloc(0), 1000), /sequence 1000 outside the window/);
    const forged = c.packet(NETFN.APP, CMD.APP.GET_DEVICE_ID);
    forged[forged.length - 1] = (forged[forged.length - 1] as number) ^ 0xff;
    await expectIgnored(c, forged, /ipmi: 127\.0\.0\.1:\d+: .*integrity/i);
    expect((await c.command(NETFN.APP, CMD.APP.GET_DEVICE_ID))?.completionCode).toBe(0);
  });

  it('keeps a session in use and drops it once idle for the timeout', async () => {
    // The session table's clock and its sweeper run on the virtual clock; the packets go over real UDP.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const c = await consoleOn(await setup([machine(0)], { sessionTimeoutMs: 300 }));
    await c.login('admin', 'secret', 3);
    for (let i = 0; i < 3; i++) {
      vi.advanceTimersByTime(250);
      expect((await c.command(NETFN.APP, CMD.APP.GET_DEVICE_ID))?.completionCode).toBe(0);
    }
    const from = serverLog.length;
    vi.advanceTimersByTime(400);
    await logged(/1 idle session\(s\) dropped/, from);
    await expectIgnored(c, c.packet(NETFN.APP, CMD.APP.GET_DEVICE_ID), /packet for unknown session/);
  });

  it('delays answers by latency_ms', async () => {
    const m = machine(0);
    const c = await consoleOn(await setup([m]));
    await c.login('admin', 'secret', 17);
    m.faults.latency_ms = 150;
    // The answer waits on the virtual clock: 149 ms are not enough, 150 are.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answer: IpmiResponse | undefined;
    const pending = c.command(NETFN.APP, CMD.APP.GET_DEVICE_ID).then((r) => (answer = r));
    // The console's own wait, and the emulator's delayed answer.
    await untilTimersPending(2);
    await vi.advanceTimersByTimeAsync(149);
    expect(c.received()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(answer?.completionCode).toBe(0);
  });

  it('stops when its signal aborts: the ports are free again', async () => {
    const abort = new AbortController();
    const port = await setup([machine(0)], { signal: abort.signal });
    const c = await consoleOn(port);
    await c.login('admin', 'secret', 17);
    abort.abort();
    // Closing after an abort is the same close: it resolves once the sockets are gone.
    await server?.close();
    const again = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.bind(port, '127.0.0.1', () => resolve());
    });
    again.close();
  });
});
