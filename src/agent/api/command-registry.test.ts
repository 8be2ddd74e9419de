import { describe, it, expect } from 'vitest';
import { CleanVersionMismatch, CommandRegistry } from './command-registry.js';
import { AgentRestError, invalidCommandParams, versionMismatch } from './errors.js';

function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
}

describe('CommandRegistry', () => {
  it('records sync results under the command name and async ones as RUNNING until they finish', async () => {
    const done: string[] = [];
    const reg = new CommandRegistry({ onAsyncDone: (r) => done.push(r.view().command_name) });
    const g = gate();
    reg.register('x', 'now', { async: false, run: () => ({ n: 1 }) });
    reg.register('x', 'later', { async: true, run: async () => (await g.p, 'ok') });
    expect((await reg.execute('x.now', {})).view()).toMatchObject({ command_name: 'now', command_status: 'SUCCEEDED', command_result: { n: 1 } });
    const later = await reg.execute('x.later', {});
    expect(later.view().command_status).toBe('RUNNING');
    expect(reg.busy()).toBe(true);
    await expect(reg.execute('x.now', {})).rejects.toMatchObject({ code: 409, message: 'Agent is busy: executing command later' });
    g.open();
    await later.finished;
    expect(later.view()).toMatchObject({ command_status: 'SUCCEEDED', command_result: 'ok' });
    expect(done).toEqual(['later']);
    expect(reg.list().map((r) => r.command_name)).toEqual(['now', 'later']);
  });

  it('records failures (a failed sync command under its full name), refuses bad requests without recording', async () => {
    const reg = new CommandRegistry();
    reg.register('x', 'boom', { async: false, run: () => { throw new Error('disk on fire'); } });
    reg.register('x', 'checked', { async: true, validate: () => { throw invalidCommandParams('imageUrlsInvalid'); }, run: () => null });
    reg.register('x', 'old', { async: true, run: () => { throw new CleanVersionMismatch(versionMismatch('clean', { a: '1' }, { a: '0' })); } });
    const boom = (await reg.execute('x.boom', {})).view();
    expect(boom).toMatchObject({ command_name: 'x.boom', command_status: 'FAILED', command_error: { type: 'CommandExecutionError', code: 500, message: 'Command execution failed', details: 'disk on fire' } });
    await expect(reg.execute('x.checked', {})).rejects.toBeInstanceOf(AgentRestError);
    await expect(reg.execute('nope.x', {})).rejects.toMatchObject({ code: 404 });
    await expect(reg.execute('x.nope', {})).rejects.toMatchObject({ code: 400, details: 'Unknown command: nope' });
    const old = await reg.execute('x.old', {});
    await old.finished;
    expect(old.view()).toMatchObject({ command_status: 'CLEAN_VERSION_MISMATCH', command_error: { type: 'CleanVersionMismatch', code: 409 } });
    expect(reg.list()).toHaveLength(2);
    expect(() => reg.get('missing')).toThrow('Not found: Command Result with id missing not found.');
  });
});
