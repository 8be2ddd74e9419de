/**
 * Kernel modules of a ramdisk: which files a list of module names needs (their dependencies from
 * `modules.dep`) and the order to `insmod` them in. Pure: the caller reads `modules.dep` (written by
 * `depmod -b ROOT RELEASE`) and copies the files.
 */
import { fail } from '../../shared/errors.js';

/** A module's name as the kernel knows it: file name without `.ko[.xz|.zst|.gz]`, `-` read as `_`. */
export function moduleName(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return base.replace(/\.ko(\.(xz|zst|gz))?$/, '').replace(/-/g, '_');
}

/** `modules.dep` parsed: module name → its file (relative to lib/modules/RELEASE) and its dependencies' files. */
export type ModuleDeps = Map<string, { file: string; deps: string[] }>;

/** Parses the text of `modules.dep` (`kernel/a/b.ko: kernel/c.ko kernel/d.ko`, one module a line). */
export function parseModulesDep(text: string): ModuleDeps {
  const out: ModuleDeps = new Map();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const file = line.slice(0, colon).trim();
    const deps = line.slice(colon + 1).trim().split(/\s+/).filter(Boolean);
    out.set(moduleName(file), { file, deps });
  }
  return out;
}

/**
 * The files to load for `names`, dependencies first, each once: an order `insmod` accepts. Names may
 * use `-` or `_`. Names in `builtin` (modules.builtin: compiled into the kernel) are skipped. Throws
 * InvalidParameterValue for a name the kernel has neither as a module nor built in.
 *
 * NOTE: a `modules.dep` line lists every module the module needs, transitively, but not in an order
 * to load them; the order comes from visiting each dependency's own line first (a depth-first
 * post-order), as modprobe does.
 */
export function moduleLoadOrder(deps: ModuleDeps, names: readonly string[], builtin: ReadonlySet<string> = new Set()): string[] {
  const byFile = new Map<string, string[]>();
  for (const entry of deps.values()) byFile.set(entry.file, entry.deps);
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, via: string[]): void => {
    if (seen.has(file)) return;
    if (via.includes(file)) throw fail('modulesDepCycle', { cycle: [...via, file].join(' -> ') });
    const own = byFile.get(file);
    if (!own) throw fail('modulesDepLineMissing', { file });
    for (const dep of [...own].reverse()) visit(dep, [...via, file]);
    seen.add(file);
    order.push(file);
  };
  const unknown: string[] = [];
  for (const raw of names) {
    const name = moduleName(raw);
    const entry = deps.get(name);
    if (entry) visit(entry.file, []);
    else if (!builtin.has(name)) unknown.push(raw);
  }
  if (unknown.length > 0) throw fail('kernelModulesUnknown', { modules: unknown.join(', ') });
  return order;
}

/**
 * `names` split into those the kernel has (as a module or built in) and those it lacks: a builder's
 * default drivers are loaded where a kernel flavour has them (Debian's cloud kernel has no e1000).
 */
export function partitionModules(deps: ModuleDeps, names: readonly string[], builtin: ReadonlySet<string>): { present: string[]; absent: string[] } {
  const present: string[] = [];
  const absent: string[] = [];
  for (const raw of names) (deps.has(moduleName(raw)) || builtin.has(moduleName(raw)) ? present : absent).push(raw);
  return { present, absent };
}

/** Module names from the text of `modules.builtin` (`kernel/net/packet/af_packet.ko` lines). */
export function parseModulesBuiltin(text: string): Set<string> {
  return new Set(text.split('\n').map((l) => l.trim()).filter(Boolean).map(moduleName));
}
