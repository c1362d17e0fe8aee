/**
 * Secrets at rest: AES-256-GCM with the configured key. A sealed value is
 * `v1.<iv b64url>.<tag b64url>.<ciphertext b64url>`; tampering or a wrong key fails to open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export class SealedBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the encryption key must be 32 bytes');
    this.#key = key;
  }

  seal(plain: string | Buffer): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join('.');
  }

  open(sealed: string): Buffer {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
    } catch {
      throw new Error('cannot open a sealed value: it was sealed with another encryption key or altered');
    }
  }
}
