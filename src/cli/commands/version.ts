/**
 * `bosun version`: Bosun's version, the Node.js it runs on, and the SOL API versions it serves
 * (the registry the server's api_versions and Version checks read). `--server`: what a running
 * server actually serves, from its own api_versions — a worker-role process serves none.
 */
import type { Command } from 'commander';
import { API_NAMES, API_REGISTRY, type ApiVersionInformation, findMajor } from '../../sol/api-versions.ts';
import { BOSUN_VERSION } from '../../version.ts';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import { responseError } from '../api-client/errors.ts';
import { emit, printTable } from '../output.ts';

type ApiRow = {
  api: string;
  versions: string;
  spec: string;
};

/** The API majors the server answers api_versions for, one row each. */
async function servedBy(client: ApiClient): Promise<ApiRow[]> {
  const rows: ApiRow[] = [];
  for (const api of API_NAMES) {
    const res = await client.request('GET', `/${api}/api_versions`, { allowError: true });
    if (res.status === 404) {
      await res.body?.cancel();
      continue;
    }
    if (!res.ok) throw await responseError(res);
    const info = (await res.json()) as ApiVersionInformation;
    const byMajor = Map.groupBy(info.apiVersions, (v) => `v${v.version.split('.')[0]}`);
    for (const [major, versions] of byMajor) {
      rows.push({
        api: `/${api}/${major}`,
        versions: versions.map((v) => v.version).join(', '),
        spec: findMajor(api, major)?.spec ?? '',
      });
    }
  }
  return rows;
}

export function register(version: Command): void {
  withConnectionOptions(version)
    .option('--json', 'print JSON')
    .option('--server', 'list what the server (--url, BOSUN_URL, or the configuration) serves instead')
    .action(async (opts: ConnectionOptions & { json?: boolean; server?: boolean }) => {
      const head = { bosun: BOSUN_VERSION, node: process.versions.node };
      if (opts.server) {
        const client = ApiClient.from(opts);
        const apis = await servedBy(client);
        const { url } = await client.connection();
        emit(opts.json, { ...head, server: url, apis }, () => {
          process.stdout.write(
            `bosun ${BOSUN_VERSION} (node ${process.versions.node}); server ${url} serves:\n`,
          );
          if (apis.length) printTable(apis, ['api', 'versions', 'spec']);
          else process.stdout.write('no SOL API (a worker-role process)\n');
        });
        return;
      }
      const apis = API_REGISTRY.map((m) => ({
        api: `/${m.api}/${m.major}`,
        versions: m.versions.join(', '),
        spec: m.spec,
      }));
      emit(opts.json, { ...head, apis }, () => {
        process.stdout.write(`bosun ${BOSUN_VERSION} (node ${process.versions.node})\n`);
        printTable(apis, ['api', 'versions', 'spec']);
      });
    });
}
