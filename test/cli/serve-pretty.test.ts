import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { formatLogLine } from '../../src/pretty-log.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;

describe('readable log lines', () => {
  test('time, level, message, the request bare, then key=value; JSON for objects, quotes where needed', () => {
    const line = JSON.stringify({
      level: 30,
      time: '2026-11-25T10:04:05.123Z',
      pid: 1,
      hostname: 'h',
      service: 'bosun',
      requestId: 'r-1',
      msg: 'request',
      method: 'GET',
      url: '/vnflcm/v2/vnf_instances?filter=(eq,a,b)',
      status: 200,
      ms: 1.5,
      note: 'two words',
      body: { a: [1] },
    });
    assert.equal(
      formatLogLine(line),
      '10:04:05.123 INFO  request GET /vnflcm/v2/vnf_instances?filter=(eq,a,b) 200 requestId=r-1 ms=1.5 ' +
        'note="two words" body={"a":[1]}',
    );
  });

  test("an error's message on its line and its stack below; the level coloured for a terminal", () => {
    const line = JSON.stringify({
      level: 50,
      time: '2026-11-25T10:04:05.123Z',
      msg: 'shutdown failed',
      err: {
        type: 'Error',
        message: 'database gone',
        stack: 'Error: database gone\n    at close (db.ts:1:1)',
      },
    });
    assert.equal(
      formatLogLine(line),
      '10:04:05.123 ERROR shutdown failed err="database gone"\n    at close (db.ts:1:1)',
    );
    assert.ok(formatLogLine(line, true).startsWith('10:04:05.123 \x1b[31mERROR\x1b[0m shutdown failed'));
    assert.equal(formatLogLine('not json'), 'not json');
  });

  test('control characters from a request cannot break the line or reach the terminal raw', () => {
    const line = JSON.stringify({
      level: 30,
      time: '2026-11-25T10:04:05.123Z',
      msg: 'request\nFAKE INFO line',
      url: '/x\u001b[2J',
      note: 'a\u001b]0;title\u0007',
    });
    assert.equal(
      formatLogLine(line),
      '10:04:05.123 INFO  request\\nFAKE INFO line /x\\u001b[2J note="a\\u001b]0;title\\u0007"',
    );
  });
});

describe('bosun serve --pretty', () => {
  test('prints readable lines: listening, each request, shutting down', async () => {
    const dir = tempDir('bosun-pretty-');
    const child = spawn(BOSUN, ['serve', '--pretty', '--port', '0'], {
      env: {
        PATH: process.env.PATH,
        BOSUN_DATABASE_URL: `sqlite:${join(dir, 'b.db')}`,
        BOSUN_BLOBS_DIR: join(dir, 'blobs'),
        BOSUN_SECURITY_KEY_FILE: join(dir, 'key'),
      },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const m = / INFO {2}bosun listening (http:\/\/[^ ]+) role=all database=sqlite auth=none\n/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`bosun serve exited (${code}): ${out}`)));
    });
    const r = await fetch(`${url}/vnflcm/api_versions`, { headers: { Version: '2.0.0' } });
    assert.equal(r.status, 200);
    const requestId = r.headers.get('x-request-id');
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
    const time = '\\d\\d:\\d\\d:\\d\\d\\.\\d{3}';
    assert.match(
      out,
      new RegExp(`^${time} INFO {2}request GET /vnflcm/api_versions 200 requestId=${requestId} `, 'm'),
    );
    assert.match(out, new RegExp(`^${time} INFO {2}shutting down signal=SIGTERM$`, 'm'));
    assert.doesNotMatch(out, /^\{/m, 'no JSON line');
    assert.ok(!out.includes('\x1b['), 'no colour when stdout is not a terminal');
  });
});
