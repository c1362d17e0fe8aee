/**
 * Keys from requests are data: `__proto__` or `constructor` must be read and set as own
 * properties, as JSON.parse creates them (an assignment to `__proto__` changes the prototype
 * instead, and a read of `constructor` finds Object's).
 */

/** The object's own value at `key`, never an inherited one. */
export const ownValue = <T>(obj: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(obj, key) ? obj[key] : undefined;

/** Sets an own, enumerable property, whatever the key. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
