import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { insertWidgets, registerWidgets, type Widget, widgetRow } from '../../support/widgets.ts';

const nextOf = (link: string | null) => (link ? /<([^>]+)>; rel="next"/.exec(link)?.[1] : undefined);

const V = { Version: '2.0.0' };
const PAGE = 5;

// 23 widgets: sizes 0..22, every third disabled, labels and parts to filter on.
const rows = Array.from({ length: 23 }, (_, i) =>
  widgetRow('default', {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: i === 7 ? "o'brien, (special)" : `widget-${i}`,
    size: i,
    enabled: i % 3 !== 0,
    createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
    labels: { tier: i % 2 ? 'gold' : 'silver', rank: i },
    parts: [
      { partId: `p${i}`, weight: i * 10 },
      { partId: 'common', weight: 1 },
    ],
  }),
);

for (const dialect of DIALECTS) {
  describe(`filters, selectors and paging on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, {
        registrars: [registerWidgets],
        config: { paging: { pageSizes: { fixture_widgets: PAGE } } },
      });
      await insertWidgets(server.context.db, rows);
    });
    after(() => server.close());
    const get = (path: string) => http<Widget[]>(server.url, 'GET', path, { headers: V });
    const all = async (query: string): Promise<Widget[]> => {
      const out: Widget[] = [];
      let path: string | undefined = `/fixture/widgets?${query}`;
      while (path) {
        const r = await get(path);
        assert.equal(r.status, 200, r.text);
        out.push(...r.body);
        const link = r.headers.get('link');
        path = link
          ? new URL(link.slice(1, link.indexOf('>'))).pathname +
            new URL(link.slice(1, link.indexOf('>'))).search
          : undefined;
      }
      return out;
    };
    const sizes = (ws: Widget[]) => ws.map((w) => w.size).sort((a, b) => a - b);
    const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;

    test('pages of the configured size in a stable order, Link keeps the other parameters', async () => {
      const first = await get(`/fixture/widgets?${q('(gte,size,2)')}&fields=labels`);
      assert.equal(first.body.length, PAGE);
      const link = first.headers.get('link')!;
      assert.match(link, /^<http:\/\/127\.0\.0\.1:\d+\/fixture\/widgets\?.*>; rel="next"$/);
      const next = new URL(link.slice(1, link.indexOf('>')));
      assert.equal(next.searchParams.get('filter'), '(gte,size,2)');
      assert.equal(next.searchParams.get('fields'), 'labels');
      assert.ok(next.searchParams.get('nextpage_opaque_marker'));
      const everything = await all(`${q('(gte,size,2)')}&fields=labels`);
      assert.deepEqual(
        sizes(everything),
        Array.from({ length: 21 }, (_, i) => i + 2),
      );
      const ids = everything.map((w) => w.id);
      assert.deepEqual(ids, [...ids].sort(), 'ordered by id');
      assert.ok(everything.every((w) => w.labels && !('parts' in w)));
    });

    test('the last page has no Link; an exact multiple does not announce an empty page', async () => {
      const r = await get(`/fixture/widgets?${q('(lt,size,5)')}`);
      assert.equal(r.body.length, 5);
      assert.equal(r.headers.get('link'), null);
    });

    test('pushed-down and in-memory terms combine', async () => {
      assert.deepEqual(sizes(await all(q('(eq,enabled,false)'))), [0, 3, 6, 9, 12, 15, 18, 21]);
      assert.deepEqual(sizes(await all(q('(eq,labels/tier,gold);(gt,size,15)'))), [17, 19, 21]);
      assert.deepEqual(sizes(await all(q('(eq,parts/partId,p4)'))), [4]);
      assert.deepEqual(sizes(await all(q('(gt,parts/weight,200)'))), [21, 22]);
      assert.deepEqual(sizes(await all(q('(in,size,1,2,3);(neq,size,2)'))), [1, 3]);
      assert.deepEqual(
        sizes(await all(q('(nin,size,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19)'))),
        [20, 21, 22],
      );
      assert.deepEqual(sizes(await all(q('(gte,createdAt,2026-01-20T00:00:00Z)'))), [19, 20, 21, 22]);
      assert.deepEqual(sizes(await all(q('(gte,createdAt,2026-01-20T01:00:00+01:00)'))), [19, 20, 21, 22]);
      assert.deepEqual(sizes(await all(q('(cont,name,-2)'))), [2, 20, 21, 22]);
      assert.equal((await all(q('(ncont,name,widget)'))).length, 1);
      assert.deepEqual(sizes(await all(q("(eq,name,'o''brien, (special)')"))), [7]);
      assert.deepEqual(sizes(await all(q('(eq,labels/rank,3)'))), [3]);
      assert.deepEqual(await all(q('(eq,labels/absent,x)')), []);
    });

    test('filter errors → 400 pointing at the term', async () => {
      const cases: [string, RegExp][] = [
        ['(eqq,size,1)', /eqq/],
        ['(eq,size)', /value/i],
        ['(eq,size,1,2)', /one value|single/i],
        ['(eq,nosuch,1)', /nosuch/],
        ['(gt,size,abc)', /abc/],
        ['(eq,enabled,maybe)', /maybe/],
        ['(gt,enabled,true)', /gt/],
        ["(eq,name,'unterminated)", /quote|unterminated/i],
        ['eq,size,1', /\(/],
        ['(eq,size,1);', /term|empty|;/i],
      ];
      for (const [filter, detail] of cases) {
        const r = await get(`/fixture/widgets?${q(filter)}`);
        assert.ok(isProblem(r, 400), `${filter} → ${r.status}`);
        assert.match((r.body as unknown as { detail: string }).detail, detail, filter);
      }
    });

    test('selectors: default excludes, all_fields, fields, exclude_fields, combinations', async () => {
      const one = `${q('(eq,size,4)')}`;
      const [plain] = (await get(`/fixture/widgets?${one}`)).body;
      assert.deepEqual(Object.keys(plain).sort(), ['_links', 'createdAt', 'enabled', 'id', 'name', 'size']);
      const [full] = (await get(`/fixture/widgets?${one}&all_fields`)).body;
      assert.deepEqual(full.labels, { tier: 'silver', rank: 4 });
      assert.equal(full.parts.length, 2);
      const [nested] = (await get(`/fixture/widgets?${one}&fields=parts/weight`)).body;
      assert.deepEqual(nested.parts, [{ weight: 40 }, { weight: 1 }]);
      assert.equal(nested.labels, undefined);
      const [excluded] = (await get(`/fixture/widgets?${one}&exclude_fields=parts`)).body;
      assert.ok(excluded.labels && !excluded.parts);
      const [withDefault] = (await get(`/fixture/widgets?${one}&fields=labels&exclude_default`)).body;
      assert.ok(withDefault.labels && !withDefault.parts);
      for (const bad of [
        'all_fields&fields=labels',
        'fields=labels&exclude_fields=parts',
        'exclude_fields=parts&exclude_default',
        'fields=',
        'all_fields=yes',
      ]) {
        const r = await get(`/fixture/widgets?${one}&${bad}`);
        assert.ok(isProblem(r, 400), bad);
      }
    });

    test('markers: forged, damaged, foreign listing, other filter → 400; valid marker survives a restart', async () => {
      const first = await get(`/fixture/widgets?${q('(gte,size,0)')}`);
      const link = new URL(first.headers.get('link')!.slice(1, first.headers.get('link')!.indexOf('>')));
      const marker = link.searchParams.get('nextpage_opaque_marker')!;
      const [payload, sig] = marker.split('.');
      const forgedBody = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), k: '0' }),
      ).toString('base64url');
      const bad = [
        'garbage',
        `${forgedBody}.${sig}`,
        `${payload}.${sig.slice(0, -2)}AA`,
        `${payload}.${sig}.extra`,
      ];
      for (const m of bad) {
        const r = await get(
          `/fixture/widgets?${q('(gte,size,0)')}&nextpage_opaque_marker=${encodeURIComponent(m)}`,
        );
        assert.ok(isProblem(r, 400), m);
      }
      const otherFilter = await get(
        `/fixture/widgets?${q('(gte,size,1)')}&nextpage_opaque_marker=${encodeURIComponent(marker)}`,
      );
      assert.ok(isProblem(otherFilter, 400));
      assert.match((otherFilter.body as unknown as { detail: string }).detail, /another filter/);

      // Same database, new process-level state: the marker key comes from the database.
      await server.close();
      server = await startTestServer(dialect, {
        registrars: [registerWidgets],
        databaseUrl: server.config.database.url,
        config: {
          paging: { pageSizes: { fixture_widgets: PAGE } },
          security: { encryptionKey: server.config.security.encryptionKey },
        },
      });
      const resumed = await get(`${link.pathname}${link.search}`);
      assert.equal(resumed.status, 200, resumed.text);
      assert.deepEqual(
        resumed.body.map((w) => w.size),
        [5, 6, 7, 8, 9],
      );
    });

    test('all_records=yes: the whole list in one page, up to paging.allRecordsMax (then a Link to the rest)', async () => {
      const whole = await get('/fixture/widgets?all_records=yes');
      assert.equal(whole.status, 200, whole.text);
      assert.deepEqual(
        whole.body.map((w) => w.size),
        rows.map((r) => r.size),
      );
      assert.equal(whole.headers.get('link'), null);
      const { paging } = server.config;
      const max = paging.allRecordsMax;
      paging.allRecordsMax = 10;
      try {
        const first = await get('/fixture/widgets?all_records=yes&filter=(gte,size,1)');
        assert.equal(first.body.length, 10);
        const next = nextOf(first.headers.get('link'));
        assert.ok(next);
        assert.equal(new URL(next).searchParams.get('all_records'), 'yes');
        const second = await http<Widget[]>(next, 'GET', '', { headers: V });
        assert.deepEqual(
          second.body.map((w) => w.size),
          [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
        );
      } finally {
        paging.allRecordsMax = max;
      }
      const no = await get('/fixture/widgets?all_records=no');
      assert.ok(isProblem(no, 400));
      assert.match(
        (no.body as unknown as { detail: string }).detail,
        /'all_records' takes only the value 'yes'/,
      );
    });

    test('fields and exclude_fields naming an attribute the resource does not have → 400 naming it', async () => {
      for (const query of [
        'fields=wrong_field',
        'exclude_fields=labels,wrong_field',
        'fields=wrong_field/x&exclude_default',
        'exclude_default&fields=parts,wrong_field',
      ]) {
        const r = await get(`/fixture/widgets?${query}`);
        assert.ok(isProblem(r, 400), query);
        assert.match(
          (r.body as unknown as { detail: string }).detail,
          /'wrong_field(\/x)?' names no attribute of fixture_widgets; attributes: id, name, size/,
        );
      }
      for (const query of ['fields=labels/tier', 'fields=_links', 'exclude_fields=parts', 'fields=name']) {
        assert.equal((await get(`/fixture/widgets?${query}`)).status, 200, query);
      }
    });

    test('a newest-first list pages exactly by time, ties by id, whatever is added meanwhile', async () => {
      const at = (year: number) => new Date(Date.UTC(year, 0, 1)).toISOString();
      const tie = (n: number, year: number) =>
        widgetRow('default', {
          id: `f0000000-0000-4000-8000-00000000000${n}`,
          name: 'tie',
          size: 100 + n,
          createdAt: at(year),
        });
      await insertWidgets(server.context.db, [
        tie(1, 2030),
        tie(2, 2031),
        tie(3, 2030),
        tie(4, 2029),
        tie(5, 2030),
        tie(6, 2030),
      ]);
      server.config.paging.pageSizes.fixture_widgets_newest = 2;
      const seen: number[] = [];
      let next: string | undefined = `${server.url}/fixture/widgets-newest?filter=(eq,name,tie)`;
      while (next) {
        const page: Awaited<ReturnType<typeof get>> = await http<Widget[]>(next, 'GET', '', { headers: V });
        assert.equal(page.status, 200, page.text);
        seen.push(...page.body.map((w) => w.size));
        // Added after the listing started: newer than every row (one a tie with a smaller id).
        if (seen.length === 2) await insertWidgets(server.context.db, [tie(0, 2030), tie(7, 2032)]);
        next = nextOf(page.headers.get('link'));
      }
      assert.deepEqual(seen, [102, 106, 105, 103, 101, 100, 104]);
    });
  });
}
