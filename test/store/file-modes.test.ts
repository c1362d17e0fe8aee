/**
 * Files holding secrets are created readable by their owner only (0600), whatever the umask:
 * the SQLite database with its WAL and SHM files, and the generated encryption key.
 */
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadEncryptionKey } from '../../src/security/encryption-key.ts';
import { openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { tempDir } from '../support/temp.ts';

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('files holding secrets are created 0600', () => {
  let umask: number;
  before(() => {
    // The most permissive umask: only the modes Bosun asks for protect the files.
    umask = process.umask(0);
  });
  after(() => {
    process.umask(umask);
  });

  test('the SQLite database, its WAL and SHM files', async () => {
    const file = join(tempDir('bosun-modes-'), 'var', 'bosun.db');
    const db = openDatabase({ url: `sqlite:${file}`, poolSize: 1 });
    try {
      await migrate(db);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) {
        assert.ok(existsSync(f), f);
        assert.equal(modeOf(f).toString(8), '600', f);
      }
    } finally {
      await db.close();
    }
  });

  test('the generated key file', () => {
    const keyFile = join(tempDir('bosun-modes-'), 'var', 'secret.key');
    const key = loadEncryptionKey({ encryptionKey: '', keyFile });
    assert.equal(key.length, 32);
    assert.equal(modeOf(keyFile).toString(8), '600');
    assert.deepEqual(loadEncryptionKey({ encryptionKey: '', keyFile }), key, 'read back, not replaced');
  });
});
