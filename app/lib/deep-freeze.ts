/**
 * Freezes a value and everything it holds. Caches and memos hand the same
 * object to many requests: frozen, no caller can change another's answer.
 * A value already frozen is taken as frozen all the way down.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
