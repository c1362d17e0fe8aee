/**
 * OpenStack error answers become InfraErrors naming the service, the call and OpenStack's own
 * message, whatever each service's wrapping; "No valid host was found" is NO_VALID_HOST.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStackMessage, statusError } from '../../../src/vims/drivers/openstack/client/errors.ts';
import type { Stack, StackEvent } from '../../../src/vims/drivers/openstack/client/heat.ts';
import { failureCause } from '../../../src/vims/drivers/openstack/stack-failure.ts';

const CASES: { name: string; body: string; message: string }[] = [
  {
    name: 'Keystone',
    body: '{"error":{"code":401,"message":"The request you have made requires authentication.","title":"Unauthorized"}}',
    message: 'The request you have made requires authentication.',
  },
  {
    name: 'Nova',
    body: '{"itemNotFound": {"code": 404, "message": "Flavor m1.nope could not be found."}}',
    message: 'Flavor m1.nope could not be found.',
  },
  {
    name: 'Heat (the real message, not the generic explanation)',
    body: '{"explanation":"The server could not comply with the request.","code":400,"error":{"message":"The Resource Type (OS::No::Such) could not be found.","traceback":null,"type":"StackValidationFailed"},"title":"Bad Request"}',
    message: 'The Resource Type (OS::No::Such) could not be found.',
  },
  {
    name: 'Neutron',
    body: '{"NeutronError": {"type": "NetworkNotFound", "message": "Network abc could not be found.", "detail": ""}}',
    message: 'Network abc could not be found.',
  },
  {
    name: 'Glance (HTML)',
    body: '<html>\n <head>\n  <title>404 Not Found</title>\n </head>\n <body>\n  <h1>404 Not Found</h1>\n  No image found with ID x<br /><br />\n </body>\n</html>',
    message: '404 Not Found 404 Not Found No image found with ID x',
  },
];

for (const c of CASES) {
  test(`OpenStack's message is found in a ${c.name} error`, () => {
    assert.equal(openStackMessage(Buffer.from(c.body)), c.message);
  });
}

test('the error names the service and the call; its code follows the status', () => {
  const err = statusError('compute', 'flavor show m1.nope', 404, Buffer.from(CASES[1].body));
  assert.equal(err.code, 'NOT_FOUND');
  assert.equal(err.message, 'Nova flavor show m1.nope failed (HTTP 404): Flavor m1.nope could not be found.');
  assert.deepEqual(err.detail, { service: 'compute', call: 'flavor show m1.nope', status: 404 });
  assert.equal(
    statusError('orchestration', 'stack update x', 409, Buffer.from('')).code,
    'VIM_OPERATION_FAILED',
  );
  assert.equal(statusError('image', 'image list', 503, Buffer.from('')).code, 'VIM_UNAVAILABLE');
});

test('"No valid host was found" is NO_VALID_HOST whatever the status', () => {
  const body =
    '{"badRequest": {"code": 500, "message": "No valid host was found. There are not enough hosts available."}}';
  assert.equal(statusError('compute', 'server create x', 500, Buffer.from(body)).code, 'NO_VALID_HOST');
});

test('a huge error body is clipped', () => {
  const message = openStackMessage(Buffer.from(JSON.stringify({ error: { message: 'x'.repeat(10_000) } })));
  assert.ok(message.length <= 601);
});

test('a failed stack update is blamed on the failure that caused it: not an earlier action, not a resource Heat cancelled', () => {
  const stack: Stack = {
    id: 's1',
    name: 'vnf-1',
    stack_name: 'vnf-1',
    stack_status: 'UPDATE_FAILED',
    creation_time: '2026-11-25T20:30:00Z',
    updated_time: '2026-11-25T20:30:40Z',
  };
  const event = (name: string, at: string, reason: string): StackEvent => ({
    id: `${name}-${at}`,
    resource_name: name,
    resource_status: 'UPDATE_FAILED',
    resource_status_reason: reason,
    event_time: at,
  });
  const noHost =
    'resources.VDU1-b: Resource CREATE failed: ResourceInError: resources.VDU1: Went to status ERROR due to "Message: No valid host was found. , Code: 500"';
  const events = [
    event('VDU1-a', '2026-11-25T20:30:31Z', 'an earlier action failed here'),
    event('VDU1-b', '2026-11-25T20:30:41Z', noHost),
    event('VDU1-a', '2026-11-25T20:30:42Z', 'resources.VDU1-a: Stack UPDATE cancelled'),
    event('vnf-1', '2026-11-25T20:30:42Z', 'Resource UPDATE failed: the stack itself'),
  ];
  assert.equal(failureCause(stack, events)?.resource_status_reason, noHost);
  // With only cancellations in this action, one of them is still better than an older action's.
  assert.equal(failureCause(stack, [events[0], events[2]])?.resource_name, 'VDU1-a');
  assert.equal(failureCause(stack, [events[0], events[2]])?.event_time, '2026-11-25T20:30:42Z');
  // Nothing from this action: the newest failure Heat has.
  assert.equal(failureCause(stack, [events[0]])?.event_time, '2026-11-25T20:30:31Z');
});
