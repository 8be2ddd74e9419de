/**
 * A small ISO 9660 writer for config drives: a primary volume with Rock Ridge (RRIP 1.09, "RRIP_1991A")
 * names and a Joliet supplementary volume over the same file data, so every reader sees the exact file
 * names. Linux (and so cloud-init, which mounts the drive) uses the Rock Ridge names, Windows and 7-Zip
 * the Joliet ones. The primary names are the relaxed ones genisoimage writes with
 * `-l -allow-lowercase -allow-multidot` (`meta_data.json;1`, `2012_08_10`), which Ironic's own config
 * drive patching looks up.
 *
 * Layout (2048-byte sectors): 0–15 system area, 16 primary volume descriptor, 17 Joliet supplementary
 * descriptor, 18 terminator, then the path tables (L and M, primary then Joliet), the primary
 * directories, the Joliet directories, one Rock Ridge continuation sector (the ER entry), and the file
 * data. References: ECMA-119 (ISO 9660), Joliet specification (1995), IEEE P1281 (SUSP 1.10) and P1282
 * (RRIP 1.10).
 */

/** A file to put on the image; `path` uses `/` and has no leading slash (`openstack/latest/user_data`). */
export interface IsoFile {
  path: string;
  data: Uint8Array;
}

/** Options of {@link writeIso9660}. */
export interface IsoOptions {
  /** Volume label (up to 16 characters so that Joliet keeps it whole), e.g. `config-2`. */
  volumeId: string;
  files: readonly IsoFile[];
  /** Recording time of every file and the volume (default: now). */
  date?: Date;
  publisher?: string;
  applicationId?: string;
}

const SECTOR = 2048;
const MAX_NAME = 64; // Joliet's limit, in UCS-2 characters
const MAX_DEPTH = 8; // ECMA-119 6.8.2.1

const RR_ID = 'RRIP_1991A';
const RR_DES = 'THE ROCK RIDGE INTERCHANGE PROTOCOL PROVIDES SUPPORT FOR POSIX FILE SYSTEM SEMANTICS';
const RR_SRC = 'PLEASE CONTACT DISC PUBLISHER FOR SPECIFICATION SOURCE.  SEE PUBLISHER IDENTIFIER IN PRIMARY VOLUME DESCRIPTOR FOR CONTACT INFORMATION.';

interface FileNode {
  kind: 'file';
  name: string;
  data: Uint8Array;
  extent: number;
}

interface DirNode {
  kind: 'dir';
  name: string;
  parent: DirNode | undefined;
  children: Map<string, DirNode | FileNode>;
}

/** One directory hierarchy (primary or Joliet) as laid out on the image. */
interface Tree {
  joliet: boolean;
  order: DirNode[]; // path-table order
  ident: Map<DirNode | FileNode, Buffer>; // identifier bytes per node
  number: Map<DirNode, number>; // 1-based path-table number
  extent: Map<DirNode, number>;
  size: Map<DirNode, number>; // data length, whole sectors
  pathTableSize: number;
  lPath: number;
  mPath: number;
}

function both32(buf: Buffer, off: number, v: number): void {
  buf.writeUInt32LE(v, off);
  buf.writeUInt32BE(v, off + 4);
}

function both16(buf: Buffer, off: number, v: number): void {
  buf.writeUInt16LE(v, off);
  buf.writeUInt16BE(v, off + 2);
}

function ucs2be(s: string): Buffer {
  const b = Buffer.from(s, 'utf16le');
  b.swap16();
  return b;
}

/** A text field: ASCII padded with spaces, or UCS-2 padded with UCS-2 spaces (an odd tail byte stays 0). */
function field(buf: Buffer, off: number, len: number, text: string, joliet: boolean): void {
  if (joliet) {
    const t = ucs2be(text.slice(0, Math.floor(len / 2)));
    for (let i = 0; i + 1 < len; i += 2) buf.writeUInt16BE(0x20, off + i);
    t.copy(buf, off);
  } else {
    buf.fill(0x20, off, off + len);
    buf.write(text.slice(0, len), off, 'latin1');
  }
}

