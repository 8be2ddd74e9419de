/** Whether a host name or address is the machine itself (the API's bind address, an interface's IP). */
import { isIPv4, isIPv6 } from 'node:net';

/** True for `localhost`, 127.0.0.0/8, `::1` in any spelling, and IPv4-mapped 127.x (`[…]` brackets allowed). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h === 'localhost') return true;
  if (isIPv4(h)) return h.startsWith('127.');
  if (!isIPv6(h)) return false;
  return /^::ffff:127\./.test(h) || /^(0*:)*:?(0*:)*0*1$/.test(h) && h.replace(/[0:]/g, '') === '1';
}
