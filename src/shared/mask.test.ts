import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { maskDict, maskPassword, maskText, scrubValues, secretValues } from './mask.js';

/** Runs Debian's python3-oslo.utils on `input` with the script `body` (reads `data`, prints JSON). */
function oslo(body: string, input: unknown): unknown {
  const script = `import json, sys\ntry:\n    from oslo_utils import strutils\nexcept ImportError:\n    sys.exit('python3-oslo.utils is missing: apt-get install python3-oslo.utils (scripts/test-setup.sh)')\ndata = json.load(sys.stdin)\n${body}`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(input), encoding: 'utf8' }));
}

const MESSAGES = [
  'nothing secret here',
  "'adminPass' : 'aaaaa'",
  '"password" : "aaaaa"',
  "'original_password' : 'aaaaa'",
  'ipmitool -I lanplus -H 10.0.0.1 -U admin -P hunter2 power status',
  'ipmitool --password hunter2 --user admin',
  'password=hunter2 user=admin',
  'password = "hunter 2" other',
  "token='abc def'",
  'Token: XYZ',
  '<password>hunter2</password><user>u</user>',
  '{"ipmi_password": "hunter2", "ipmi_username": "admin"}',
  "{'redfish_password': 'pw', 'redfish_address': 'https://10.0.0.2'}",
  '"auth_token", \'--password\', "s3cr3t"',
  'agent_token -x Y42',
  'PASSWORD1=abc password2 = "d"',
  '"secret": "one" then "configdrive": "H4sI..."',
  "{'password': 'pa'ss'word'}",
  'failed: {"image_pull_secret": "dXNlcjpwYXNz"}',
  'login with --sys_pswd Qwerty!',
  'mixed\nlines password=multi\nline',
  '',
];

describe('maskPassword', () => {
  it('masks exactly as oslo.utils strutils.mask_password does', () => {
    const expected = oslo('print(json.dumps([strutils.mask_password(m, secret="******") for m in data]))', MESSAGES);
    expect(MESSAGES.map((m) => maskPassword(m))).toEqual(expected);
  });

  it('uses the given mask', () => {
    const expected = oslo('print(json.dumps([strutils.mask_password(m) for m in data]))', MESSAGES);
    expect(MESSAGES.map((m) => maskPassword(m, '***'))).toEqual(expected);
  });
});

describe('maskDict', () => {
  const DICTS = [
    { ipmi_password: 'p', ipmi_address: '10.0.0.1', redfish_PASSWORD: 'q', auth_token: 't', ssh_private_key: 'k', list: [1, 'password=x'] },
    { nested: { secret_key: 's', plain: 1, deeper: { Passphrase: 'x' } }, note: 'login password=abc', n: null, b: true },
    { configdrive: { user_data: 'secret-user-data', meta_data: { a: 1 } }, image_source: 'http://x/img', image_pull_secret: 'c2VjcmV0' },
    { agent_secret_token: 'abc', agent_secret_token_pregenerated: true, agent_url: 'http://10.0.0.5:9999' },
  ];

  it('masks exactly as oslo.utils strutils.mask_dict_password does', () => {
    const expected = oslo('print(json.dumps([strutils.mask_dict_password(d, "******") for d in data]))', DICTS);
    expect(DICTS.map((d) => maskDict(d))).toEqual(expected);
  });

  it('copies on change and returns the same object otherwise', () => {
    const input = { ipmi_password: 'p', inner: { a: 1 } };
    const out = maskDict(input);
    expect(input.ipmi_password).toBe('p');
    expect(out.inner).toBe(input.inner);
    const clean = { deploy_kernel: 'http://x/k', ipmi_username: 'admin' };
    expect(maskDict(clean)).toBe(clean);
  });
});

describe('maskText and scrubValues', () => {
  it('masks credentials inside URLs', () => {
    expect(maskText('GET http://user:s3cret@10.0.0.9/img.raw failed')).toBe('GET http://user:******@10.0.0.9/img.raw failed');
    expect(maskText('see https://example.com/a@b and mailto x@y')).toBe('see https://example.com/a@b and mailto x@y');
  });

  it('scrubs the known secret values of an object from text', () => {
    const values = secretValues({ ipmi_password: 'hunter22', ipmi_username: 'admin', nested: { token: ['tok-1234', 'ab'] } }, 'loose');
    expect(values.sort()).toEqual(['hunter22', 'tok-1234']);
    expect(scrubValues('BMC refused admin/hunter22 (tok-1234); ab', values)).toBe('BMC refused admin/****** (******); ab');
  });
});