function recordDate(d: Date): Buffer {
  return Buffer.from([d.getUTCFullYear() - 1900, d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), 0]);
}

function volumeDate(d: Date | undefined): Buffer {
  const b = Buffer.alloc(17);
  if (!d) {
    b.write('0000000000000000', 0, 'latin1');
    return b;
  }
  const p = (n: number, w: number) => String(n).padStart(w, '0');
  const s = `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1, 2)}${p(d.getUTCDate(), 2)}${p(d.getUTCHours(), 2)}${p(d.getUTCMinutes(), 2)}${p(d.getUTCSeconds(), 2)}${p(Math.floor(d.getUTCMilliseconds() / 10), 2)}`;
  b.write(s, 0, 'latin1');
  return b;
}

// --- Rock Ridge / SUSP entries -------------------------------------------------------------------

function susp(sig: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(sig, 'latin1'), Buffer.from([4 + body.length, 1]), body]);
}

function px(mode: number, nlink: number): Buffer {
  const b = Buffer.alloc(32);
  both32(b, 0, mode);
  both32(b, 8, nlink);
  both32(b, 16, 0); // uid
  both32(b, 24, 0); // gid
  return susp('PX', b);
}

function tf(d: Date): Buffer {
  const t = recordDate(d);
  return susp('TF', Buffer.concat([Buffer.from([0x0e]), t, t, t])); // modify, access, attributes
}

function nm(name: string): Buffer {
  return susp('NM', Buffer.concat([Buffer.from([0]), Buffer.from(name, 'utf8')]));
}

function rr(flags: number): Buffer {
  return susp('RR', Buffer.from([flags]));
}

const SP = susp('SP', Buffer.from([0xbe, 0xef, 0]));

function erEntry(): Buffer {
  const id = Buffer.from(RR_ID, 'latin1');
  const des = Buffer.from(RR_DES, 'latin1');
  const src = Buffer.from(RR_SRC, 'latin1');
  return susp('ER', Buffer.concat([Buffer.from([id.length, des.length, src.length, 1]), id, des, src]));
}

function ce(sector: number, length: number): Buffer {
  const b = Buffer.alloc(24);
  both32(b, 0, sector);
  both32(b, 8, 0);
  both32(b, 16, length);
  return susp('CE', b);
}

// --- names -----------------------------------------------------------------------------------------

/** The primary (ISO 9660) identifier of a file or directory, as genisoimage's relaxed mode writes it. */
function isoName(name: string, isDir: boolean): string {
  let s = name.replace(/[^A-Za-z0-9_.]/g, '_');
  if (isDir) return s.replace(/\./g, '_').slice(0, 31);
  if (!s.includes('.')) s += '.';
  if (s.length > 30) {
    const dot = s.lastIndexOf('.');
    const ext = s.slice(dot).slice(0, 8);
    s = s.slice(0, 30 - ext.length) + ext;
  }
  return `${s};1`;
}

