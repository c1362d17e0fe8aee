/**
 * The import rules (.dependency-cruiser.cjs, docs/architecture.md "Layers"): the source tree keeps
 * them, and a wrong import in a tree laid out like src/ fails naming the rule it breaks.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { tempDir } from '../support/temp.ts';

const repo = new URL('../../', import.meta.url).pathname;
const depcruise = join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

function cruise(cwd: string, ...flags: string[]) {
  const r = spawnSync(
    process.execPath,
    [depcruise, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err-long', ...flags],
    { cwd, encoding: 'utf8' },
  );
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

/** A tree with the repository's rules and the given files (path → content). */
function tree(files: Record<string, string>): string {
  const dir = tempDir('bosun-layers-test-');
  copyFileSync(join(repo, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', allowImportingTsExtensions: true },
    }),
  );
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const LEAF = 'export const x = 1;\n';
const importing = (specifier: string) => `import { x } from '${specifier}';\nexport const y = x;\n`;

/** [rule, a tree that breaks it]. */
const BREAKS: [string, Record<string, string>][] = [
  ['domain-not-http-cli', { 'src/lcm/model.ts': importing('../http/app.ts'), 'src/http/app.ts': LEAF }],
  // A type is as much a tie as a value.
  [
    'domain-not-http-cli',
    {
      'src/packages/record.ts': "import type { X } from '../http/caller.ts';\nexport type Y = X;\n",
      'src/http/caller.ts': 'export type X = number;\n',
    },
  ],
  [
    'domain-not-http-cli',
    { 'src/store/rows.ts': importing('../cli/program.ts'), 'src/cli/program.ts': LEAF },
  ],
  ['http-not-cli', { 'src/http/app.ts': importing('../cli/program.ts'), 'src/cli/program.ts': LEAF }],
  [
    'domain-not-jobs',
    { 'src/notify/outbox.ts': importing('../jobs/poll-loop.ts'), 'src/jobs/poll-loop.ts': LEAF },
  ],
  [
    'lcm-above-vims-drivers-grant',
    { 'src/vims/contract.ts': importing('../lcm/engine.ts'), 'src/lcm/engine.ts': LEAF },
  ],
  [
    'store-imports-no-capability',
    { 'src/store/blobs/hash.ts': importing('../../vnfd/csar/zip.ts'), 'src/vnfd/csar/zip.ts': LEAF },
  ],
  [
    'notify-core-below-capabilities',
    { 'src/notify/filter.ts': importing('../lcm/model.ts'), 'src/lcm/model.ts': LEAF },
  ],
  [
    'packages-below-lcm',
    { 'src/packages/states.ts': importing('../lcm/model.ts'), 'src/lcm/model.ts': LEAF },
  ],
  [
    'vnfd-reads-packages-only',
    { 'src/vnfd/read.ts': importing('../store/db/database.ts'), 'src/store/db/database.ts': LEAF },
  ],
  ['sol-is-a-leaf', { 'src/sol/problem.ts': importing('../config/load.ts'), 'src/config/load.ts': LEAF }],
  ['foundations-are-leaves', { 'src/config/load.ts': importing('../store/db.ts'), 'src/store/db.ts': LEAF }],
  ['no-cycles', { 'src/packages/a.ts': importing('./b.ts'), 'src/packages/b.ts': importing('./a.ts') }],
  ['imports-resolve', { 'src/lcm/engine.ts': importing('./missing.ts') }],
];

describe('layers', () => {
  test('the source tree keeps the import rules (no violation beyond the known ones)', () => {
    const r = cruise(repo, '--ignore-known');
    assert.equal(r.code, 0, r.output);
    assert.match(r.output, /no dependency violations found/);
  });

  for (const [rule, files] of BREAKS) {
    test(`${Object.keys(files)[0]} → ${Object.keys(files)[1] ?? 'a missing file'} fails naming ${rule}`, () => {
      const r = cruise(tree(files));
      assert.notEqual(r.code, 0, r.output);
      assert.match(r.output, new RegExp(`error ${rule}:`));
    });
  }

  test('imports that keep the layers pass', () => {
    const r = cruise(
      tree({
        'src/http/app.ts': importing('../lcm/model.ts'),
        'src/lcm/model.ts': importing('../sol/problem.ts'),
        'src/sol/problem.ts': LEAF,
        'src/cli/program.ts': importing('../http/app.ts'),
      }),
    );
    assert.equal(r.code, 0, r.output);
  });
});
