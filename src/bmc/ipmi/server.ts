/**
 * The IPMI v2.0 / RMCP+ BMC emulator: UDP endpoints that answer ipmitool and Ingot's IPMI driver for
 * emulated machines. Either every machine has its own port, or one port serves all machines and the
 * RAKP 1 user name picks the machine. Fault injection (drop rate, latency) comes from each machine.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { CMD, NETFN } from '../../protocol/ipmi/commands.js';
import { decodeIpmiRequest, encodeIpmiResponse, type IpmiResponse } from '../../protocol/ipmi/message.js';
import { decodeRakp1 } from '../../protocol/ipmi/rakp.js';
import { asfPong, ASF_TYPE_PING, decodeAsf } from '../../protocol/ipmi/rmcp.js';
import { datagramKind, decodeV15Packet, encodeSessionPacket, encodeV15Packet, openSessionPacket, parseSessionPacket, PAYLOAD_TYPE } from '../../protocol/ipmi/session-packet.js';
import type { Machine } from '../machine.js';
import { MachineBmc, sessionCommand, sessionlessCommand, type CommandSession } from './command-handlers.js';
import { SessionTable, type BmcSession, type Peer } from './sessions.js';

/** How machines map to UDP ports. */
export type IpmiServerMode =
  /** Machine i listens on portBase + i (portBase 0: each machine gets a free port). */
  | { kind: 'port-per-machine'; portBase: number }
  /** All machines on one port (0: a free port); give them distinct user names. */
  | { kind: 'shared-port'; port: number };

/** Where the emulator reports what it does (nothing by default). */
export interface IpmiServerLogger {
  debug(message: string): void;
}

export interface IpmiServerOptions {
  host: string;
  machines: Machine[];
  mode: IpmiServerMode;
  signal?: AbortSignal;
  logger?: IpmiServerLogger;
  /** Idle sessions are dropped after this long (default 60 000 ms). */
  sessionTimeoutMs?: number;
  /** Most sessions per machine at once (default 64). */
  maxSessionsPerMachine?: number;
  /** Source of randomness of the `drop_rate` fault (default `Math.random`); tests pass a fixed sequence. */
  random?: () => number;
}

export interface IpmiServer {
  /** Machine name → UDP port it answers on (the same port for all in shared-port mode). */
  readonly ports: Map<string, number>;
  close(): Promise<void>;
}

const DEFAULT_SESSION_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_SESSIONS = 64;

