/**
 * Reads an iPXE script the way a simulated machine's firmware needs it: which kernel (with which
 * command line) and which initrds it would download before `boot`. Enough of iPXE's script language
 * for the per-MAC scripts Ingot's `ipxe` boot interface renders and Ironic's `ipxe_config.template`:
 * labels, unconditional `goto`, `imgfree`, `kernel`/`imgselect`, `initrd`/`imgfetch`/`module`, `boot`;
 * other commands (`echo`, `sleep`, `set`, …) are skipped, and `|| …`/`&& …` tails are dropped: the
 * command is taken to succeed, as it does when the server answers. A script that leaves for something
 * else (`exit`, `sanboot`, `chain`) is refused.
 */
import { fail } from '../shared/errors.js';

/** What an iPXE script boots. */
export interface IpxeBoot {
  /** Absolute URL of the kernel. */
  kernel: string;
  /** The kernel command line (the words after the kernel URL). */
  params: string;
  /** Absolute URLs of the initrds, in order. */
  initrds: string[];
}

/** Image options of iPXE's `kernel`/`initrd` that take a value (iPXE docs, "imgfetch"). */
const VALUE_OPTIONS = new Set(['--name', '-n', '--timeout', '-t']);
/** Image options without a value. */
const FLAG_OPTIONS = new Set(['--autofree', '-a', '--replace', '-r']);
const KERNEL = new Set(['kernel', 'imgselect']);
const INITRD = new Set(['initrd', 'imgfetch', 'module']);
/** Stops runaway `goto` loops in a broken script. */
const MAX_STEPS = 10_000;

/** `cmd args… || goto x` → the words before the first `||` or `&&`. */
function words(line: string): string[] {
  const all = line.trim().split(/\s+/).filter((w) => w !== '');
  const end = all.findIndex((w) => w === '||' || w === '&&');
  return end < 0 ? all : all.slice(0, end);
}

/** Drops the image options of `kernel`/`initrd`; returns the URL and what follows it. */
function imageArgs(args: string[], line: number): { url: string; rest: string[] } {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-')) {
    const opt = args[i] as string;
    const name = opt.includes('=') ? opt.slice(0, opt.indexOf('=')) : opt;
    if (VALUE_OPTIONS.has(name)) i += opt.includes('=') ? 1 : 2;
    else if (FLAG_OPTIONS.has(name)) i += 1;
    else throw fail('ipxeImageOptionUnknown', { line, option: opt });
  }
  const url = args[i];
  if (url === undefined) throw fail('ipxeImageUrlMissing', { line });
  return { url, rest: args.slice(i + 1) };
}

function absolute(url: string, base: string, line: number): string {
  if (url.includes('${')) throw fail('ipxeUrlUsesSettings', { line, url });
  try {
    return new URL(url, base).href;
  } catch {
    throw fail('ipxeUrlInvalid', { line, url });
  }
}

/**
 * What `script`, fetched from `scriptUrl` (the base of relative image URLs, as iPXE resolves them),
 * boots. Runs from the top, following unconditional `goto`, until `boot` or the end. Throws
 * InvalidParameterValue when it is not an iPXE script (`#!ipxe` first), a `goto` names no label, or no
 * kernel is loaded.
 */
export function parseIpxeScript(script: string, scriptUrl: string): IpxeBoot {
  const lines = script.replace(/\r\n?/g, '\n').split('\n');
  if (!/^#!ipxe\b/i.test(lines[0]?.trim() ?? '')) throw fail('ipxeNotScript', { script: scriptUrl });
  const labels = new Map<string, number>();
  lines.forEach((l, i) => {
    const m = /^\s*:(\S+)/.exec(l);
    if (m && !labels.has(m[1] as string)) labels.set(m[1] as string, i);
  });
  let kernel: { url: string; params: string } | null = null;
  let initrds: string[] = [];
  let pc = 1;
  for (let steps = 0; pc < lines.length; steps++) {
    if (steps > MAX_STEPS) throw fail('ipxeLoops', { script: scriptUrl });
    const line = pc + 1;
    const [cmd, ...args] = words(lines[pc] as string);
    pc++;
    if (cmd === undefined || cmd.startsWith('#') || cmd.startsWith(':')) continue;
    if (cmd === 'goto') {
      const target = labels.get(args[0] ?? '');
      if (target === undefined) throw fail('ipxeGotoNoLabel', { script: scriptUrl, line, label: args[0] ?? '' });
      pc = target + 1;
    } else if (KERNEL.has(cmd)) {
      const { url, rest } = imageArgs(args, line);
      kernel = { url: absolute(url, scriptUrl, line), params: rest.join(' ') };
    } else if (INITRD.has(cmd)) {
      initrds.push(absolute(imageArgs(args, line).url, scriptUrl, line));
    } else if (cmd === 'imgfree') {
      kernel = null;
      initrds = [];
    } else if (cmd === 'boot') {
      break;
    } else if (cmd === 'exit' || cmd === 'sanboot' || cmd === 'chain') {
      throw fail('ipxeLeavesScript', { script: scriptUrl, line, command: cmd });
    }
  }
  if (!kernel) throw fail('ipxeNoKernel', { script: scriptUrl });
  return { kernel: kernel.url, params: kernel.params, initrds };
}
