/**
 * Keys the server itself needs (paging-marker HMAC, token signing), kept sealed in the database
 * so every replica uses the same ones and they survive restarts. The first replica to ask
 * creates a key; a concurrent creator loses the insert race and reads the winner's.
 */
import type { Database } from '../store/db/database.ts';
import type { SealedBox } from './sealed-box.ts';

export class ServerKeys {
  readonly #db: Database;
  readonly #box: SealedBox;
  readonly #cache = new Map<string, Promise<Buffer>>();

  constructor(db: Database, box: SealedBox) {
    this.#db = db;
    this.#box = box;
  }

  /** The key called `name`, created with `generate` if it does not exist yet. */
  get(name: string, generate: () => Buffer): Promise<Buffer> {
    let key = this.#cache.get(name);
    if (!key) {
      key = this.#load(name, generate);
      key.catch(() => this.#cache.delete(name));
      this.#cache.set(name, key);
    }
    return key;
  }

  async #load(name: string, generate: () => Buffer): Promise<Buffer> {
    const kysely = this.#db.kysely;
    await kysely
      .insertInto('server_keys')
      .values({ name, sealed_value: this.#box.seal(generate()), created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await kysely
      .selectFrom('server_keys')
      .select('sealed_value')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return this.#box.open(row.sealed_value);
  }
}