function uniqueNames(dir: DirNode, make: (n: DirNode | FileNode) => string, max: number): Map<DirNode | FileNode, string> {
  const out = new Map<DirNode | FileNode, string>();
  const used = new Set<string>();
  for (const child of [...dir.children.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    let n = make(child);
    for (let i = 1; used.has(n.toUpperCase()); i++) {
      const suffix = `~${i}`;
      const semi = n.indexOf(';');
      const tail = semi >= 0 ? n.slice(semi) : '';
      const head = semi >= 0 ? n.slice(0, semi) : n;
      n = head.slice(0, Math.max(1, max - suffix.length - tail.length)) + suffix + tail;
    }
    used.add(n.toUpperCase());
    out.set(child, n);
  }
  return out;
}

function checkName(name: string, full: string): void {
  if (!name || name === '.' || name === '..') throw new Error(`ISO 9660: bad path "${full}"`);
  if (name.includes('\0') || /[*/:;?\\]/.test(name)) throw new Error(`ISO 9660: "${full}" has a character Joliet cannot store (* / : ; ? \\ or NUL)`);
  if (name.length > MAX_NAME) throw new Error(`ISO 9660: "${name}" is longer than ${MAX_NAME} characters`);
}

function buildTree(files: readonly IsoFile[]): DirNode {
  const root: DirNode = { kind: 'dir', name: '', parent: undefined, children: new Map() };
  for (const f of files) {
    const parts = f.path.split('/').filter((p) => p !== '');
    if (parts.length === 0) throw new Error(`ISO 9660: empty file path "${f.path}"`);
    if (parts.length > MAX_DEPTH) throw new Error(`ISO 9660: "${f.path}" is deeper than ${MAX_DEPTH} levels`);
    let dir = root;
    for (const [i, part] of parts.entries()) {
      checkName(part, f.path);
      const existing = dir.children.get(part);
      if (i === parts.length - 1) {
        if (existing) throw new Error(`ISO 9660: "${f.path}" is given twice or is also a directory`);
        dir.children.set(part, { kind: 'file', name: part, data: f.data, extent: 0 });
      } else if (existing?.kind === 'file') {
        throw new Error(`ISO 9660: "${parts.slice(0, i + 1).join('/')}" is both a file and a directory`);
      } else if (existing) {
        dir = existing;
      } else {
        const sub: DirNode = { kind: 'dir', name: part, parent: dir, children: new Map() };
        dir.children.set(part, sub);
        dir = sub;
      }
    }
  }
  return root;
}

// --- directory records ---------------------------------------------------------------------------

function subdirCount(d: DirNode): number {
  let n = 0;
  for (const c of d.children.values()) if (c.kind === 'dir') n++;
  return n;
}

/** System Use bytes of a primary record (Rock Ridge), or none for Joliet. */
function systemUse(tree: Tree, node: DirNode | FileNode, role: 'self' | 'parent' | 'child', date: Date, ceSector: number, erLength: number): Buffer {
  if (tree.joliet) return Buffer.alloc(0);
  const isDir = node.kind === 'dir';
  const mode = isDir ? 0o40555 : 0o100444;
  const nlink = isDir ? 2 + subdirCount(node) : 1;
  const parts: Buffer[] = [];
  const isRootSelf = role === 'self' && isDir && node.parent === undefined;
  if (isRootSelf) parts.push(SP);
  parts.push(rr(role === 'child' ? 0x89 : 0x81), ...(role === 'child' ? [nm(node.name)] : []), px(mode, nlink), tf(date));
  if (isRootSelf) parts.push(ce(ceSector, erLength));
  return Buffer.concat(parts);
}

function recordLength(idLen: number, suLen: number): number {
  const base = 33 + idLen + (idLen % 2 === 0 ? 1 : 0);
  return base + suLen + (suLen % 2);
}

function writeRecord(buf: Buffer, off: number, id: Buffer, extent: number, size: number, isDir: boolean, date: Date, su: Buffer): number {
  const len = recordLength(id.length, su.length);
  if (len > 255) throw new Error(`ISO 9660: directory record for "${id.toString('latin1')}" is too long`);
  buf[off] = len;
  buf[off + 1] = 0;
  both32(buf, off + 2, extent);
  both32(buf, off + 10, size);
  recordDate(date).copy(buf, off + 18);
  buf[off + 25] = isDir ? 2 : 0;
  both16(buf, off + 28, 1);
  buf[off + 32] = id.length;
  id.copy(buf, off + 33);
  su.copy(buf, off + 33 + id.length + (id.length % 2 === 0 ? 1 : 0));
  return len;
}

interface Entry {
  id: Buffer;
  node: DirNode | FileNode;
  role: 'self' | 'parent' | 'child';
}

function entriesOf(tree: Tree, dir: DirNode): Entry[] {
  const kids = [...dir.children.values()].map((c) => ({ id: tree.ident.get(c) as Buffer, node: c, role: 'child' as const }));
  kids.sort((a, b) => Buffer.compare(a.id, b.id));
  return [{ id: Buffer.from([0]), node: dir, role: 'self' }, { id: Buffer.from([1]), node: dir.parent ?? dir, role: 'parent' }, ...kids];
}

/** Lays out records into sectors (a record never crosses a sector); returns each record's offset. */
function packRecords(lengths: number[]): { offsets: number[]; size: number } {
  const offsets: number[] = [];
  let off = 0;
  for (const len of lengths) {
    if ((off % SECTOR) + len > SECTOR) off = Math.ceil(off / SECTOR) * SECTOR;
    offsets.push(off);
    off += len;
  }
  return { offsets, size: Math.ceil(off / SECTOR) * SECTOR };
}

function makeTree(root: DirNode, joliet: boolean): Tree {
  const ident = new Map<DirNode | FileNode, Buffer>();
  const order: DirNode[] = [root];
  for (let i = 0; i < order.length; i++) {
    const d = order[i] as DirNode;
    const names = uniqueNames(d, (n) => (joliet ? n.name : isoName(n.name, n.kind === 'dir')), joliet ? MAX_NAME : 33);
    for (const [node, n] of names) ident.set(node, joliet ? ucs2be(n) : Buffer.from(n, 'latin1'));
    const subs = [...d.children.values()].filter((c): c is DirNode => c.kind === 'dir');
    subs.sort((a, b) => Buffer.compare(ident.get(a) as Buffer, ident.get(b) as Buffer));
    order.push(...subs);
  }
  const number = new Map(order.map((d, i) => [d, i + 1] as const));
  const pathTableSize = order.reduce((s, d) => {
    const len = d === root ? 1 : (ident.get(d) as Buffer).length;
    return s + 8 + len + (len % 2);
  }, 0);
  return { joliet, order, ident, number, extent: new Map(), size: new Map(), pathTableSize, lPath: 0, mPath: 0 };
}

function writePathTable(buf: Buffer, sector: number, tree: Tree, bigEndian: boolean): void {
  let off = sector * SECTOR;
  for (const d of tree.order) {
    const id = d.parent === undefined ? Buffer.from([0]) : (tree.ident.get(d) as Buffer);
    buf[off] = id.length;
    buf[off + 1] = 0;
    const parentNo = tree.number.get(d.parent ?? d) as number;
    const extent = tree.extent.get(d) as number;
    if (bigEndian) {
      buf.writeUInt32BE(extent, off + 2);
      buf.writeUInt16BE(parentNo, off + 6);
    } else {
      buf.writeUInt32LE(extent, off + 2);
      buf.writeUInt16LE(parentNo, off + 6);
    }
    id.copy(buf, off + 8);
    off += 8 + id.length + (id.length % 2);
  }
}

function writeDescriptor(buf: Buffer, sector: number, tree: Tree, o: Required<Omit<IsoOptions, 'files'>>, total: number, rootRecord: Buffer): void {
  const off = sector * SECTOR;
  const j = tree.joliet;
  buf[off] = j ? 2 : 1;
  buf.write('CD001', off + 1, 'latin1');
  buf[off + 6] = 1;
  field(buf, off + 8, 32, 'LINUX', j);
  field(buf, off + 40, 32, o.volumeId, j);
  both32(buf, off + 80, total);
  if (j) buf.write('%/E', off + 88, 'latin1'); // UCS-2 level 3
  both16(buf, off + 120, 1);
  both16(buf, off + 124, 1);
  both16(buf, off + 128, SECTOR);
  both32(buf, off + 132, tree.pathTableSize);
  buf.writeUInt32LE(tree.lPath, off + 140);
  buf.writeUInt32BE(tree.mPath, off + 148);
  rootRecord.copy(buf, off + 156);
  field(buf, off + 190, 128, '', j);
  field(buf, off + 318, 128, o.publisher, j);
  field(buf, off + 446, 128, '', j);
  field(buf, off + 574, 128, o.applicationId, j);
  for (const f of [702, 739, 776]) field(buf, off + f, 37, '', j);
  volumeDate(o.date).copy(buf, off + 813);
  volumeDate(o.date).copy(buf, off + 830);
  volumeDate(undefined).copy(buf, off + 847);
  volumeDate(undefined).copy(buf, off + 864);
  buf[off + 881] = 1;
}

/** Writes an ISO 9660 image (Rock Ridge + Joliet) holding `files`; returns the whole image. */
export function writeIso9660(opts: IsoOptions): Buffer {
  const o = { volumeId: opts.volumeId, date: opts.date ?? new Date(), publisher: opts.publisher ?? '', applicationId: opts.applicationId ?? 'INGOT' };
  if (!o.volumeId || o.volumeId.length > 16) throw new Error(`ISO 9660: volume label "${o.volumeId}" must have 1 to 16 characters`);
  const root = buildTree(opts.files);
  const trees = [makeTree(root, false), makeTree(root, true)];
  const er = erEntry();

  // Record lengths do not depend on locations, so sizes first, then locations.
  const su = (t: Tree, e: Entry) => systemUse(t, e.node, e.role, o.date, 0, er.length);
  let next = 19;
  for (const t of trees) {
    const n = Math.ceil(t.pathTableSize / SECTOR);
    t.lPath = next;
    t.mPath = next + n;
    next += 2 * n;
  }
  for (const t of trees) {
    for (const d of t.order) {
      const { size } = packRecords(entriesOf(t, d).map((e) => recordLength(e.id.length, su(t, e).length)));
      t.extent.set(d, next);
      t.size.set(d, size);
      next += size / SECTOR;
    }
  }
  const ceSector = next++;
  const files: FileNode[] = [];
  const walk = (d: DirNode) => {
    for (const c of [...d.children.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (c.kind === 'dir') walk(c);
      else files.push(c);
    }
  };
  walk(root);
  for (const f of files) {
    f.extent = f.data.length === 0 ? 0 : next;
    next += Math.ceil(f.data.length / SECTOR);
  }
  const total = next;

  const buf = Buffer.alloc(total * SECTOR);
  for (const [i, t] of trees.entries()) {
    writePathTable(buf, t.lPath, t, false);
    writePathTable(buf, t.mPath, t, true);
    for (const d of t.order) {
      const entries = entriesOf(t, d);
      const sus = entries.map((e) => systemUse(t, e.node, e.role, o.date, ceSector, er.length));
      const { offsets } = packRecords(entries.map((e, k) => recordLength(e.id.length, (sus[k] as Buffer).length)));
      const base = (t.extent.get(d) as number) * SECTOR;
      entries.forEach((e, k) => {
        const n = e.node;
        const isDir = n.kind === 'dir';
        const extent = isDir ? (t.extent.get(n) as number) : n.extent;
        const size = isDir ? (t.size.get(n) as number) : n.data.length;
        writeRecord(buf, base + (offsets[k] as number), e.id, extent, size, isDir, o.date, sus[k] as Buffer);
      });
    }
    const rootRecord = Buffer.alloc(34);
    writeRecord(rootRecord, 0, Buffer.from([0]), t.extent.get(root) as number, t.size.get(root) as number, true, o.date, Buffer.alloc(0));
    writeDescriptor(buf, 16 + i, t, o, total, rootRecord);
  }
  const term = 18 * SECTOR;
  buf[term] = 255;
  buf.write('CD001', term + 1, 'latin1');
  buf[term + 6] = 1;
  er.copy(buf, ceSector * SECTOR);
  for (const f of files) Buffer.from(f.data.buffer, f.data.byteOffset, f.data.length).copy(buf, f.extent * SECTOR);
  return buf;
}
