/**
 * Seeded randomness for the fault tests: the seed is printed, and CLUSTER_TEST_SEED replays a
 * run's choices (which replica dies, and when).
 */

export interface Random {
  seed: number;
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: small, fast and good enough to choose faults. */
export function seededRandom(
  seed = Number(process.env.CLUSTER_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31)),
): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    seed,
    next,
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}
