/**
 * Client secrets are stored only as scrypt hashes (`scrypt$<salt b64>$<hash b64>`), compared in
 * constant time, so a database dump does not hand out working credentials.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
// N=2^14, r=8: ~16 MiB and a few tens of ms per check — slow for guessing, cheap for a token request.
const PARAMS: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function derive(secret: string, salt: Buffer, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, length, PARAMS, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const hash = await derive(secret, salt, KEY_LENGTH);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Whether `secret` matches `stored`; false for a malformed stored value. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, saltB64, hashB64, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !hashB64 || rest.length > 0) return false;
  const expected = Buffer.from(hashB64, 'base64');
  if (expected.length === 0) return false;
  const actual = await derive(secret, Buffer.from(saltB64, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** A hash of nothing anyone knows: verifying against it keeps "unknown client" as slow as "wrong secret". */
export const DUMMY_HASH = `scrypt$${Buffer.alloc(SALT_LENGTH).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;

/** A new client secret: 256 random bits, URL- and Basic-auth-safe. */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}
