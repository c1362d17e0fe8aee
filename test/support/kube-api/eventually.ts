/** Waits for a condition on the test cluster (controllers act asynchronously), with the last value in the error. */
export async function eventually<T>(
  read: () => T | Promise<T>,
  ok: (value: T) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(value)?.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
