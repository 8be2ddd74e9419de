/**
 * The ports a child process bound, read from /proc (Linux): for peers that take port 0 but do not say
 * which port they got (ipmi_sim, ironic-inspector), so that no port is chosen beforehand and taken by
 * another process in between.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';

/** The socket inodes process `pid` holds open. */
async function socketInodes(pid: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) inodes.add(m[1] as string);
  }
  return inodes;
}

/**
 * The local ports on 127.0.0.1 that process `pid` has bound: UDP sockets, or TCP sockets listening
 * (state 0A). Empty while it has bound none.
 */
export async function boundPorts(pid: number, protocol: 'udp' | 'tcp'): Promise<number[]> {
  const inodes = await socketInodes(pid);
  const table = await readFile(`/proc/net/${protocol}`, 'utf8');
  const ports: number[] = [];
  for (const line of table.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    const [address, state, inode] = [f[1], f[3], f[9]];
    if (!address || !inode || !inodes.has(inode)) continue;
    if (protocol === 'tcp' && state !== '0A') continue;
    const [ip, port] = address.split(':');
    if (ip === '0100007F') ports.push(parseInt(port as string, 16));
  }
  return ports;
}
