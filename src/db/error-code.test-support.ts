/** Shared by the storage tests: the code and message of an expected IngotError. */
import { IngotError } from '../shared/errors.js';

/** Awaits `p` and returns the IngotError it rejected with; fails when it resolves or throws anything else. */
export async function codeOf(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof IngotError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected an IngotError, got success');
}
