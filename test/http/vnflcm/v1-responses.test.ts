/**
 * The check every /vnflcm/v1 answer of the tests goes through (v1-responses.ts): it holds Bosun to
 * ETSI's v2.6.1 schemas where they differ from v3.3.1 (extCpInfo 1..N, an affected VL's
 * virtualLinkDescId), refuses attributes v2.6.1 does not have, checks ProblemDetails, and refuses
 * a JSON body it has no schema for rather than let it pass unchecked.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkV1Response } from './v1-responses.ts';

const json = new Headers({ 'content-type': 'application/json' });
const answer = (status: number, body: unknown, headers = json) => ({ status, body, headers });
const refused = (fn: () => void, pattern: RegExp) => assert.throws(fn, pattern);

const instance = {
  id: 'i1',
  vnfdId: 'd1',
  vnfProvider: 'Company',
  vnfProductName: 'Sample VNF',
  vnfSoftwareVersion: '1.0',
  vnfdVersion: '1.0',
  vnfPkgId: 'p1',
  instantiationState: 'INSTANTIATED',
  instantiatedVnfInfo: { flavourId: 'simple', vnfState: 'STARTED' },
  _links: { self: { href: 'http://h/vnflcm/v1/vnf_instances/i1' } },
};

const opOcc = (affectedVirtualLink: Record<string, unknown>) => ({
  id: 'o1',
  operationState: 'COMPLETED',
  stateEnteredTime: '2026-01-01T00:00:00Z',
  startTime: '2026-01-01T00:00:00Z',
  vnfInstanceId: 'i1',
  operation: 'INSTANTIATE',
  isAutomaticInvocation: false,
  operationParams: { flavourId: 'simple' },
  isCancelPending: false,
  resourceChanges: {
    affectedVnfcs: [],
    affectedVirtualLinks: [
      {
        id: 'vl1',
        ...affectedVirtualLink,
        changeType: 'ADDED',
        networkResource: { vimConnectionId: 'default', resourceId: 'n1' },
      },
    ],
    affectedVirtualStorages: [],
  },
  _links: {
    self: { href: 'http://h/vnflcm/v1/vnf_lcm_op_occs/o1' },
    vnfInstance: { href: 'http://h/vnflcm/v1/vnf_instances/i1' },
  },
});

describe('/vnflcm/v1 answers against the v2.6.1 schemas', () => {
  test('an instance without external CPs passes without extCpInfo, and fails with extCpInfo: []', () => {
    checkV1Response('GET', '/vnflcm/v1/vnf_instances/i1', answer(200, instance));
    checkV1Response('GET', '/vnflcm/v1/vnf_instances?fields=x', answer(200, [instance]));
    const empty = {
      ...instance,
      instantiatedVnfInfo: { ...instance.instantiatedVnfInfo, extCpInfo: [] },
    };
    refused(() => checkV1Response('GET', '/vnflcm/v1/vnf_instances/i1', answer(200, empty)), /extCpInfo/);
    refused(
      () => checkV1Response('GET', '/vnflcm/v1/vnf_instances', answer(200, [instance, empty])),
      /vnf_instances → 200\[1\]/,
    );
  });

  test('an op occ names an affected VL descriptor virtualLinkDescId, not v3.3.1 vnfVirtualLinkDescId', () => {
    checkV1Response(
      'GET',
      '/vnflcm/v1/vnf_lcm_op_occs/o1',
      answer(200, opOcc({ virtualLinkDescId: 'internalVL1' })),
    );
    refused(
      () =>
        checkV1Response(
          'GET',
          '/vnflcm/v1/vnf_lcm_op_occs',
          answer(200, [opOcc({ vnfVirtualLinkDescId: 'internalVL1' })]),
        ),
      /virtualLinkDescId/,
    );
  });

  test('the op occ list may leave operationParams out (excluded by default), one op occ may not', () => {
    const { operationParams: _, ...listed } = opOcc({ virtualLinkDescId: 'internalVL1' });
    checkV1Response('GET', '/vnflcm/v1/vnf_lcm_op_occs', answer(200, [listed]));
    refused(
      () => checkV1Response('GET', '/vnflcm/v1/vnf_lcm_op_occs/o1', answer(200, listed)),
      /required property 'operationParams'/,
    );
  });

  test('a v3.3.1-only attribute fails', () => {
    const v3 = { ...instance, instantiatedVnfInfo: { ...instance.instantiatedVnfInfo, vnfcInfo: [] } };
    refused(() => checkV1Response('POST', '/vnflcm/v1/vnf_instances', answer(201, v3)), /additional/);
  });

  test('an error answer must be a ProblemDetails', () => {
    checkV1Response(
      'GET',
      '/vnflcm/v1/vnf_instances/x',
      answer(
        404,
        { status: 404, detail: 'No VNF instance x.' },
        new Headers({ 'content-type': 'application/problem+json' }),
      ),
    );
    refused(
      () => checkV1Response('GET', '/vnflcm/v1/vnf_instances/x', answer(404, { title: 'Not Found' })),
      /required property 'status'/,
    );
  });

  test('a JSON body on a route with no schema here fails; an answer without a JSON body is not checked', () => {
    refused(
      () => checkV1Response('POST', '/vnflcm/v1/vnf_instances/i1/scale', answer(202, { id: 'o1' })),
      /no v2\.6\.1 schema/,
    );
    checkV1Response('POST', '/vnflcm/v1/vnf_instances/i1/scale', answer(202, '', new Headers()));
  });
});
