/** Reading one sample out of a Prometheus text exposition, for the metrics tests. */

/** The value of `name` with exactly `labels`, or undefined when the scrape has no such sample. */
export function metricValue(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '')
      .split(/,(?=[a-zA-Z_]\w*=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (have === wanted) return Number(m[3]);
  }
  return undefined;
}
