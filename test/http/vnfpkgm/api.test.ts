/**
 * /vnfpkgm/v1 and /v2 over real HTTP on both databases: every status code of the Tacker
 * reference table (§1.4), the state machine rules, uploads (raw, multipart, size cap), Range
 * and the Tacker client's quirks.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import {
  createPkg,
  NOT_A_CSAR,
  onboard,
  type PkgInfo,
  putZip,
  SMALL_SAMPLE,
  sample,
  singleFilePackage,
  V1,
  V2,
  V2_HEADERS,
  waitSettled,
} from './support.ts';

// A package with an additional artifact (Scripts/…) and software images.
const ARTIFACT_SAMPLE = 'test_inst_terminate_vnf_with_vnflcmnoop.zip';

for (const dialect of DIALECTS) {
  describe(`vnfpkgm API on ${dialect}`, () => {
    let server: TestServer;
    let onboarded: PkgInfo;
    before(async () => {
      server = await startTestServer(dialect, {
        config: { worker: { pollIntervalMs: 50 }, packages: { maxUploadBytes: 1024 * 1024 } },
      });
      onboarded = await onboard(server.url, sample(ARTIFACT_SAMPLE));
      assert.equal(
        onboarded.onboardingState,
        'ONBOARDED',
        JSON.stringify(onboarded.onboardingFailureDetails),
      );
    });
    after(() => server.close());
    const call = (method: string, path: string, options: Parameters<typeof http>[3] = {}) =>
      http<PkgInfo & PkgInfo[] & Record<string, unknown>>(server.url, method, path, options);

    test('create: 201 with Location, ETag and a CREATED/DISABLED/NOT_IN_USE package', async () => {
      const res = await call('POST', V1, {
        body: { userDefinedData: { acceptance: 'tackerclient', 'a:b c.d/e': 'x' } },
      });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('location'), `${server.url}${V1}/${res.body.id}`);
      assert.ok(res.headers.get('etag'));
      assert.equal(res.body.onboardingState, 'CREATED');
      assert.equal(res.body.operationalState, 'DISABLED');
      assert.equal(res.body.usageState, 'NOT_IN_USE');
      assert.deepEqual(res.body.userDefinedData, { acceptance: 'tackerclient', 'a:b c.d/e': 'x' });
      assert.equal(res.body._links.self.href, `${server.url}${V1}/${res.body.id}`);
      assert.equal(res.body._links.packageContent.href, `${server.url}${V1}/${res.body.id}/package_content`);
      // An empty body is allowed too.
      assert.equal((await call('POST', V1, { body: {} })).status, 201);
    });

    test('create: 400 for invalid userDefinedData, 415 for another content type', async () => {
      assert.ok(isProblem(await call('POST', V1, { body: { userDefinedData: { 'bad*key': 'x' } } }), 400));
      assert.ok(
        isProblem(await call('POST', V1, { body: { userDefinedData: { k: 'x'.repeat(1025) } } }), 400),
      );
      assert.ok(isProblem(await call('POST', V1, { body: { userDefinedData: 'text' } }), 400));
      assert.ok(isProblem(await call('POST', V1, { body: { other: 1 } }), 400));
      assert.ok(
        isProblem(
          await call('POST', V1, { body: '<x/>', headers: { 'content-type': 'application/xml' } }),
          415,
        ),
      );
    });

    test('show: 200 with ETag; 404 for unknown and non-UUID ids; JSON Content-Type on a bodiless GET is fine', async () => {
      const res = await call('GET', `${V1}/${onboarded.id}`, {
        headers: { 'content-type': 'application/json', accept: 'application/json' },
      });
      assert.equal(res.status, 200);
      assert.ok(res.headers.get('etag'));
      assert.equal(res.headers.get('version'), '1.3.0');
      assert.equal(res.body.vnfdId, onboarded.vnfdId);
      assert.equal(res.body.checksum?.algorithm, 'sha-512');
      assert.match(res.body.checksum?.hash ?? '', /^[0-9a-f]{128}$/);
      assert.equal(res.body._links.vnfd.href, `${server.url}${V1}/${onboarded.id}/vnfd`);
      assert.ok(isProblem(await call('GET', `${V1}/00000000-0000-4000-8000-000000000000`), 404));
      assert.ok(isProblem(await call('GET', `${V1}/not-a-uuid`), 404));
    });

    test('list: a bare array, default-excluded complex attributes, filters on every kind of attribute', async () => {
      const res = await call('GET', V1);
      assert.equal(res.status, 200);
      assert.ok(Array.isArray(res.body));
      const mine = res.body.find((p) => p.id === onboarded.id);
      assert.ok(mine);
      assert.equal(mine.softwareImages, undefined);
      assert.equal(mine.userDefinedData, undefined);
      assert.equal(mine.checksum, undefined);
      const all = (await call('GET', `${V1}?all_fields`)).body.find((p) => p.id === onboarded.id);
      assert.ok(all?.checksum && all.softwareImages);
      const ids = async (filter: string) =>
        (await call('GET', `${V1}?filter=${encodeURIComponent(filter)}`)).body.map((p) => p.id);
      assert.deepEqual(await ids(`(eq,id,${onboarded.id})`), [onboarded.id]);
      assert.ok((await ids('(eq,onboardingState,ONBOARDED)')).includes(onboarded.id));
      assert.ok(!(await ids('(eq,onboardingState,CREATED)')).includes(onboarded.id));
      assert.deepEqual(await ids(`(eq,vnfdId,${onboarded.vnfdId})`), [onboarded.id]);
      assert.deepEqual(await ids("(eq,checksum/algorithm,'sha-512');(eq,onboardingState,ONBOARDED)"), [
        onboarded.id,
      ]);
      const art = onboarded.additionalArtifacts?.[0];
      if (art)
        assert.deepEqual(await ids(`(eq,additionalArtifacts/artifactPath,${art.artifactPath})`), [
          onboarded.id,
        ]);
      if (onboarded.softwareImages?.length) {
        assert.ok((await ids('(gte,softwareImages/minDisk,0)')).includes(onboarded.id));
      }
      const tagged = await createPkg(server.url, {}, { userDefinedData: { tier: 'gold' } });
      assert.deepEqual(await ids('(eq,userDefinedData/tier,gold)'), [tagged.id]);
      assert.ok(isProblem(await call('GET', `${V1}?filter=(eq,unknownAttr,1)`), 400));
      assert.ok(isProblem(await call('GET', `${V1}?fields=nope&exclude_fields=id`), 400));
    });

    test('PATCH: operationalState only when ONBOARDED, same value 409, userDefinedData merged, null deletes, nothing → 409', async () => {
      const created = await createPkg(server.url, {}, { userDefinedData: { a: '1', b: '2' } });
      assert.ok(
        isProblem(await call('PATCH', `${V1}/${created.id}`, { body: { operationalState: 'ENABLED' } }), 409),
      );
      const merged = await call('PATCH', `${V1}/${created.id}`, {
        body: { userDefinedData: { a: '1', b: null, c: '3' } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      assert.equal(merged.status, 200);
      assert.deepEqual(merged.body, { userDefinedData: { b: null, c: '3' } });
      assert.deepEqual((await call('GET', `${V1}/${created.id}`)).body.userDefinedData, { a: '1', c: '3' });
      assert.ok(
        isProblem(await call('PATCH', `${V1}/${created.id}`, { body: { userDefinedData: { a: '1' } } }), 409),
      );
      assert.ok(isProblem(await call('PATCH', `${V1}/${created.id}`, { body: {} }), 400));
      assert.ok(
        isProblem(await call('PATCH', `${V1}/${created.id}`, { body: { operationalState: 'BROKEN' } }), 400),
      );
      assert.ok(
        isProblem(
          await call('PATCH', `${V1}/00000000-0000-4000-8000-000000000000`, {
            body: { userDefinedData: { a: '2' } },
          }),
          404,
        ),
      );
      // Stale If-Match → 412, nothing changed.
      assert.ok(
        isProblem(
          await call('PATCH', `${V1}/${created.id}`, {
            body: { userDefinedData: { a: '9' } },
            headers: { 'if-match': '"stale"' },
          }),
          412,
        ),
      );
      const etag = (await call('GET', `${V1}/${created.id}`)).headers.get('etag') ?? '';
      const ok = await call('PATCH', `${V1}/${created.id}`, {
        body: { userDefinedData: { a: '9' } },
        headers: { 'if-match': etag },
      });
      assert.equal(ok.status, 200);
    });

    test('PATCH and DELETE on an onboarded package: ENABLED → 409 on delete, DISABLED → 204', async () => {
      const pkg = await onboard(server.url, sample(SMALL_SAMPLE));
      assert.equal(pkg.onboardingState, 'ONBOARDED');
      assert.ok(
        isProblem(await call('PATCH', `${V1}/${pkg.id}`, { body: { operationalState: 'ENABLED' } }), 409),
      );
      assert.ok(isProblem(await call('DELETE', `${V1}/${pkg.id}`), 409));
      const both = await call('PATCH', `${V1}/${pkg.id}`, {
        body: { userDefinedData: { stage: 'disabled' }, operationalState: 'DISABLED' },
      });
      assert.equal(both.status, 200);
      assert.deepEqual(both.body, { operationalState: 'DISABLED', userDefinedData: { stage: 'disabled' } });
      // IN_USE blocks deletion (the LCM sets it through setUsageState).
      const { setUsageState } = await import('../../../src/packages/service.ts');
      assert.equal(await setUsageState(server.context.db.kysely, pkg.id, true), true);
      assert.ok(isProblem(await call('DELETE', `${V1}/${pkg.id}`), 409));
      assert.equal(
        await setUsageState(
          server.context.db.kysely,
          { project: 'default', vnfdId: pkg.vnfdId ?? '' },
          false,
        ),
        true,
      );
      // The Tacker client sends DELETE with a JSON Content-Type and Content-Length: 0.
      const del = await call('DELETE', `${V1}/${pkg.id}`, {
        headers: { 'content-type': 'application/json', 'content-length': '0' },
      });
      assert.equal(del.status, 204);
      assert.ok(isProblem(await call('GET', `${V1}/${pkg.id}`), 404));
      assert.equal(await server.context.blobs.stat(`packages/${pkg.id}/package.zip`), undefined);
      // A CREATED package is DISABLED and NOT_IN_USE: deletable.
      const fresh = await createPkg(server.url);
      assert.equal((await call('DELETE', `${V1}/${fresh.id}`)).status, 204);
    });

    test('PUT package_content: 202 with Accept application/zip; 409 unless CREATED; 415 for another type; 404', async () => {
      const pkg = await createPkg(server.url);
      const put = await putZip(
        server.url,
        pkg.id,
        await singleFilePackage('5d1b5c4e-0000-4000-8000-00000000b001'),
        {
          'content-type': 'application/zip',
          accept: 'application/zip',
        },
      );
      assert.equal(put.status, 202);
      // Meanwhile UPLOADING/PROCESSING/ONBOARDED: a second upload is refused.
      assert.ok(isProblem(await putZip(server.url, pkg.id, sample(SMALL_SAMPLE)), 409));
      const settled = await waitSettled(server.url, pkg.id);
      assert.equal(settled.onboardingState, 'ONBOARDED');
      assert.ok(isProblem(await putZip(server.url, pkg.id, sample(SMALL_SAMPLE)), 409));
      // The same vnfdId again in the project: the onboarding fails, naming the first package.
      const again = await onboard(server.url, sample(ARTIFACT_SAMPLE));
      assert.equal(again.onboardingState, 'ERROR');
      assert.match(again.onboardingFailureDetails?.detail ?? '', new RegExp(onboarded.id));
      const other = await createPkg(server.url);
      assert.ok(
        isProblem(
          await call('PUT', `${V1}/${other.id}/package_content`, {
            body: 'x',
            headers: { 'content-type': 'text/plain' },
          }),
          415,
        ),
      );
      assert.ok(
        isProblem(
          await putZip(server.url, '00000000-0000-4000-8000-000000000000', sample(SMALL_SAMPLE)),
          404,
        ),
      );
    });

    test('multipart/form-data upload onboards the file part', async () => {
      const boundary = 'bosun-test-boundary-1234';
      const zip = sample(SMALL_SAMPLE);
      const body = Buffer.concat([
        Buffer.from(
          `preamble\r\n--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n`,
        ),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="pkg.zip"\r\nContent-Type: application/zip\r\n\r\n`,
        ),
        zip,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      // SMALL_SAMPLE's earlier package was deleted by the PATCH/DELETE test: its vnfdId is free.
      const pkg = await createPkg(server.url);
      const res = await call('PUT', `${V1}/${pkg.id}/package_content`, {
        body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      assert.equal(res.status, 202);
      const settled = await waitSettled(server.url, pkg.id);
      // The checksum is the sha-512 of the zip itself, not of the multipart body.
      const { createHash } = await import('node:crypto');
      const expected = createHash('sha512').update(zip).digest('hex');
      assert.equal(settled.onboardingState, 'ONBOARDED', JSON.stringify(settled.onboardingFailureDetails));
      assert.equal((await call('GET', `${V1}/${pkg.id}`)).body.checksum?.hash, expected);
      const bad = await createPkg(server.url);
      const noFile = await call('PUT', `${V1}/${bad.id}/package_content`, {
        body: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      assert.ok(isProblem(noFile, 400));
      assert.equal((await call('GET', `${V1}/${bad.id}`)).body.onboardingState, 'CREATED');
    });

    test('size cap: 413, nothing kept, back to CREATED (v2: ERROR) (declared length and chunked)', async () => {
      const big = Buffer.alloc(1024 * 1024 + 10, 1);
      const pkg = await createPkg(server.url);
      assert.ok(isProblem(await putZip(server.url, pkg.id, big), 413));
      assert.equal((await call('GET', `${V1}/${pkg.id}`)).body.onboardingState, 'CREATED');
      // Chunked: the limit is found while streaming.
      const chunked = await fetch(`${server.url}${V1}/${pkg.id}/package_content`, {
        method: 'PUT',
        headers: { 'content-type': 'application/zip' },
        body: new ReadableStream({
          start(controller) {
            // Starts like a zip: only the size refuses it.
            const first = new Uint8Array(64 * 1024);
            first.set(NOT_A_CSAR.subarray(0, 4));
            controller.enqueue(first);
            for (let i = 1; i < 20; i++) controller.enqueue(new Uint8Array(64 * 1024));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      assert.equal(chunked.status, 413);
      const after = (await call('GET', `${V2}/${pkg.id}`, { headers: V2_HEADERS })).body;
      assert.equal(after.onboardingState, 'ERROR');
      assert.match(after.onboardingFailureDetails?.detail ?? '', /limit/);
      assert.equal(await server.context.blobs.stat(`packages/${pkg.id}/package.zip`), undefined);
    });

    test('a failed onboarding: v2 ERROR with onboardingFailureDetails, v1 CREATED with the same details; a new upload is accepted', async () => {
      const pkg = await createPkg(server.url);
      assert.equal((await putZip(server.url, pkg.id, NOT_A_CSAR)).status, 202);
      const settled = await waitSettled(server.url, pkg.id);
      assert.equal(settled.onboardingState, 'ERROR');
      assert.equal(settled.operationalState, 'DISABLED');
      assert.match(settled.onboardingFailureDetails?.detail ?? '', /zip/);
      const v1 = (await call('GET', `${V1}/${pkg.id}`)).body;
      assert.equal(v1.onboardingState, 'CREATED');
      assert.deepEqual(v1.onboardingFailureDetails, settled.onboardingFailureDetails);
      // A package never uploaded has no failure; lists tell the two apart on both majors.
      const fresh = await createPkg(server.url);
      assert.equal(fresh.onboardingFailureDetails, undefined);
      const listed = async (prefix: string, filter: string, headers = {}) =>
        (await call('GET', `${prefix}?filter=${encodeURIComponent(filter)}`, { headers }))
          .body as unknown as PkgInfo[];
      const ids = (list: PkgInfo[]) => list.map((p) => p.id);
      assert.ok(ids(await listed(V2, '(eq,onboardingState,ERROR)', V2_HEADERS)).includes(pkg.id));
      assert.ok(!ids(await listed(V2, '(eq,onboardingState,ERROR)', V2_HEADERS)).includes(fresh.id));
      assert.ok(ids(await listed(V2, '(eq,onboardingState,CREATED)', V2_HEADERS)).includes(fresh.id));
      assert.ok(!ids(await listed(V2, '(eq,onboardingState,CREATED)', V2_HEADERS)).includes(pkg.id));
      const v1List = (await call('GET', V1)).body as unknown as PkgInfo[];
      assert.ok(v1List.find((p) => p.id === pkg.id)?.onboardingFailureDetails?.detail);
      assert.equal(v1List.find((p) => p.id === fresh.id)?.onboardingFailureDetails, undefined);
      // Its reason can be filtered on and selected like any attribute.
      const byReason = await listed(V1, `(cont,onboardingFailureDetails/detail,zip)`);
      assert.ok(ids(byReason).includes(pkg.id));
      const selected = await call('GET', `${V2}?fields=onboardingFailureDetails&filter=(eq,id,${pkg.id})`, {
        headers: V2_HEADERS,
      });
      assert.equal(selected.status, 200, selected.text);
      await call('DELETE', `${V1}/${fresh.id}`);
      assert.equal(await server.context.blobs.stat(`packages/${pkg.id}/package.zip`), undefined);
      // Content of a package that is not ONBOARDED: 409.
      assert.ok(isProblem(await call('GET', `${V1}/${pkg.id}/package_content`), 409));
      assert.ok(isProblem(await call('GET', `${V1}/${pkg.id}/vnfd`), 409));
      assert.ok(isProblem(await call('GET', `${V1}/${pkg.id}/artifacts/Scripts/x.sh`), 409));
      // A retry is allowed.
      assert.equal((await putZip(server.url, pkg.id, sample(SMALL_SAMPLE))).status, 202);
    });

    test('content that is not a zip is refused at once with 422; the package stays CREATED and takes a zip', async () => {
      const pkg = await createPkg(server.url);
      for (const body of [Buffer.from('{"this": "is JSON"}'), Buffer.alloc(0), Buffer.from('PK')]) {
        const res = await putZip(server.url, pkg.id, body);
        assert.ok(isProblem(res, 422), `${res.status} ${res.text}`);
        assert.match((res.body as { detail: string }).detail, /not a zip archive: it (starts with|is empty)/);
      }
      const json = await putZip(server.url, pkg.id, Buffer.from('{"this": "is JSON"}'));
      assert.match((json.body as { detail: string }).detail, /starts with 7b 22 74 68/);
      // The multipart file part is checked the same way.
      const boundary = 'b0sun';
      const multipart = await call('PUT', `${V1}/${pkg.id}/package_content`, {
        body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.zip"\r\n\r\nnot a zip\r\n--${boundary}--\r\n`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      assert.ok(isProblem(multipart, 422), multipart.text);
      const shown = (await call('GET', `${V2}/${pkg.id}`, { headers: V2_HEADERS })).body;
      assert.equal(shown.onboardingState, 'CREATED');
      assert.equal(shown.onboardingFailureDetails, undefined);
      assert.equal(await server.context.blobs.stat(`packages/${pkg.id}/package.zip`), undefined);
      assert.equal((await putZip(server.url, pkg.id, await singleFilePackage(randomUUID()))).status, 202);
      assert.equal((await waitSettled(server.url, pkg.id)).onboardingState, 'ONBOARDED');
    });

    test('GET package_content: exactly application/zip, Range edge cases', async () => {
      const path = `${V1}/${onboarded.id}/package_content`;
      const whole = await fetch(server.url + path, { headers: { accept: 'application/zip' } });
      const bytes = Buffer.from(await whole.arrayBuffer());
      assert.equal(whole.status, 200);
      assert.equal(whole.headers.get('content-type'), 'application/zip');
      assert.deepEqual(bytes, sample(ARTIFACT_SAMPLE));
      const size = bytes.length;
      const ranged = async (range: string) => {
        const r = await fetch(server.url + path, { headers: { range } });
        return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
      };
      let r = await ranged('bytes=0-0');
      assert.equal(r.status, 206);
      assert.equal(r.headers.get('content-range'), `bytes 0-0/${size}`);
      assert.deepEqual(r.body, bytes.subarray(0, 1));
      r = await ranged('bytes=-10');
      assert.equal(r.status, 206);
      assert.equal(r.headers.get('content-range'), `bytes ${size - 10}-${size - 1}/${size}`);
      assert.deepEqual(r.body, bytes.subarray(size - 10));
      r = await ranged('bytes=5-');
      assert.equal(r.status, 206);
      assert.deepEqual(r.body, bytes.subarray(5));
      r = await ranged(`bytes=10-${size + 100}`);
      assert.equal(r.status, 206);
      assert.deepEqual(r.body, bytes.subarray(10));
      r = await ranged(`bytes=${size}-`);
      assert.equal(r.status, 416);
      assert.equal(r.headers.get('content-range'), `bytes */${size}`);
      // Several ranges: 400 (as Tacker). Malformed: ignored, the whole file (RFC 9110 allows it).
      assert.equal((await ranged('bytes=0-1,5-6')).status, 400);
      r = await ranged('bytes=abc');
      assert.equal(r.status, 200);
      assert.equal(r.body.length, size);
      r = await ranged('items=0-1');
      assert.equal(r.status, 200);
    });

    test('GET vnfd: zip by default and for both types; text/plain only for a single-file VNFD (else 406)', async () => {
      const path = `${V1}/${onboarded.id}/vnfd`;
      for (const accept of ['application/zip', 'text/plain,application/zip']) {
        const res = await fetch(server.url + path, { headers: { accept } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/zip');
        const body = Buffer.from(await res.arrayBuffer());
        assert.equal(body.subarray(0, 2).toString(), 'PK');
      }
      const text = await call('GET', path, { headers: { accept: 'text/plain' } });
      // The sample's VNFD imports its types and flavour files: several files.
      assert.ok(isProblem(text, 406));
      assert.ok(isProblem(await call('GET', path, { headers: { accept: 'application/json' } }), 406));
      // A VNFD in one file without imports of package files: text/plain is possible.
      const single = await onboard(
        server.url,
        await singleFilePackage('5d1b5c4e-0000-4000-8000-00000000a001'),
      );
      assert.equal(single.onboardingState, 'ONBOARDED', JSON.stringify(single.onboardingFailureDetails));
      const plain = await fetch(`${server.url}${V1}/${single.id}/vnfd`, {
        headers: { accept: 'text/plain' },
      });
      assert.equal(plain.status, 200);
      assert.equal(plain.headers.get('content-type'), 'text/plain');
      assert.match(await plain.text(), /tosca_definitions_version/);
    });

    test('GET artifacts/*: declared artifacts only, any Accept, Range', async () => {
      const artifact = onboarded.additionalArtifacts?.[0];
      assert.ok(artifact, 'the sample declares an additional artifact');
      const path = `${V1}/${onboarded.id}/artifacts/${artifact.artifactPath}`;
      const res = await fetch(server.url + path, { headers: { accept: 'application/json' } });
      assert.equal(res.status, 200);
      const body = Buffer.from(await res.arrayBuffer());
      const { createHash } = await import('node:crypto');
      const algo = artifact.checksum.algorithm.toLowerCase().replace('-', '');
      assert.equal(createHash(algo).update(body).digest('hex'), artifact.checksum.hash.toLowerCase());
      const part = await fetch(server.url + path, { headers: { range: 'bytes=1-3' } });
      assert.equal(part.status, 206);
      assert.deepEqual(Buffer.from(await part.arrayBuffer()), body.subarray(1, 4));
      assert.ok(
        isProblem(await call('GET', `${V1}/${onboarded.id}/artifacts/TOSCA-Metadata/nothing.txt`), 404),
      );
    });

    test('v2: Version required, v3 representation, onboarded_vnf_packages by vnfdId', async () => {
      assert.ok(isProblem(await call('GET', `${V2}/${onboarded.id}`), 400));
      const v2 = await call('GET', `${V2}/${onboarded.id}`, { headers: V2_HEADERS });
      assert.equal(v2.status, 200);
      assert.equal(v2.body.packageSecurityOption, 'OPTION_1');
      assert.ok(Array.isArray(v2.body.vnfmInfo));
      assert.equal(v2.body._links.self.href, `${server.url}${V2}/${onboarded.id}`);
      const byVnfd = await call('GET', `/vnfpkgm/v2/onboarded_vnf_packages/${onboarded.vnfdId}`, {
        headers: V2_HEADERS,
      });
      assert.equal(byVnfd.status, 200);
      assert.equal(byVnfd.body.id, onboarded.id);
      const zip = await fetch(
        `${server.url}/vnfpkgm/v2/onboarded_vnf_packages/${onboarded.vnfdId}/package_content`,
        {
          headers: V2_HEADERS,
        },
      );
      assert.equal(zip.status, 200);
      assert.ok(
        isProblem(
          await call('GET', '/vnfpkgm/v2/onboarded_vnf_packages/unknown-vnfd', { headers: V2_HEADERS }),
          404,
        ),
      );
      const list = await call('GET', V2, { headers: V2_HEADERS });
      assert.ok(list.body.some((p) => p.id === onboarded.id));
    });
  });
}
