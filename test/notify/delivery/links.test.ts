/**
 * absolutizeLinks works on the JSON text: every path-absolute href of a `_links` object (nested,
 * in arrays) gets the base, a network-path `//host` href and everything outside `_links` (a
 * client's metadata, text that merely looks like links inside a string) are left as they are,
 * and the result is the same document a parse-and-rewrite would give.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { absolutizeLinks, linkBase } from '../../../src/notify/delivery/links.ts';

const BASE = 'https://bosun.example:9890';

describe('absolute links in notifications', () => {
  test('hrefs of _links objects get the base, in nested objects and arrays', () => {
    const payload = JSON.stringify({
      id: 'n1',
      _links: {
        subscription: { href: '/vnflcm/v2/subscriptions/s1' },
        affected: [{ href: '/vnflcm/v2/vnf_instances/a' }, { href: '/vnflcm/v2/vnf_instances/b' }],
        elsewhere: { href: '//other.example/x' },
        absolute: { href: 'https://other.example/y' },
      },
      alarm: { id: 'a1', _links: { self: { href: '/vnffm/v1/alarms/a1' } } },
    });
    assert.deepEqual(JSON.parse(absolutizeLinks(payload, BASE)), {
      id: 'n1',
      _links: {
        subscription: { href: `${BASE}/vnflcm/v2/subscriptions/s1` },
        affected: [
          { href: `${BASE}/vnflcm/v2/vnf_instances/a` },
          { href: `${BASE}/vnflcm/v2/vnf_instances/b` },
        ],
        elsewhere: { href: '//other.example/x' },
        absolute: { href: 'https://other.example/y' },
      },
      alarm: { id: 'a1', _links: { self: { href: `${BASE}/vnffm/v1/alarms/a1` } } },
    });
  });

  test('what is not a _links object is left as it is', () => {
    const document = {
      metadata: { href: '/not/a/link', note: '"_links":{"self":{"href":"/inside/a/string"}}' },
      text: 'ends with a backslash \\',
      _links: { self: { href: '/vnfpkgm/v1/vnf_packages/p' } },
      after: { href: '/after/the/links' },
    };
    const out = JSON.parse(absolutizeLinks(JSON.stringify(document), BASE));
    assert.deepEqual(out, {
      ...document,
      _links: { self: { href: `${BASE}/vnfpkgm/v1/vnf_packages/p` } },
    });
  });

  test('a payload without links is returned unchanged', () => {
    const payload = JSON.stringify({ id: 'n2', href: '/x' });
    assert.equal(absolutizeLinks(payload, BASE), payload);
  });

  test('the base has no trailing slash; the public URL wins over the listening URL', () => {
    assert.equal(linkBase('https://public.example/', 'http://127.0.0.1:1'), 'https://public.example');
    assert.equal(linkBase('', 'http://127.0.0.1:1/'), 'http://127.0.0.1:1');
  });
});
