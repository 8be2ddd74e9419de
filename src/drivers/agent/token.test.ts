import { describe, expect, it } from 'vitest';
import { agentTokenMatches, newAgentToken, withoutAgent } from './token.js';

describe('the agent token', () => {
  it('is 256 random bits, URL-safe base64 (43 characters), never the same twice', () => {
    const tokens = Array.from({ length: 1000 }, () => newAgentToken());
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(tokens[0] as string, 'base64url').length).toBe(32);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('matches only the very token stored: not a prefix, a longer string, another case or a missing one', () => {
    const token = newAgentToken();
    expect(agentTokenMatches(token, token)).toBe(true);
    for (const given of ['', token.slice(0, 42), `${token}x`, token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(), '******']) {
      expect(agentTokenMatches(token, given), given).toBe(false);
    }
    for (const stored of [undefined, null, 42, { toString: () => token }, '']) expect(agentTokenMatches(stored, token)).toBe(false);
  });

  it('is forgotten with the agent URL, heartbeat time and certificate, and nothing else', () => {
    const dii = { agent_secret_token: 't', agent_url: 'http://x:9999', agent_last_heartbeat: 'now', agent_verify_ca: 'pem', deploy_steps: [] };
    expect(withoutAgent(dii)).toEqual({ deploy_steps: [] });
    expect(withoutAgent({ deploy_steps: [] })).toBeNull();
  });
});
