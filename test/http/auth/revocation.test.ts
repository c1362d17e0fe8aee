/**
 * Removing an OAuth 2.0 client ends its tokens at once, on every server process of the database:
 * two `bosun serve` processes, clients added and removed with `bosun auth client` as an operator
 * does. A client re-added under the same id does not revive the tokens of the removed one.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { newServerEnv, type Served, type ServerEnv, serveProcess, stop } from '../../support/processes.ts';

const BOSUN = new URL('../../../bin/bosun', import.meta.url).pathname;
const LIST = '/vnflcm/v2/vnf_instances';
const H = { Version: '2.0.0' };

function bosun(env: ServerEnv, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      BOSUN,
      args,
      {
        env: {
          PATH: process.env.PATH ?? '',
          BOSUN_DATABASE_URL: env.databaseUrl,
          BOSUN_SECURITY_ENCRYPTION_KEY: env.key,
        },
      },
      (err, stdout, stderr) =>
        err ? reject(new Error(`bosun ${args.join(' ')}: ${stderr}`)) : resolve(stdout),
    );
  });
}

for (const dialect of DIALECTS) {
  describe(`OAuth 2.0 client removal across server processes (${dialect})`, () => {
    let env: ServerEnv;
    let servers: Served[] = [];
    before(async () => {
      env = await newServerEnv(dialect, 'bosun-revoke-');
      const first = await serveProcess(env, 'api', { BOSUN_AUTH_MODE: 'oauth2' });
      const second = await serveProcess(env, 'api', { BOSUN_AUTH_MODE: 'oauth2' });
      servers = [first, second];
    });
    after(() => Promise.all(servers.map((s) => stop(s.child))));

    const addClient = async () => {
      const out = await bosun(env, [
        'auth',
        'client',
        'add',
        '--id',
        'ops-1',
        '--project',
        'p1',
        '--scope',
        'vnflcm:v2:all',
        '--json',
      ]);
      return JSON.parse(out) as { clientId: string; clientSecret: string };
    };
    const tokenFrom = async (server: Served, client: { clientId: string; clientSecret: string }) => {
      const r = await http<{ access_token: string }>(server.url, 'POST', '/oauth2/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${client.clientId}&client_secret=${client.clientSecret}`,
      });
      assert.equal(r.status, 200, r.text);
      return r.body.access_token;
    };
    const listWith = (server: Served, token: string) =>
      http<{ detail: string }>(server.url, 'GET', LIST, {
        headers: { ...H, authorization: `Bearer ${token}` },
      });

    test('a removed client’s token is refused at once by every process; re-adding the id does not revive it', async () => {
      const token = await tokenFrom(servers[0], await addClient());
      for (const server of servers) assert.equal((await listWith(server, token)).status, 200);

      await bosun(env, ['auth', 'client', 'remove', 'ops-1']);
      for (const server of servers) {
        const refused = await listWith(server, token);
        assert.ok(isProblem(refused, 401), refused.text);
        assert.equal(
          refused.body.detail,
          'The access token is not accepted: its client ops-1 has been removed.',
        );
      }

      const again = await addClient();
      for (const server of servers) assert.ok(isProblem(await listWith(server, token), 401));
      const fresh = await tokenFrom(servers[1], again);
      for (const server of servers) assert.equal((await listWith(server, fresh)).status, 200);
    });
  });
}
