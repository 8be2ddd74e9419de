/**
 * Config drives as Ironic builds them from a JSON `instance_info.configdrive`
 * (`conductor/utils.py` `build_configdrive` → openstacksdk `baremetal/configdrive.py`): an ISO 9660
 * image labelled `config-2` with, for each metadata version (`2012-08-10` and `latest`),
 * `openstack/<version>/meta_data.json`, and when given `network_data.json`, `vendor_data2.json` and
 * `user_data`. cloud-init finds the drive by its label, mounts it and reads the newest version
 * directory it knows.
 */
import { writeIso9660 } from './iso9660.js';

/** The label cloud-init and the agent look for. */
export const CONFIG_DRIVE_LABEL = 'config-2';

/** Metadata versions written by default (openstacksdk's `populate_directory`). */
export const CONFIG_DRIVE_VERSIONS: readonly string[] = ['2012-08-10', 'latest'];

/** The JSON form of a config drive (Ironic API `configdrive` object). */
export interface ConfigDriveContents {
  meta_data?: Record<string, unknown>;
  network_data?: Record<string, unknown>;
  /** A string (cloud-config, a script), raw bytes, or JSON (an Ignition config) written as JSON. */
  user_data?: string | Uint8Array | Record<string, unknown> | unknown[];
  vendor_data?: Record<string, unknown>;
}

/** Options of {@link renderConfigDrive}. */
export interface RenderConfigDriveOptions {
  /** The node, whose UUID and name fill `meta_data.uuid` and `meta_data.name` when they are missing. */
  node?: { uuid: string; name?: string | null };
  /** Metadata version directories (default {@link CONFIG_DRIVE_VERSIONS}). */
  versions?: readonly string[];
  /** Recording time (default now). */
  date?: Date;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === false) return true;
  if (v instanceof Uint8Array) return v.length === 0;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

function userDataBytes(v: ConfigDriveContents['user_data']): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') return Buffer.from(v, 'utf8');
  return Buffer.from(JSON.stringify(v), 'utf8');
}

/** The files of a config drive, by path inside the image. */
export function configDriveFiles(contents: ConfigDriveContents, opts: RenderConfigDriveOptions = {}): Map<string, Uint8Array> {
  const meta: Record<string, unknown> = { ...(contents.meta_data ?? {}) };
  if (opts.node) {
    if (meta.uuid === undefined) meta.uuid = opts.node.uuid;
    if (opts.node.name && meta.name === undefined) meta.name = opts.node.name;
  }
  const files = new Map<string, Uint8Array>();
  for (const version of opts.versions ?? CONFIG_DRIVE_VERSIONS) {
    const dir = `openstack/${version}`;
    files.set(`${dir}/meta_data.json`, Buffer.from(JSON.stringify(meta), 'utf8'));
    if (!isEmpty(contents.network_data)) files.set(`${dir}/network_data.json`, Buffer.from(JSON.stringify(contents.network_data), 'utf8'));
    if (!isEmpty(contents.vendor_data)) files.set(`${dir}/vendor_data2.json`, Buffer.from(JSON.stringify(contents.vendor_data), 'utf8'));
    if (!isEmpty(contents.user_data)) files.set(`${dir}/user_data`, userDataBytes(contents.user_data));
  }
  return files;
}

/** Renders a config drive into an ISO 9660 image (Rock Ridge and Joliet names) labelled `config-2`. */
export function renderConfigDrive(contents: ConfigDriveContents, opts: RenderConfigDriveOptions = {}): Buffer {
  const files = [...configDriveFiles(contents, opts)].map(([path, data]) => ({ path, data }));
  return writeIso9660({ volumeId: CONFIG_DRIVE_LABEL, files, date: opts.date, publisher: 'Ingot' });
}
