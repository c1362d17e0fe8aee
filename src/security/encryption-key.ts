/**
 * The encryption key: security.encryptionKey when set (cluster mode), otherwise a key file
 * generated once with mode 0600 (single node: it must live as long as the database).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function loadEncryptionKey(security: { encryptionKey: string; keyFile: string }): Buffer {
  if (security.encryptionKey) return Buffer.from(security.encryptionKey, 'base64');
  const file = security.keyFile;
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process created it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file}: not a base64 32-byte key`);
  return key;
}
