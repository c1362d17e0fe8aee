/**
 * The OpenStack client against the real mini-openstack: Keystone tokens and the catalog, token
 * renewal (on a 401 and before expiry), Keystone's refusal as a clear error, zones with their
 * hosts, a Heat stack's life (with a nested template), Nova's "No valid host was found" as
 * NO_VALID_HOST, a Glance upload streamed and found again by checksum, and server actions.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from '../../../src/vims/contract.ts';
import { OpenStackClient, openStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import { openStackCredentials } from '../../../src/vims/drivers/openstack/client/credentials.ts';
import type { StackRef } from '../../../src/vims/drivers/openstack/client/heat.ts';
import { DEFAULT_LIMITS } from '../../../src/vims/drivers/openstack/client/session.ts';
import { describeOpenStackVim } from '../../../src/vims/drivers/openstack/describe.ts';
import { type MiniOpenStack, miniOpenStack, testPrefix } from '../../support/mini-openstack.ts';

async function rejectsInfra(work: Promise<unknown>, code: InfraError['code']): Promise<InfraError> {
  try {
    await work;
  } catch (err) {
    assert.ok(err instanceof InfraError, `an InfraError, got ${err}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected an InfraError ${code}`);
}

const server = (name: string, extra: Record<string, unknown> = {}) => ({
  type: 'OS::Nova::Server',
  properties: {
    name,
    image: 'fake-image',
    flavor: 'm1.tiny',
    networks: [{ allocate_network: 'none' }],
    ...extra,
  },
});

describe('OpenStack client on mini-openstack', () => {
  let cloud: MiniOpenStack;
  let client: OpenStackClient;
  const prefix = testPrefix('client');
  const stacks: StackRef[] = [];
  const images: string[] = [];

  before(async () => {
    cloud = await miniOpenStack();
    client = openStackClient(cloud.admin, cloud.policy);
  });
  after(async () => {
    for (const ref of stacks) await client.heat.deleteStack(ref);
    for (const ref of stacks) await client.heat.waitStack(ref);
    for (const id of images) await client.glance.deleteImage(id);
  });

  test('a project-scoped token with the catalog of every service; one client per VIM connection', async () => {
    const token = await client.session.token();
    assert.ok(token.value.length > 20);
    assert.ok(token.projectId);
    assert.equal(token.projectName, 'admin');
    assert.ok(token.expiresAt > Date.now());
    for (const service of ['identity', 'compute', 'orchestration', 'image', 'network'] as const) {
      assert.match(await client.session.endpoint(service), /^http:\/\/127\.0\.0\.1:\d+/, service);
    }
    // Heat's URL carries the project (Keystone fills the catalog's %(tenant_id)s).
    assert.ok((await client.session.endpoint('orchestration')).endsWith(token.projectId));
    assert.equal(openStackClient(cloud.admin, cloud.policy), client);
    assert.notEqual(openStackClient(cloud.demo, cloud.policy), client);
    // The same token serves the next calls.
    assert.equal((await client.session.token()).value, token.value);
  });

  test('a token the cloud revoked is replaced after its 401, and the call succeeds', async () => {
    const own = new OpenStackClient(openStackCredentials(cloud.demo), cloud.policy);
    try {
      const first = await own.session.token();
      await client.session.call('identity', 'token revoke', {
        method: 'DELETE',
        path: '/auth/tokens',
        headers: { 'x-subject-token': first.value },
      });
      const flavors = await own.nova.flavors();
      assert.ok(flavors.some((f) => f.name === 'm1.tiny'));
      assert.notEqual((await own.session.token()).value, first.value);
    } finally {
      own.close();
    }
  });

  test('a token about to expire is renewed before it is used', async () => {
    // Keystone's tokens live an hour: renewing when less than two hours are left renews each time.
    const own = new OpenStackClient(openStackCredentials(cloud.demo), cloud.policy, {
      ...DEFAULT_LIMITS,
      renewBeforeMs: 2 * 3_600_000,
    });
    try {
      const first = await own.session.token();
      const second = await own.session.token();
      assert.notEqual(second.value, first.value);
    } finally {
      own.close();
    }
  });

  test('an application credential authenticates on its own project, without a password', async () => {
    const demo = openStackClient(cloud.demo, cloud.policy);
    const token = await demo.session.token();
    const created = await demo.session.call<{ application_credential: { id: string; secret: string } }>(
      'identity',
      'application credential create',
      {
        method: 'POST',
        path: `/users/${token.userId}/application_credentials`,
        json: { application_credential: { name: `${prefix}-appcred` } },
      },
    );
    const { id, secret } = created.data.application_credential;
    try {
      const vim = {
        ...cloud.demo,
        accessInfo: { applicationCredentialId: id, applicationCredentialSecret: secret, region: 'RegionOne' },
      };
      const own = new OpenStackClient(openStackCredentials(vim), cloud.policy);
      try {
        const scoped = await own.session.token();
        assert.equal(scoped.projectId, token.projectId);
        assert.ok((await own.nova.flavors()).length > 0);
      } finally {
        own.close();
      }
    } finally {
      await demo.session.call('identity', 'application credential delete', {
        method: 'DELETE',
        path: `/users/${token.userId}/application_credentials/${id}`,
      });
    }
  });

  test('Neutron: a network, its subnet and a port on it, listed and deleted', async () => {
    const net = await client.neutron.createNetwork({ name: `${prefix}-net` });
    try {
      const subnet = await client.neutron.createSubnet({
        name: `${prefix}-subnet`,
        networkId: net.id,
        cidr: '10.99.0.0/24',
      });
      const port = await client.neutron.createPort({ name: `${prefix}-port`, networkId: net.id });
      assert.equal(port.fixed_ips[0]?.subnet_id, subnet.id);
      assert.match(port.fixed_ips[0]?.ip_address ?? '', /^10\.99\.0\./);
      assert.deepEqual(
        (await client.neutron.ports({ network_id: net.id })).map((p) => p.id),
        [port.id],
      );
      assert.deepEqual(
        (await client.neutron.subnets({ network_id: net.id })).map((x) => x.cidr),
        ['10.99.0.0/24'],
      );
      assert.equal((await client.neutron.network(net.id))?.name, `${prefix}-net`);
      await client.neutron.deletePort(port.id);
      assert.equal(await client.neutron.port(port.id), undefined);
      await client.neutron.deleteSubnet(subnet.id);
    } finally {
      await client.neutron.deleteNetwork(net.id);
    }
    assert.equal(await client.neutron.network(net.id), undefined);
  });

  test('wrong credentials: Keystone says so, the message names the call and never the password', async () => {
    const wrong = {
      ...cloud.demo,
      accessInfo: { ...cloud.demo.accessInfo, password: 'not-the-password-42' },
    };
    const err = await rejectsInfra(describeOpenStackVim(wrong, cloud.policy), 'INVALID_REQUEST');
    assert.match(err.message, /^Keystone token request failed \(HTTP 401\): /);
    assert.match(err.message, /check the VIM credentials/);
    assert.match(err.message, /user demo in domain Default, project demo/);
    assert.ok(!err.message.includes('not-the-password-42'));
    const unknownProject = {
      ...cloud.demo,
      accessInfo: { ...cloud.demo.accessInfo, project: `${prefix}-nope` },
    };
    await rejectsInfra(describeOpenStackVim(unknownProject, cloud.policy), 'INVALID_REQUEST');
  });

  test('an endpoint the outbound policy does not allow is refused before any call', async () => {
    const { OutboundPolicy } = await import('../../../src/net/address-policy.ts');
    const strict = new OpenStackClient(openStackCredentials(cloud.admin), new OutboundPolicy([]));
    const err = await rejectsInfra(strict.session.token(), 'INVALID_REQUEST');
    assert.match(err.message, /outbound\.allow/);
    strict.close();
  });

  test('zones with their hosts, state and capacity; demo may not see hosts', async () => {
    const described = await describeOpenStackVim(cloud.admin, cloud.policy);
    const zone = (name: string) => described.zones.find((z) => z.name === name);
    assert.deepEqual(
      zone('az1')?.hosts.map((h) => h.name),
      ['compute1', 'compute2'],
    );
    assert.deepEqual(
      zone('az2')?.hosts.map((h) => h.name),
      ['compute3'],
    );
    assert.ok(!zone('internal'), 'the control services zone is not a placement zone');
    for (const h of zone('az1')?.hosts ?? []) {
      assert.equal(h.up, true);
      assert.equal(h.vcpus, 10);
      assert.equal(h.ramMb, 8192);
      assert.ok(h.vcpusUsed >= 0 && h.ramMbUsed >= 0);
    }
    const err = await rejectsInfra(
      openStackClient(cloud.demo, cloud.policy).nova.zonesDetail(),
      'INVALID_REQUEST',
    );
    assert.match(err.message, /^Nova availability zone detail failed \(HTTP 403\)/);
  });

  test('a stack with a nested template: create, show, resources, events, outputs, delete', async () => {
    const name = `${prefix}-ok`;
    const template = {
      heat_template_version: '2018-08-31',
      resources: {
        inner: { type: 'inner.yaml', properties: { zone: 'az1' } },
      },
      outputs: { host: { value: { get_attr: ['inner', 'host'] } } },
    };
    const inner = {
      heat_template_version: '2018-08-31',
      parameters: { zone: { type: 'string' } },
      resources: { vdu: server(`${name}-vdu`, { availability_zone: { get_param: 'zone' } }) },
      outputs: { host: { value: { get_attr: ['vdu', 'show', 'OS-EXT-SRV-ATTR:host'] } } },
    };
    const files = { 'inner.yaml': JSON.stringify(inner) };
    await client.heat.validate({ template, files });
    const ref = await client.heat.createStack({ name, template, files, tags: ['bosun', `${prefix}-tag`] });
    stacks.push(ref);
    const done = await client.heat.waitStack(ref);
    assert.equal(done?.stack_status, 'CREATE_COMPLETE', done?.stack_status_reason);
    assert.deepEqual(done?.tags?.sort(), ['bosun', `${prefix}-tag`].sort());
    assert.equal((await client.heat.findStack(name))?.id, ref.id);
    assert.deepEqual(
      (await client.heat.listStacks({ tags: [`${prefix}-tag`] })).map((s) => s.id),
      [ref.id],
    );

    const top = await client.heat.resources(ref);
    assert.deepEqual(
      top.map((r) => r.resource_name),
      ['inner'],
    );
    const all = await client.heat.resources(ref, { nestedDepth: 2 });
    const vdu = all.find((r) => r.resource_name === 'vdu');
    assert.equal(vdu?.resource_type, 'OS::Nova::Server');
    const srv = await client.nova.server(vdu?.physical_resource_id ?? '');
    assert.equal(srv?.status, 'ACTIVE');
    assert.equal(srv?.['OS-EXT-AZ:availability_zone'], 'az1');
    assert.match(srv?.['OS-EXT-SRV-ATTR:host'] ?? '', /^compute[12]$/);

    const outputs = await client.heat.outputs(ref);
    assert.equal(outputs.host, srv?.['OS-EXT-SRV-ATTR:host']);
    const complete = await client.heat.events(ref, { resourceStatus: 'COMPLETE', nestedDepth: 2 });
    assert.ok(complete.some((e) => e.resource_name === 'vdu' && e.resource_status === 'CREATE_COMPLETE'));
    assert.ok(complete.every((e) => e.resource_status.endsWith('COMPLETE')));
    assert.deepEqual(await client.heat.events(ref, { resourceStatus: 'FAILED' }), []);

    // PATCH keeps the template and changes a parameter of the nested stack through the top one.
    await client.heat.updateStack(ref, { template, files }, { patch: false });
    assert.equal((await client.heat.waitStack(ref))?.stack_status, 'UPDATE_COMPLETE');
    await client.heat.updateStack(ref, {}, { patch: true });
    assert.equal((await client.heat.waitStack(ref))?.stack_status, 'UPDATE_COMPLETE');

    await client.heat.deleteStack(ref);
    const gone = await client.heat.waitStack(ref);
    assert.ok(gone === undefined || gone.stack_status === 'DELETE_COMPLETE', gone?.stack_status);
    assert.equal(await client.heat.findStack(name), undefined);
    assert.equal(await client.nova.server(srv?.id ?? ''), undefined);
  });

  test('a template Heat refuses: INVALID_REQUEST with Heat’s own message', async () => {
    const err = await rejectsInfra(
      client.heat.validate({
        template: { heat_template_version: '2018-08-31', resources: { x: { type: 'OS::No::Such' } } },
      }),
      'INVALID_REQUEST',
    );
    assert.match(err.message, /^Heat template validate failed \(HTTP 400\): .*OS::No::Such/);
  });

  test('no host big enough: the stack fails with Nova’s words, found in its FAILED events', async () => {
    const ref = await client.heat.createStack({
      name: `${prefix}-huge`,
      template: {
        heat_template_version: '2018-08-31',
        resources: { big: server(`${prefix}-huge-vm`, { flavor: 'm1.huge', availability_zone: 'az2' }) },
      },
    });
    stacks.push(ref);
    const done = await client.heat.waitStack(ref);
    assert.equal(done?.stack_status, 'CREATE_FAILED');
    const failed = await client.heat.events(ref, { resourceStatus: 'FAILED' });
    assert.ok(failed.length > 0);
    assert.ok(failed.every((e) => e.resource_status.endsWith('FAILED')));
    assert.match(failed[0].resource_status_reason ?? '', /No valid host was found/);
  });

  test('Glance: an image streamed in once, found again by its checksum, then deleted', async () => {
    const bytes = randomBytes(256 * 1024);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    assert.equal(await client.glance.findByChecksum('SHA-256', sha256), undefined);
    const image = await client.glance.createImage({
      name: `${prefix}-image`,
      diskFormat: 'raw',
      containerFormat: 'bare',
      properties: { bosun_checksum: `sha256:${sha256}` },
    });
    images.push(image.id);
    assert.equal(image.status, 'queued');
    // In chunks, as a package blob arrives.
    const chunks = Array.from({ length: 8 }, (_, i) => bytes.subarray(i * 32 * 1024, (i + 1) * 32 * 1024));
    await client.glance.upload(image.id, Readable.from(chunks));
    const stored = await client.glance.image(image.id);
    assert.equal(stored?.status, 'active');
    assert.equal(stored?.size, bytes.length);
    assert.equal(stored?.os_hash_value, createHash('sha512').update(bytes).digest('hex'));
    assert.equal((await client.glance.findByChecksum('SHA-256', sha256))?.id, image.id);
    const sha512 = createHash('sha512').update(bytes).digest('hex');
    assert.equal((await client.glance.findByChecksum('sha-512', sha512))?.id, image.id);
    await client.glance.deleteImage(image.id);
    assert.equal(await client.glance.image(image.id), undefined);
    assert.equal(await client.glance.findByChecksum('SHA-256', sha256), undefined);
  });

  test('server actions: stop, start, reboot, rebuild', async () => {
    const ref = await client.heat.createStack({
      name: `${prefix}-actions`,
      template: { heat_template_version: '2018-08-31', resources: { vm: server(`${prefix}-actions-vm`) } },
    });
    stacks.push(ref);
    assert.equal((await client.heat.waitStack(ref))?.stack_status, 'CREATE_COMPLETE');
    const [vm] = await client.heat.resources(ref);
    const id = vm.physical_resource_id;
    const until = async (status: string) => {
      for (let i = 0; i < 120; i++) {
        const s = await client.nova.server(id);
        if (s?.status === status) return;
        await sleep(250);
      }
      assert.fail(`server ${id} never became ${status}`);
    };
    await client.nova.action(id, { kind: 'stop' });
    await until('SHUTOFF');
    await client.nova.action(id, { kind: 'start' });
    await until('ACTIVE');
    await client.nova.action(id, { kind: 'reboot', type: 'HARD' });
    await until('ACTIVE');
    const [fake] = await client.glance.images({ name: 'fake-image' });
    await client.nova.action(id, { kind: 'rebuild', imageRef: fake.id });
    await until('ACTIVE');
    // An action Nova refuses in this state names the server and the action.
    const err = await rejectsInfra(client.nova.action(id, { kind: 'start' }), 'VIM_OPERATION_FAILED');
    assert.match(err.message, new RegExp(`^Nova server start ${id} failed \\(HTTP 409\\)`));
  });
});
