/**
 * A stand-in for a fixture a test hook creates (`beforeAll`, `beforeEach`): the object is declared once
 * where the hooks are registered and read in the tests, where every property reads (and writes) the
 * fixture of the moment. Reading it before the hook ran fails with a message that says so.
 */
export function lazy<T extends object>(current: () => T | undefined, what: string): T {
  const target = (): T => {
    const value = current();
    if (value === undefined) throw new Error(`${what} is read before the hook that creates it ran: read it in a test or a later hook`);
    return value;
  };
  return new Proxy({} as T, {
    get(_shell, key) {
      const value = target();
      const field: unknown = Reflect.get(value, key, value);
      return typeof field === 'function' ? (field as (...args: unknown[]) => unknown).bind(value) : field;
    },
    set: (_shell, key, value) => Reflect.set(target(), key, value),
    has: (_shell, key) => Reflect.has(target(), key),
    // Spreading and Object.keys see the fixture's own fields.
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor(_shell, key) {
      const d = Reflect.getOwnPropertyDescriptor(target(), key);
      return d && { ...d, configurable: true };
    },
  });
}
