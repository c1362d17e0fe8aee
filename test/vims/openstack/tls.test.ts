/**
 * TLS with the VIM's own CA bundle (interfaceInfo.ssl_ca_cert, as Tacker's vim.yaml carries it):
 * Keystone behind an HTTPS front whose certificate a test CA issued. With the bundle the token
 * comes through; without it the call fails saying the certificate is not trusted.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { InfraError } from '../../../src/vims/contract.ts';
import { OpenStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import { openStackCredentials } from '../../../src/vims/drivers/openstack/client/credentials.ts';
import { describeOpenStackVim } from '../../../src/vims/drivers/openstack/describe.ts';
import { createTlsPki, type TlsPki } from '../../notify/delivery/tls-pki.ts';
import { type MiniOpenStack, miniOpenStack } from '../../support/mini-openstack.ts';

let cloud: MiniOpenStack;
let pki: TlsPki;
let front: Server;
let frontUrl: string;

before(async () => {
  cloud = await miniOpenStack();
  pki = createTlsPki();
  const keystone = new URL(cloud.env.OS_AUTH_URL);
  // An HTTPS front passing every request on to the real Keystone.
  front = createServer({ cert: pki.server.cert, key: pki.server.key }, (req, res) => {
    const upstream = httpRequest(
      {
        host: keystone.hostname,
        port: keystone.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `https://localhost:${(front.address() as AddressInfo).port}${keystone.pathname}`;
});
after(() => {
  front.close();
  pki.cleanup();
});

const over = (ca?: string) => ({
  ...cloud.demo,
  interfaceInfo: { endpoint: frontUrl, ...(ca ? { ssl_ca_cert: ca } : {}) },
});

test('with the VIM’s CA bundle, Keystone answers over TLS', async () => {
  const client = new OpenStackClient(openStackCredentials(over(pki.ca)), cloud.policy);
  try {
    const token = await client.session.token();
    assert.equal(token.projectName, 'demo');
  } finally {
    client.close();
  }
});

test('without it, the certificate is not trusted and the message says where to put the CA', async () => {
  try {
    await describeOpenStackVim(over(), cloud.policy);
    assert.fail('expected a TLS failure');
  } catch (err) {
    assert.ok(err instanceof InfraError, String(err));
    assert.equal(err.code, 'VIM_UNAVAILABLE');
    assert.match(
      err.message,
      /^Keystone token request: TLS connection for POST https:\/\/localhost:\d+\/v3\/auth\/tokens failed/,
    );
    assert.match(err.message, /interfaceInfo\.ssl_ca_cert/);
  }
});
