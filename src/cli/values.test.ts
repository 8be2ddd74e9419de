import { describe, expect, it } from 'vitest';
import { keyValues, parseBool, parseKeyValue, parseLooseValue } from './values.js';
import { faultOf, renderError, ApiError } from './api-error.js';
import { cell, labelOf, renderTable } from './output.js';
import { pointer } from './patch.js';
import { waitSeconds, isFailureState } from './wait.js';
import { nodeAndWait } from './node-actions.js';
import { IronicClient } from './http-client.js';

describe('k=v values', () => {
  it('keeps strings, parses only {…} and […] as JSON', () => {
    expect(parseLooseValue('623')).toBe('623');
    expect(parseLooseValue('true')).toBe('true');
    expect(parseLooseValue('{"a": 1}')).toEqual({ a: 1 });
    expect(parseLooseValue('[1, "x"]')).toEqual([1, 'x']);
    expect(parseLooseValue('{not json')).toBe('{not json');
    expect(parseKeyValue('url=http://x/?a=b', '--extra')).toEqual(['url', 'http://x/?a=b']);
    expect(keyValues(['a=1', 'a=2', 'b='], '--extra')).toEqual({ a: '2', b: '' });
    expect(() => parseKeyValue('=v', '--extra')).toThrow("--extra expects key=value, got '=v'");
  });

  it('parses booleans and wait values strictly', () => {
    expect(parseBool('False', '--x')).toBe(false);
    expect(parseBool('yes', '--x')).toBe(true);
    expect(() => parseBool('maybe', '--x')).toThrow('--x expects true or false');
    expect(waitSeconds(true)).toBe(0);
    expect(waitSeconds('90')).toBe(90);
    expect(waitSeconds(undefined)).toBeUndefined();
    expect(() => waitSeconds('-1')).toThrow();
    expect(nodeAndWait(undefined, 'node-1')).toEqual({ node: 'node-1', wait: 0 });
    expect(nodeAndWait('n', '30')).toEqual({ node: 'n', wait: 30 });
    expect(() => nodeAndWait(undefined, '30')).toThrow("missing required argument 'node'");
  });
});

describe('error envelope', () => {
  it('decodes the nested JSON string, an inner object, plain text and empty bodies', () => {
    const nested = JSON.stringify({ error_message: JSON.stringify({ faultcode: 'Client', faultstring: 'Bad\nthing', debuginfo: null }) });
    expect(faultOf(nested, 'Bad Request')).toEqual({ message: 'Bad thing', faultcode: 'Client' });
    expect(faultOf(JSON.stringify({ error_message: { faultstring: 'inner' } }), 'x')).toEqual({ message: 'inner' });
    expect(faultOf(JSON.stringify({ error_message: 'plain words' }), 'x')).toEqual({ message: 'plain words' });
    expect(faultOf('<html>oops</html>', 'Bad Gateway')).toEqual({ message: '<html>oops</html>' });
    expect(faultOf('', 'Service Unavailable')).toEqual({ message: 'Service Unavailable' });
    expect(renderError(new ApiError(503, 'No free conductor workers available'))).toBe('No free conductor workers available (HTTP 503)');
  });
});

describe('rendering', () => {
  it('labels, cells and tables', () => {
    expect(labelOf('provision_state')).toBe('Provisioning State');
    expect(labelOf('node_uuid')).toBe('Node UUID');
    expect(cell(null)).toBe('None');
    expect(cell({ a: [1, { b: 'c' }] })).toBe('{"a": [1, {"b": "c"}]}');
    expect(renderTable(['A', 'Long'], [['xyz', '1']])).toBe('+-----+------+\n| A   | Long |\n+-----+------+\n| xyz | 1    |\n+-----+------+\n');
    expect(renderTable(['A'], [])).toBe('+---+\n| A |\n+---+\n');
  });

  it('escapes JSON Pointer segments and recognises failure states', () => {
    expect(pointer('extra', 'a/b~c')).toBe('/extra/a~1b~0c');
    expect(isFailureState('deploy failed')).toBe(true);
    expect(isFailureState('error')).toBe(true);
    expect(isFailureState('wait call-back')).toBe(false);
  });
});

describe('IronicClient', () => {
  it('normalises the endpoint and rebases next links on it', () => {
    const c = new IronicClient({ url: 'http://127.0.0.1:6385/v1/', apiVersion: '1.82', fetch: globalThis.fetch });
    expect(c.url('nodes', { limit: 2, marker: undefined }).href).toBe('http://127.0.0.1:6385/v1/nodes?limit=2');
    expect(c.follow('http://other:1/v1/nodes?marker=x').href).toBe('http://127.0.0.1:6385/v1/nodes?marker=x');
    expect(c.minor).toBe(82);
    expect(new IronicClient({ url: 'http://h', apiVersion: 'latest', fetch: globalThis.fetch }).minor).toBe(Infinity);
    expect(() => new IronicClient({ url: 'not a url', apiVersion: 'latest', fetch: globalThis.fetch })).toThrow("invalid endpoint URL 'not a url'");
  });
});
