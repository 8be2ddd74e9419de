import { describe, expect, it } from 'vitest';
import type { ProvisionVerb } from '../domain/states.js';
import type { ProvisionBody } from '../protocol/api/bodies.js';
import { IngotError } from '../shared/errors.js';
import { checkSteps, provisionOptionsFromBody } from './provision-input.js';

const LATEST = 96;

function refusal(target: ProvisionVerb, body: Omit<ProvisionBody, 'target'>, minor = LATEST): { code: string; message: string } {
  try {
    provisionOptionsFromBody(target, { target, ...body }, minor);
  } catch (err) {
    if (err instanceof IngotError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('not refused');
}

describe('provision options', () => {
  it('hands each verb the arguments it takes, a deploy step’s priority as a number', () => {
    expect(provisionOptionsFromBody('clean', { target: 'clean', clean_steps: [{ interface: 'deploy', step: 'erase_devices' }], disable_ramdisk: 'yes' }, LATEST))
      .toEqual({ clean_steps: [{ interface: 'deploy', step: 'erase_devices' }], disable_ramdisk: true });
    const steps = [{ interface: 'deploy', step: 'hold', args: {}, priority: '90' }];
    expect(provisionOptionsFromBody('active', { target: 'active', deploy_steps: steps, configdrive: 'H4sI' }, LATEST))
      .toEqual({ deploy_steps: [{ interface: 'deploy', step: 'hold', args: {}, priority: 90 }], configdrive: 'H4sI' });
    expect(provisionOptionsFromBody('rescue', { target: 'rescue', rescue_password: ' pw ' }, LATEST)).toEqual({ rescue_password: ' pw ' });
    // An empty list is no list, as Ironic reads it.
    expect(provisionOptionsFromBody('manage', { target: 'manage', clean_steps: [], service_steps: null }, LATEST)).toEqual({});
  });

  it('refuses arguments of another verb, and the required ones missing, in Ironic’s words', () => {
    expect(refusal('manage', { clean_steps: [{ interface: 'deploy', step: 'x' }] }).message).toBe('"clean_steps" is only valid when setting target provision state to clean');
    expect(refusal('clean', { clean_steps: [] }).message).toBe('"clean_steps" is required when setting target provision state to clean');
    expect(refusal('service', {}).message).toBe('"service_steps" is required when setting target provision state to service');
    expect(refusal('manage', { rescue_password: '' }).message).toBe('"rescue_password" is only valid when setting target provision state to rescue');
    for (const password of [undefined, '', '   ']) {
      expect(refusal('rescue', { rescue_password: password })).toEqual({
        code: 'InvalidParameterValue', message: 'A non-empty "rescue_password" is required when setting target provision state to rescue',
      });
    }
    expect(refusal('deploy', { deploy_steps: [{ interface: 'deploy', step: 'x', args: {}, priority: 1 }] }, 68).code).toBe('NotAcceptable');
    expect(refusal('clean', { deploy_steps: [{ interface: 'deploy', step: 'x', args: {}, priority: 1 }] }).message)
      .toBe('"deploy_steps" is only valid when setting target provision state to active, rebuild or deploy');
  });

  it('checks each kind of step list against its schema', () => {
    expect(checkSteps('service', [{ interface: 'network', step: 'x' }])).toEqual([{ interface: 'network', step: 'x' }]);
    expect(() => checkSteps('clean', [{ interface: 'network', step: 'x' }])).toThrow(/^Invalid clean_steps: 'network' is not one of/);
    expect(() => checkSteps('deploy', [{ interface: 'deploy', step: 'x', priority: 1 }])).toThrow(/^Invalid deploy_steps: 'args' is a required property/);
  });
});
