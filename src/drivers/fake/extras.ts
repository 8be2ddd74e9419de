/** Fake RAID, BIOS, console, vendor, network, storage and firmware. */
import type { JsonObject } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import type { BiosInterface } from '../interfaces/bios.js';
import type { ConsoleInterface } from '../interfaces/console.js';
import type { FirmwareInterface } from '../interfaces/firmware.js';
import type { NetworkInterface } from '../interfaces/network.js';
import type { RaidInterface } from '../interfaces/raid.js';
import type { StorageInterface } from '../interfaces/storage.js';
import type { VendorInterface } from '../interfaces/vendor.js';
import { noopNetwork } from '../noop/noop.js';
import { validateRaidConfig } from '../raid-config.js';
import { delayProperty, fakeDelay, validateDelay } from './delay.js';

function settingsOf(args: JsonObject): JsonObject[] {
  const settings = args['settings'];
  if (!Array.isArray(settings)) throw fail('fakeStepSettingsNotList');
  return settings.filter((s): s is JsonObject => typeof s === 'object' && s !== null && !Array.isArray(s));
}

export function fakeRaid(): RaidInterface {
  const self: RaidInterface = {
    name: 'fake',
    properties: delayProperty('raid'),
    validate: (task) => validateDelay(task, 'raid'),
    validateRaidConfig: (_task, config) => validateRaidConfig(config),
    async createConfiguration(task) {
      await fakeDelay(task, 'raid');
      task.update({ raid_config: task.node.target_raid_config });
    },
    async deleteConfiguration(task) {
      await fakeDelay(task, 'raid');
      task.update({ raid_config: {} });
    },
    steps: {
      create_configuration: (task) => self.createConfiguration(task),
      delete_configuration: (task) => self.deleteConfiguration(task),
    },
  };
  return self;
}

export function fakeBios(): BiosInterface {
  const self: BiosInterface = {
    name: 'fake',
    properties: delayProperty('bios'),
    validate: (task) => validateDelay(task, 'bios'),
    async applyConfiguration(task, settings) {
      await fakeDelay(task, 'bios');
      const current = task.node.driver_internal_info['fake_bios_settings'];
      const merged: JsonObject = typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...current } : {};
      for (const s of settings) if (typeof s['name'] === 'string') merged[s['name']] = s['value'] ?? null;
      task.update({ driver_internal_info: { ...task.node.driver_internal_info, fake_bios_settings: merged } });
    },
    async factoryReset(task) {
      await fakeDelay(task, 'bios');
      task.update({ driver_internal_info: { ...task.node.driver_internal_info, fake_bios_settings: {} } });
    },
    cacheBiosSettings: (task) => fakeDelay(task, 'bios'),
    steps: {
      apply_configuration: (task, args) => self.applyConfiguration(task, settingsOf(args)),
      factory_reset: (task) => self.factoryReset(task),
      cache_bios_settings: (task) => self.cacheBiosSettings(task),
    },
  };
  return self;
}

export function fakeConsole(): ConsoleInterface {
  return {
    name: 'fake',
    properties: {},
    validate: () => undefined,
    startConsole: async () => undefined,
    stopConsole: async () => undefined,
    getConsole: async (task) => ({ type: 'fake', url: `fake://console/${task.node.uuid}` }),
  };
}

export function fakeVendor(): VendorInterface {
  return {
    name: 'fake',
    properties: delayProperty('vendor'),
    validate: (task) => validateDelay(task, 'vendor'),
    methods: {
      first_method: { http_methods: ['POST'], description: 'Test if the value of bar is baz', async: true, require_exclusive_lock: true, attach: false },
    },
    async call(task, method, _httpMethod, args) {
      if (method !== 'first_method') throw fail('fakeVendorMethodUnsupported', { method });
      if (!args['bar']) throw fail('fakeVendorBarMissing');
      await fakeDelay(task, 'vendor');
      return args['bar'] === 'baz';
    },
  };
}

export function fakeStorage(): StorageInterface {
  return {
    name: 'fake',
    properties: delayProperty('storage'),
    validate: (task) => validateDelay(task, 'storage'),
    attachVolumes: (task) => fakeDelay(task, 'storage'),
    detachVolumes: (task) => fakeDelay(task, 'storage'),
    shouldWriteImage: () => true,
  };
}

export function fakeFirmware(): FirmwareInterface {
  const self: FirmwareInterface = {
    name: 'fake',
    properties: delayProperty('firmware'),
    validate: (task) => validateDelay(task, 'firmware'),
    update: (task) => fakeDelay(task, 'firmware'),
    cacheFirmwareComponents: (task) => fakeDelay(task, 'firmware'),
    steps: { update: (task, args) => self.update(task, settingsOf(args)) },
  };
  return self;
}

/** Fake network: does nothing but is a valid network interface (Ironic has only `noop` for this). */
export function fakeNetwork(): NetworkInterface {
  // Fake networking does what noop networking does (nothing), under its own name.
  return { ...noopNetwork(), name: 'fake' };
}
