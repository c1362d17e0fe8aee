/**
 * Pauses between looks at what the cloud is still doing (a stack action, servers stopping):
 * growing by half each time up to 2 s, since every look costs the cloud work too — a look at a
 * Nova server, for one, costs Nova two calls to Neutron.
 */
const MAX_PAUSE_MS = 2000;

export function* lookPauses(firstMs: number): Generator<number, never> {
  for (let pause = firstMs; ; pause = Math.min(pause * 1.5, MAX_PAUSE_MS)) yield pause;
}
