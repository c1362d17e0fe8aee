import assert from 'node:assert/strict';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { describe, test } from 'node:test';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import {
  type BoundTerm,
  compileFilter,
  escapeLike,
  filterToSql,
  matchesFilter,
  type SqlDialect,
  splitFilter,
} from '../../../../src/http/sol013/filter/index.ts';
import type { AttributeMap } from '../../../../src/sol/attributes.ts';

interface Row {
  id: string;
  name: string | null;
  size: number | null;
  enabled: number | null;
  created_at: string | null;
  state: string | null;
}
interface Db {
  t: Row;
}

const attributes: AttributeMap = {
  id: { type: 'uuid', column: 'id' },
  name: { type: 'string', column: 'name' },
  size: { type: 'number', column: 'size' },
  enabled: { type: 'boolean', column: 'enabled' },
  createdAt: { type: 'datetime', column: 'created_at' },
  state: { type: 'enum', values: ['A', 'B', 'C'], column: 't.state' },
  tags: { type: 'string' },
  userDefinedData: { type: 'keyValue', column: 'user_defined_data' },
};

// Varied on purpose: case variants, LIKE wildcards and the escape character, '', non-BMP text, NULLs.
const NAMES = [
  'alpha',
  'Alpha',
  'ALPHA',
  'beta',
  '100%',
  '100 percent',
  'a_b',
  'axb',
  'back\\slash',
  'back slash',
];
const NAMES2 = ['under_score', "it's", '', '😀', '\uffff', 'é', 'zeta', null];
const SIZES = [-1, 0, 0.5, 1, 2, 10, 100, null];
const BOOLEANS = [1, 0, null];
const TIMES = [
  '2025-12-31T23:00:00.000Z',
  '2026-01-01T00:00:00.000Z',
  '2026-01-01T00:00:00.001Z',
  '2026-06-30T12:34:56.789Z',
  null,
];
const STATES = ['A', 'B', 'C', null];

const rows: Row[] = Array.from({ length: 54 }, (_, i) => {
  const names = [...NAMES, ...NAMES2];
  return {
    id: `r${String(i).padStart(2, '0')}`,
    name: names[i % names.length],
    size: SIZES[(i * 3) % SIZES.length],
    enabled: BOOLEANS[(i * 7) % BOOLEANS.length],
    created_at: TIMES[(i * 2) % TIMES.length],
    state: STATES[(i * 5) % STATES.length],
  };
});

/** The JSON representation: NULL columns are omitted on even rows and null on odd ones. */
function toJson(row: Row, i: number): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: row.id,
    name: row.name,
    size: row.size,
    enabled: row.enabled === null ? null : row.enabled === 1,
    createdAt: row.created_at,
    state: row.state,
    tags: [['red'], ['green', 'red'], [], ['blue']][i % 4],
    userDefinedData: i % 3 === 0 ? { k: `v${i % 2}` } : {},
  };
  if (i % 2 === 0) for (const key of Object.keys(json)) if (json[key] === null) delete json[key];
  return json;
}
const resources = rows.map(toJson);

