/** vimConnectionInfo shapes: v1 array ⇄ v2 map, the sealed stored form, and the credential-free views. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { SealedBox } from '../../src/security/sealed-box.ts';
import {
  isSecretKey,
  openAccessInfo,
  sealVimConnectionInfo,
  toVimMap,
  v1ToV2,
  v2ToV1,
  vimConnectionInfoView,
  vimConnectionInfoViewV1,
} from '../../src/vims/connection-info.ts';

const V1 = [
  {
    id: 'vim1',
    vimId: 'a6b4b7a6-0000-4000-8000-000000000001',
    vimType: 'ETSINFV.OPENSTACK_KEYSTONE.V_3',
    interfaceInfo: { endpoint: 'https://keystone:5000/v3', ssl_ca_cert: 'PEM' },
    accessInfo: { username: 'nfv', password: 'secret' },
    extra: { dummy: 1 },
  },
  { id: 'vim2', vimType: 'BOSUN.SIM.V1' },
];

describe('vimConnectionInfo', () => {
  test('v1 array and v2 map convert both ways without loss', () => {
    const map = v1ToV2(V1);
    assert.deepEqual(Object.keys(map), ['vim1', 'vim2']);
    assert.equal(map.vim1.vimType, 'ETSINFV.OPENSTACK_KEYSTONE.V_3');
    assert.ok(!('id' in map.vim1));
    assert.deepEqual(v2ToV1(map), V1);
    assert.deepEqual(toVimMap(V1), map);
    assert.deepEqual(toVimMap(map), map);
    assert.deepEqual(toVimMap(undefined), {});
  });

  test('views carry no credentials, in either shape', () => {
    const view = vimConnectionInfoView(V1);
    assert.deepEqual(view.vim1, {
      vimId: V1[0].vimId,
      vimType: V1[0].vimType,
      interfaceInfo: { endpoint: 'https://keystone:5000/v3' },
      extra: { dummy: 1 },
    });
    assert.deepEqual(vimConnectionInfoViewV1(v1ToV2(V1))[0], { id: 'vim1', ...view.vim1 });
    assert.ok(!JSON.stringify(view).includes('secret'));
  });

  test('the stored form seals accessInfo; it opens back, and its view shows nothing of it', () => {
    const box = new SealedBox(randomBytes(32));
    const stored = sealVimConnectionInfo(box, V1);
    assert.ok(!JSON.stringify(stored).includes('secret'));
    assert.deepEqual(openAccessInfo(box, stored.vim1.sealedAccessInfo), V1[0].accessInfo);
    assert.equal(stored.vim2.sealedAccessInfo, undefined);
    assert.ok(!JSON.stringify(vimConnectionInfoView(stored)).includes('sealed'));
    // Sealing a stored map again keeps what is sealed.
    assert.deepEqual(
      sealVimConnectionInfo(box, stored as never).vim1.sealedAccessInfo,
      stored.vim1.sealedAccessInfo,
    );
  });

  test('secret keys', () => {
    for (const k of ['password', 'bearer_token', 'client_secret', 'ssl_ca_cert', 'privateKey', 'api_key']) {
      assert.ok(isSecretKey(k), k);
    }
    for (const k of ['endpoint', 'region', 'project', 'username', 'keystone_version'])
      assert.ok(!isSecretKey(k), k);
  });
});
