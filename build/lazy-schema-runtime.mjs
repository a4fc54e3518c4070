/**
 * The stand-ins build/lazy-schemas.mjs puts where the MCP SDK defines a zod
 * schema (or a value read off schemas): `make` runs on first use, and every
 * operation from then on is the real value's: reads, method calls, `in`, keys,
 * the prototype (so `instanceof` and zod's trait checks hold). Bundled into
 * the SDK's chunk by build/bundle.mjs.
 */
const MAKE = Symbol('make');
const REAL = Symbol('real');
const BIND = Symbol('bind');

/** The real value behind a stand-in (the proxy's target), made on first use. */
function real(target) {
  if (!(REAL in target)) {
    target[REAL] = target[MAKE]();
    target[MAKE] = undefined;
  }
  return target[REAL];
}

/** One handler for every stand-in: the state is on the target, not in closures. */
const handler = {
  get(target, key) {
    const value = Reflect.get(real(target), key);
    // A Set's methods check their receiver: called off the stand-in, they get the set.
    return target[BIND] && typeof value === 'function' ? value.bind(target[REAL]) : value;
  },
  set: (target, key, value) => Reflect.set(real(target), key, value),
  has: (target, key) => Reflect.has(real(target), key),
  ownKeys: (target) => Reflect.ownKeys(real(target)),
  getOwnPropertyDescriptor(target, key) {
    const descriptor = Reflect.getOwnPropertyDescriptor(real(target), key);
    // A proxy may not report as non-configurable what its target does not hold so.
    return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
  },
  defineProperty: (target, key, descriptor) =>
    Reflect.defineProperty(real(target), key, descriptor),
  deleteProperty: (target, key) => Reflect.deleteProperty(real(target), key),
  getPrototypeOf: (target) => Reflect.getPrototypeOf(real(target)),
};

/** A zod schema, made by `make` on first use. */
export const lazySchema = (make) => new Proxy({ [MAKE]: make, [BIND]: false }, handler);

/** A value whose methods need it as their receiver (a Set, an object of Sets), made on first use. */
export const lazyValue = (make) => new Proxy({ [MAKE]: make, [BIND]: true }, handler);