/** One UDP socket with its machines and sessions. */
class Endpoint {
  readonly sessions: SessionTable;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    readonly socket: Socket,
    private readonly machines: Machine[],
    private readonly bmcs: Map<Machine, MachineBmc>,
    private readonly log: IpmiServerLogger | undefined,
    private readonly opts: { idleTimeoutMs: number; maxSessions: number; random: () => number },
  ) {
    this.sessions = new SessionTable({ machines, idleTimeoutMs: opts.idleTimeoutMs, maxSessions: opts.maxSessions, now: Date.now });
    socket.on('message', (msg, rinfo) => this.receive(msg, rinfo));
    // A UDP socket reports ICMP errors of earlier sends here; nothing to do but carry on.
    socket.on('error', (err) => this.log?.debug(`ipmi: socket error: ${err.message}`));
  }

  /** The machine a packet concerns, when it is known: the only one of a dedicated port, or the session's. */
  private machineOf(session: BmcSession | undefined): Machine | undefined {
    if (this.machines.length === 1) return this.machines[0];
    return session?.machine;
  }

  private receive(datagram: Buffer, rinfo: RemoteInfo): void {
    if (this.closed) return;
    const peer: Peer = { address: rinfo.address, port: rinfo.port };
    this.handle(datagram, peer).catch((err: unknown) => this.log?.debug(`ipmi: ${peer.address}:${peer.port}: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Drops a packet with the machine's drop rate; true when it is dropped. */
  private dropped(machine: Machine | undefined): boolean {
    const drop = machine !== undefined && machine.faults.drop_rate > 0 && this.opts.random() < machine.faults.drop_rate;
    if (drop) this.log?.debug(`ipmi: ${machine.name}: packet dropped (drop_rate fault)`);
    return drop;
  }

  private send(reply: Buffer, peer: Peer, machine: Machine | undefined): void {
    const delay = machine?.faults.latency_ms ?? 0;
    const go = () => {
      if (!this.closed) this.socket.send(reply, peer.port, peer.address);
    };
    if (delay <= 0) return go();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      go();
    }, delay);
    this.timers.add(timer);
  }

  private async handle(datagram: Buffer, peer: Peer): Promise<void> {
    const kind = datagramKind(datagram);
    if (kind === 'asf') {
      const ping = decodeAsf(datagram);
      if (ping.type !== ASF_TYPE_PING) return;
      if (this.dropped(this.machineOf(undefined))) return;
      return this.send(asfPong(ping.tag), peer, this.machineOf(undefined));
    }
    if (kind === 'ipmi-v15') return this.handleV15(datagram, peer);
    const raw = parseSessionPacket(datagram);
    if (raw.payloadType !== PAYLOAD_TYPE.IPMI) return this.handleHandshake(raw.payloadType, raw.sessionId, openSessionPacket(raw).payload, peer);
    if (raw.sessionId === 0) {
      // Session-less IPMI payload in an RMCP+ wrapper (Get Channel Cipher Suites before a session).
      const machine = this.machineOf(undefined);
      if (this.dropped(machine)) return;
      const req = decodeIpmiRequest(openSessionPacket(raw).payload);
      const res = sessionlessCommand(req);
      if (!res) return this.log?.debug(`ipmi: session-less netFn 0x${req.netFn.toString(16)} cmd 0x${req.cmd.toString(16)} ignored`);
      return this.send(encodeSessionPacket({ payloadType: PAYLOAD_TYPE.IPMI, sessionId: 0, sequence: 0, payload: encodeIpmiResponse(res) }), peer, machine);
    }
    const session = this.sessions.get(raw.sessionId);
    if (!session || session.state !== 'active' || !session.keys || !session.machine) return this.log?.debug(`ipmi: packet for unknown session 0x${raw.sessionId.toString(16)}`);
    const machine = session.machine;
    if (this.dropped(machine)) return;
    const pkt = openSessionPacket(raw, session.keys);
    if (!this.sessions.acceptSequence(session, pkt.sequence)) return this.log?.debug(`ipmi: sequence ${pkt.sequence} outside the window of session 0x${session.bmcSessionId.toString(16)}`);
    session.peer = peer;
    const req = decodeIpmiRequest(pkt.payload);
    const bmc = this.bmcs.get(machine);
    if (!bmc) return;
    let closeAfter: number | undefined;
    const view: CommandSession = {
      bmcSessionId: session.bmcSessionId,
      maxPrivilege: session.maxPrivilege,
      get privilege() {
        return session.privilege;
      },
      set privilege(p: number) {
        session.privilege = p;
      },
      close: (id) => {
        if (!this.sessions.get(id)) return false;
        closeAfter = id;
        return true;
      },
      activeSessions: () => this.sessions.activeCount(),
    };
    // NOTE: a console that missed an answer sends the request again with a new session sequence number
    // but the same rqSeq (ipmitool does); answering from the last request keeps e.g. a power cycle from
    // running twice (IPMI expects a responder to recognise such retries by rqSeq).
    const key = `${req.netFn}:${req.cmd}:${req.rqSeq}:${req.data.toString('hex')}`;
    const res: IpmiResponse = session.lastRequest?.key === key ? session.lastRequest.response : await sessionCommand(bmc, view, req);
    session.lastRequest = { key, response: res };
    this.log?.debug(`ipmi: ${machine.name}: netFn 0x${req.netFn.toString(16)} cmd 0x${req.cmd.toString(16)} -> 0x${res.completionCode.toString(16)}`);
    const reply = encodeSessionPacket({ payloadType: PAYLOAD_TYPE.IPMI, sessionId: session.consoleSessionId, sequence: this.sessions.nextOutbound(session), payload: encodeIpmiResponse(res) }, session.keys);
    if (closeAfter !== undefined) this.sessions.delete(closeAfter);
    this.send(reply, peer, machine);
  }

  private handleHandshake(payloadType: number, sessionId: number, payload: Buffer, peer: Peer): void {
    // NOTE: session establishment messages travel with session id 0 and sequence 0 in the header (§13.6).
    if (sessionId !== 0) return;
    let reply;
    if (payloadType === PAYLOAD_TYPE.OPEN_SESSION_REQUEST) {
      if (this.dropped(this.machineOf(undefined))) return;
      reply = this.sessions.openSession(payload, peer);
    } else if (payloadType === PAYLOAD_TYPE.RAKP1) {
      // The user name tells which machine's faults apply (shared port); decide before any state changes.
      const username = decodeRakp1(payload).username;
      if (this.dropped(this.machines.length === 1 ? this.machines[0] : this.machines.find((m) => m.username === username))) return;
      reply = this.sessions.rakp1(payload);
    } else if (payloadType === PAYLOAD_TYPE.RAKP3) {
      const pending = this.sessions.get(payload.length >= 8 ? payload.readUInt32LE(4) : 0);
      if (this.dropped(this.machineOf(pending))) return;
      reply = this.sessions.rakp3(payload);
    } else {
      return this.log?.debug(`ipmi: payload type 0x${payloadType.toString(16)} ignored`);
    }
    if (!reply) return;
    this.log?.debug(`ipmi: ${peer.address}:${peer.port}: handshake payload 0x${payloadType.toString(16)} -> 0x${reply.payloadType.toString(16)}`);
    this.send(encodeSessionPacket({ payloadType: reply.payloadType, sessionId: 0, sequence: 0, payload: reply.payload }), peer, this.machineOf(reply.session));
  }

  private handleV15(datagram: Buffer, peer: Peer): void {
    const pkt = decodeV15Packet(datagram);
    if (pkt.sessionId !== 0) return;
    const req = decodeIpmiRequest(pkt.message);
    if (req.netFn !== NETFN.APP || req.cmd !== CMD.APP.GET_CHANNEL_AUTH_CAPABILITIES) return this.log?.debug('ipmi: v1.5 request other than Get Channel Authentication Capabilities ignored');
    const machine = this.machineOf(undefined);
    if (this.dropped(machine)) return;
    const res = sessionlessCommand(req);
    if (res) this.send(encodeV15Packet({ sequence: 0, sessionId: 0, message: encodeIpmiResponse(res) }), peer, machine);
  }

  sweep(): void {
    const n = this.sessions.sweep();
    if (n > 0) this.log?.debug(`ipmi: ${n} idle session(s) dropped`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}

function bind(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
    const onError = (err: Error) => {
      socket.close();
      reject(err);
    };
    socket.once('error', onError);
    socket.bind(port, host, () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

/**
 * Starts the IPMI emulator; resolves once every socket is bound. `ports` reports the bound ports (also
 * when 0 asked for free ones). Closing, or aborting `signal`, stops every socket and forgets the sessions.
 */
export async function startIpmiServer(opts: IpmiServerOptions): Promise<IpmiServer> {
  const idleTimeoutMs = opts.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  const perMachine = opts.maxSessionsPerMachine ?? DEFAULT_MAX_SESSIONS;
  if (opts.mode.kind === 'shared-port') {
    const names = new Set(opts.machines.map((m) => m.username));
    if (names.size !== opts.machines.length) throw new Error('shared-port IPMI needs a distinct user name per machine: the RAKP 1 user name selects the machine');
  }
  const bmcs = new Map(opts.machines.map((m) => [m, new MachineBmc(m, opts.host)] as const));
  const endpoints: Endpoint[] = [];
  const ports = new Map<string, number>();
  const closeAll = async () => {
    await Promise.all(endpoints.splice(0).map((e) => e.close()));
  };
  try {
    opts.signal?.throwIfAborted();
    const groups: Machine[][] = opts.mode.kind === 'shared-port' ? [opts.machines] : opts.machines.map((m) => [m]);
    for (const [i, group] of groups.entries()) {
      const port = opts.mode.kind === 'shared-port' ? opts.mode.port : opts.mode.portBase === 0 ? 0 : opts.mode.portBase + i;
      const socket = await bind(opts.host, port);
      endpoints.push(new Endpoint(socket, group, bmcs, opts.logger, { idleTimeoutMs, maxSessions: perMachine * group.length, random: opts.random ?? Math.random }));
      const bound = socket.address().port;
      for (const m of group) ports.set(m.name, bound);
    }
  } catch (err) {
    await closeAll();
    throw err;
  }
  const sweeper = setInterval(() => endpoints.forEach((e) => e.sweep()), Math.max(100, Math.min(5_000, idleTimeoutMs / 4)));
  sweeper.unref();
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(sweeper);
      opts.signal?.removeEventListener('abort', onAbort);
      await closeAll();
    })();
    return closing;
  };
  const onAbort = () => void close();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  opts.logger?.debug(`ipmi: ${opts.machines.length} machine(s) on ${opts.host}, ports ${[...new Set(ports.values())].join(', ')}`);
  return { ports, close };
}
