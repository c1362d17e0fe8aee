/** `bosun version`: Bosun's version, the Node.js it runs on, and the SOL API versions served. */
import type { Command } from 'commander';
import { API_REGISTRY } from '../../http/sol013/api-versions.ts';
import { BOSUN_VERSION } from '../../version.ts';
import { emit, printTable } from '../output.ts';

export function register(version: Command): void {
  version.option('--json', 'print JSON').action((opts: { json?: boolean }) => {
    const apis = API_REGISTRY.map((m) => ({
      api: `/${m.api}/${m.major}`,
      versions: m.versions.join(', '),
      spec: m.spec,
    }));
    emit(opts.json, { bosun: BOSUN_VERSION, node: process.versions.node, apis }, () => {
      process.stdout.write(`bosun ${BOSUN_VERSION} (node ${process.versions.node})\n`);
      printTable(apis, ['api', 'versions', 'spec']);
    });
  });
}
