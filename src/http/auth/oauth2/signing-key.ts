/**
 * The ES256 key that signs Bosun's access tokens. Kept as a private JWK in the sealed server
 * keys, so every replica signs and verifies with the same key and tokens survive restarts.
 */
import { generateKeyPairSync } from 'node:crypto';
import { type CryptoKey, calculateJwkThumbprint, importJWK, type JWK } from 'jose';
import type { ServerKeys } from '../../../security/server-keys.ts';

export const SIGNING_KEY_NAME = 'oauth2-signing-key';
export const SIGNING_ALG = 'ES256';

export interface SigningKey {
  /** RFC 7638 thumbprint of the public key: stable across replicas and restarts. */
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public key as published at /oauth2/jwks. */
  publicJwk: JWK;
}

/** ServerKeys wants a synchronous generator, hence node:crypto rather than jose's async one. */
export function generateSigningJwk(): Buffer {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return Buffer.from(JSON.stringify(privateKey.export({ format: 'jwk' })));
}

export async function loadSigningKey(keys: ServerKeys): Promise<SigningKey> {
  const stored = await keys.get(SIGNING_KEY_NAME, generateSigningJwk);
  const { kty, crv, x, y, d } = JSON.parse(stored.toString('utf8')) as JWK;
  const bare: JWK = { kty, crv, x, y };
  const kid = await calculateJwkThumbprint(bare);
  return {
    kid,
    privateKey: (await importJWK({ ...bare, d }, SIGNING_ALG)) as CryptoKey,
    publicKey: (await importJWK(bare, SIGNING_ALG)) as CryptoKey,
    publicJwk: { ...bare, kid, alg: SIGNING_ALG, use: 'sig' },
  };
}
