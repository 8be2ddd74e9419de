/** What a function throws, for tests that look into the error (its class, code, fields); fails if it returns. */
export function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error, but the call returned');
}