function kysely(dialect: SqlDialect): Kysely<Db> {
  const pg = dialect === 'postgres';
  return new Kysely<Db>({
    dialect: {
      createAdapter: () => (pg ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (pg ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (pg ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
  });
}

const sqlite = new DatabaseSync(':memory:');
sqlite.exec(
  'CREATE TABLE t (id TEXT PRIMARY KEY, name TEXT, size REAL, enabled INTEGER, created_at TEXT, state TEXT)',
);
const insert = sqlite.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)');
for (const r of rows) insert.run(r.id, r.name, r.size, r.enabled, r.created_at, r.state);

/** Runs the terms on SQLite, compiled with `compileAs` (postgres: to exercise its LIKE form). */
function sqlIds(terms: readonly BoundTerm[], compileAs: SqlDialect = 'sqlite'): string[] {
  const query = kysely('sqlite')
    .selectFrom('t')
    .select('id')
    .where((eb) => filterToSql(eb, terms, compileAs))
    .orderBy('id')
    .compile();
  return sqlite
    .prepare(query.sql)
    .all(...(query.parameters as SQLInputValue[]))
    .map((r) => String(r.id));
}

const memoryIds = (expression: string) => {
  const filter = compileFilter(expression, attributes);
  return resources.filter((r) => matchesFilter(r, filter)).map((r) => r.id as string);
};

const FILTERS = [
  '(eq,name,alpha)',
  '(neq,name,alpha)',
  "(in,name,alpha,beta,'')",
  '(nin,name,alpha,beta)',
  '(gt,name,beta)',
  '(gte,name,beta)',
  '(lt,name,Alpha)',
  '(lte,name,\uffff)',
  '(gt,name,\uffff)',
  '(gt,name,é)',
  '(cont,name,%)',
  '(cont,name,_)',
  '(ncont,name,_)',
  '(cont,name,a_b)',
  '(cont,name,\\)',
  "(cont,name,'''')",
  '(cont,name,alp)',
  '(ncont,name,alp,%)',
  "(eq,name,'')",
  "(neq,name,'')",
  '(eq,size,0)',
  '(neq,size,0)',
  '(gt,size,0.5)',
  '(gte,size,0.5)',
  '(lte,size,1)',
  '(lt,size,-0.5)',
  '(in,size,1,10,-1)',
  '(nin,size,1,10)',
  '(eq,enabled,true)',
  '(eq,enabled,false)',
  '(neq,enabled,true)',
  '(in,enabled,true,false)',
  '(nin,enabled,false)',
  '(eq,createdAt,2026-01-01T01:00:00+01:00)',
  '(neq,createdAt,2026-01-01T00:00:00Z)',
  '(gt,createdAt,2026-01-01T00:00:00Z)',
  '(gte,createdAt,2025-12-31T18:00:00.001-05:00)',
  '(lt,createdAt,2026-01-01T00:00:00.0015Z)',
  '(lte,createdAt,2025-12-31T23:00:00Z)',
  '(in,createdAt,2025-12-31T23:00:00Z,2026-06-30T14:34:56.789+02:00)',
  '(nin,createdAt,2025-12-31T23:00:00Z)',
  '(eq,state,A)',
  '(neq,state,A)',
  '(in,state,A,C)',
  '(nin,state,A,B)',
  '(eq,id,r07)',
  '(gt,id,r40)',
  '(cont,id,1)',
  '(ncont,id,1,2)',
  '(eq,name,alpha);(gt,size,0)',
  '(neq,name,alpha);(nin,state,A);(lt,size,100)',
  '(eq,tags,red);(gt,size,0)',
  '(ncont,tags,ee);(neq,enabled,true)',
  '(eq,userDefinedData/k,v1);(lt,size,10)',
  '(neq,userDefinedData/k,v1);(ncont,name,a)',
];

describe('filter push-down to SQL agrees with in-memory evaluation', () => {
  for (const expression of FILTERS) {
    test(expression, () => {
      const expected = memoryIds(expression);
      // Each filter must discriminate, or agreement would prove little.
      assert.ok(
        expected.length > 0 && expected.length < rows.length,
        `${expression} selects ${expected.length}`,
      );
      const { pushdown, inMemory } = splitFilter(compileFilter(expression, attributes));
      assert.ok(pushdown.length > 0);
      const fromSql = new Set(sqlIds(pushdown));
      const actual = resources
        .filter((r) => fromSql.has(r.id as string) && matchesFilter(r, { terms: inMemory }))
        .map((r) => r.id as string);
      assert.deepEqual(actual, expected);
    });
  }

  test("PostgreSQL's LIKE form, run on SQLite with case-sensitive LIKE, agrees too", () => {
    sqlite.exec('PRAGMA case_sensitive_like = ON');
    try {
      for (const expression of FILTERS.filter((f) => /^\((n?cont),(name|id),[^;]*\)$/.test(f))) {
        const { pushdown } = splitFilter(compileFilter(expression, attributes));
        assert.deepEqual(sqlIds(pushdown, 'postgres'), memoryIds(expression), expression);
      }
    } finally {
      sqlite.exec('PRAGMA case_sensitive_like = OFF');
    }
  });

  test('no terms select everything', () => {
    assert.equal(sqlIds([]).length, rows.length);
  });
});

describe('splitFilter', () => {
  test('pushes down terms on columns, keeps keyValue and column-less terms in memory', () => {
    const { pushdown, inMemory } = splitFilter(
      compileFilter('(eq,tags,red);(gt,size,0);(eq,userDefinedData/k,v);(cont,name,x)', attributes),
    );
    assert.deepEqual(
      pushdown.map((t) => t.attribute),
      ['size', 'name'],
    );
    assert.deepEqual(
      inMemory.map((t) => t.attribute),
      ['tags', 'userDefinedData'],
    );
  });

  test('filterToSql refuses a term that cannot be pushed down', () => {
    const { inMemory } = splitFilter(compileFilter('(eq,tags,red)', attributes));
    assert.throws(() => sqlIds(inMemory), /cannot be pushed down/);
  });
});

describe('filterToSql for PostgreSQL', () => {
  const compile = (expression: string) => {
    const { pushdown } = splitFilter(compileFilter(expression, attributes));
    const query = kysely('postgres')
      .selectFrom('t')
      .select('id')
      .where((eb) => filterToSql(eb, pushdown, 'postgres'))
      .compile();
    return { where: query.sql.replace(/^select "id" from "t" where /, ''), parameters: query.parameters };
  };

  test('booleans are parameters of type boolean', () => {
    assert.deepEqual(compile('(eq,enabled,true)'), { where: '"enabled" = $1', parameters: [true] });
    assert.deepEqual(compile('(nin,enabled,false)').parameters, [false]);
  });

  test('text comparisons use code point order; numbers do not need it', () => {
    assert.equal(compile('(gt,name,b)').where, '"name" COLLATE "C" > $1');
    assert.equal(compile('(lte,size,1)').where, '"size" <= $1');
    assert.deepEqual(compile('(gt,createdAt,2026-01-01T01:00:00+01:00)'), {
      where: '"created_at" COLLATE "C" > $1',
      parameters: ['2026-01-01T00:00:00.000Z'],
    });
  });

  test('cont is an escaped LIKE; negative ops accept NULL', () => {
    assert.deepEqual(compile('(cont,name,50%_\\)'), {
      where: `("name" LIKE $1 ESCAPE '\\')`,
      parameters: ['%50\\%\\_\\\\%'],
    });
    assert.equal(
      compile('(ncont,name,a,b)').where,
      `("name" IS NULL OR NOT (("name" LIKE $1 ESCAPE '\\' OR "name" LIKE $2 ESCAPE '\\')))`,
    );
    assert.equal(compile('(nin,state,A,B)').where, '("t"."state" IS NULL OR NOT ("t"."state" IN ($1, $2)))');
    assert.equal(
      compile('(eq,name,a);(neq,size,1)').where,
      '("name" = $1 and ("size" IS NULL OR NOT ("size" = $2)))',
    );
  });

  test('escapeLike', () => {
    assert.equal(escapeLike('a%b_c\\d'), 'a\\%b\\_c\\\\d');
    assert.equal(escapeLike('plain'), 'plain');
  });
});
