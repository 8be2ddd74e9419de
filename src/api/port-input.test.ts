import { describe, expect, it } from 'vitest';
import { IngotError } from '../shared/errors.js';
import type { PatchOp } from './patch.js';
import { checkSmartNicLink, rejectNewerPortInput, rejectNewerPortPatch, requireOneNode, validateLocalLink } from './port-input.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof IngotError) return err.code;
    throw err;
  }
  return undefined;
}

describe('port input by microversion', () => {
  it('refuses create fields newer than the version, present even as null', () => {
    expect(codeOf(() => rejectNewerPortInput({ address: 'x', name: null }, 87))).toBe('NotAcceptable');
    expect(codeOf(() => rejectNewerPortInput({ address: 'x', name: 'n' }, 88))).toBeUndefined();
    expect(codeOf(() => rejectNewerPortInput({ is_smartnic: false }, 52))).toBe('NotAcceptable');
    expect(codeOf(() => rejectNewerPortInput({ local_link_connection: { 'vtep-logical-switch': 'l', 'vtep-physical-switch': 'p', port_id: 'x' } }, 89))).toBe('NotAcceptable');
    expect(codeOf(() => rejectNewerPortInput({ local_link_connection: { 'vtep-logical-switch': 'l', 'vtep-physical-switch': 'p', port_id: 'x' } }, 90))).toBeUndefined();
    expect(codeOf(() => rejectNewerPortInput({ local_link_connection: { network_type: 'unmanaged' } }, 63))).toBe('NotAcceptable');
    expect(codeOf(() => rejectNewerPortInput({ local_link_connection: null }, 19))).toBeUndefined();
  });

  it('checks a PATCH as Ironic does: set values at the exact path, removals at or under it', () => {
    const ops = (...o: PatchOp[]) => o;
    expect(codeOf(() => rejectNewerPortPatch(ops({ op: 'replace', path: '/pxe_enabled', value: false }), 18))).toBe('NotAcceptable');
    expect(codeOf(() => rejectNewerPortPatch(ops({ op: 'remove', path: '/local_link_connection/port_id' }), 18))).toBe('NotAcceptable');
    expect(codeOf(() => rejectNewerPortPatch(ops({ op: 'add', path: '/local_link_connection/network_type', value: 'managed' }), 63))).toBe('NotAcceptable');
    expect(codeOf(() => rejectNewerPortPatch(ops({ op: 'remove', path: '/physical_network' }), 33))).toBe('NotAcceptable');
    // What Ironic lets through below the fields' versions.
    expect(codeOf(() => rejectNewerPortPatch(ops({ op: 'add', path: '/local_link_connection/port_id', value: 'p' }), 18))).toBeUndefined();
    expect(codeOf(() => rejectNewerPortPatch(ops({ op: 'replace', path: '/name', value: 'n' }), 87))).toBeUndefined();
    expect(codeOf(() => rejectNewerPortPatch(ops({ op: 'replace', path: '/extra/a', value: 1 }), 1))).toBeUndefined();
  });

  it('needs exactly one of node_ident and node_uuid', () => {
    expect(requireOneNode({ node_ident: 'n1' })).toEqual({ field: 'node_ident', value: 'n1' });
    expect(requireOneNode({ node_uuid: 'u' })).toEqual({ field: 'node_uuid', value: 'u' });
    expect(codeOf(() => requireOneNode({ node_ident: 'n1', node_uuid: 'u' }))).toBe('InvalidParameterValue');
    expect(codeOf(() => requireOneNode({}))).toBe('InvalidParameterValue');
  });
});

describe('local_link_connection', () => {
  it.each([
    [{}],
    [{ port_id: 'p', switch_id: 'aa:bb:cc:dd:ee:ff', switch_info: 'sw1' }],
    [{ port_id: 'p', switch_id: 'aa:bb:cc:dd:ee:ff', network_type: 'managed' }],
    [{ port_id: 'p', hostname: 'h' }],
    [{ network_type: 'unmanaged', port_id: 'p' }],
    [{ port_id: 'p', 'vtep-logical-switch': 'l', 'vtep-physical-switch': 's' }],
    [{ port_id: 'p', switch_id: '0123456789abcdef', 'vtep-logical-switch': 'l', 'vtep-physical-switch': 's' }],
  ])('accepts %j', (link) => {
    expect(validateLocalLink(link)).toEqual(link);
  });

  it.each([
    [{ port_id: 'p' }],
    [{ switch_id: 'aa:bb:cc:dd:ee:ff' }],
    [{ port_id: 'p', switch_id: 'aa:bb:cc:dd:ee:ff', extra: 'x' }],
    [{ port_id: 'p', hostname: 1 }],
    [{ network_type: 'managed' }],
    [{ network_type: 'unmanaged', 'vtep-logical-switch': 'l' }],
    [{ port_id: 'p', 'vtep-physical-switch': 's' }],
    [{ port_id: 'p', switch_id: 'aa-bb-cc-dd-ee-ff' }],
    [{ port_id: 'p', switch_id: '0123456789abcdeg' }],
    [[]],
    ['text'],
  ])('refuses %j', (link) => {
    expect(codeOf(() => validateLocalLink(link))).toBe('InvalidParameterValue');
  });

  it('lower-cases switch_id and keeps null', () => {
    expect(validateLocalLink({ port_id: 'P', switch_id: 'AA:BB:CC:DD:EE:FF' })).toEqual({ port_id: 'P', switch_id: 'aa:bb:cc:dd:ee:ff' });
    expect(validateLocalLink(null)).toBeNull();
  });

  it('a Smart NIC link names port_id and hostname (no link at all passes, as in Ironic)', () => {
    expect(codeOf(() => checkSmartNicLink({ port_id: 'p', switch_id: 'aa:bb:cc:dd:ee:ff' }))).toBe('InvalidParameterValue');
    expect(codeOf(() => checkSmartNicLink({ port_id: 'p', hostname: 'h' }))).toBeUndefined();
    expect(codeOf(() => checkSmartNicLink(null))).toBeUndefined();
  });
});
