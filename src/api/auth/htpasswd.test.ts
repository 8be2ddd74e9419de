import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/support/thrown.js';
import { parseHtpasswd } from './htpasswd.js';

const hash = bcrypt.hashSync('secret', 4);

describe('htpasswd files', () => {
  it('reads bcrypt entries of every version htpasswd -B and bcrypt write, skipping blank lines and comments', () => {
    const text = `# operators\nalice:${hash}\n\n  bob:${hash.replace('$2b$', '$2y$')}  \r\ncarol:${hash.replace('$2b$', '$2a$')}\n`;
    expect([...parseHtpasswd(text, 'f').keys()]).toEqual(['alice', 'bob', 'carol']);
    expect(parseHtpasswd(text, 'f').get('bob')).toBe(hash.replace('$2b$', '$2y$'));
  });

  it('refuses the whole file for one bad line, naming the line and never its hash', () => {
    const cases: [string, RegExp][] = [
      [`alice:${hash}\njust-a-name`, /f line 2: expected "user:bcrypt-hash"/],
      [`:${hash}`, /f line 1: expected "user:bcrypt-hash"/],
      ['alice:$apr1$salt$0123456789abcdefghijkl', /f line 1: only bcrypt digested passwords are supported for alice/],
      ['alice:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=', /only bcrypt digested passwords are supported for alice/],
      ['alice:$2y$05$short', /f line 1: expected "user:bcrypt-hash"/],
      [`alice:${hash}\nalice:${hash}`, /f line 2: user alice is already defined on line 1/],
    ];
    for (const [text, message] of cases) {
      const err = thrownBy(() => parseHtpasswd(text, 'f'));
      expect(err, text).toMatchObject({ code: 'ConfigInvalid', message: expect.stringMatching(message) });
      expect(err.message).not.toContain(hash.slice(7));
    }
  });
});
