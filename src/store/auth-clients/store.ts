/**
 * OAuth 2.0 clients of the built-in token endpoint (table auth_clients). The secret is generated
 * here, returned once by add(), and only its hash is kept.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { AuthClientsTable } from '../db/tables.ts';
import { DUMMY_HASH, generateSecret, hashSecret, verifySecret } from './secret-hash.ts';
import { AuthClientError, validClientId, validDescription, validProject, validScopes } from './validate.ts';

export interface AuthClient {
  clientId: string;
  project: string;
  scopes: string[];
  description: string;
  createdAt: string;
}

export interface NewAuthClient {
  /** Default: `bosun-<random hex>`. */
  clientId?: string;
  project: string;
  scopes: readonly string[];
  description?: string;
}

export interface AddedAuthClient {
  client: AuthClient;
  /** The only time the plain secret exists outside the client's hands. */
  secret: string;
}

function toClient(row: AuthClientsTable): AuthClient {
  return {
    clientId: row.client_id,
    project: row.project_id,
    scopes: JSON.parse(row.scopes) as string[],
    description: row.description,
    createdAt: row.created_at,
  };
}

export class AuthClientStore {
  readonly #db: Database;
  readonly #adminScope: string;

  constructor(db: Database, options: { adminScope: string }) {
    this.#db = db;
    this.#adminScope = options.adminScope;
  }

  async add(input: NewAuthClient): Promise<AddedAuthClient> {
    const clientId = validClientId(input.clientId ?? `bosun-${randomBytes(8).toString('hex')}`);
    const project = validProject(input.project);
    const scopes = validScopes(input.scopes, this.#adminScope);
    const description = validDescription(input.description ?? '');
    const duplicate = () => new AuthClientError(`a client with id '${clientId}' already exists`);
    if (await this.get(clientId)) throw duplicate();
    const secret = generateSecret();
    const row: AuthClientsTable = {
      client_id: clientId,
      secret_hash: await hashSecret(secret),
      description,
      project_id: project,
      scopes: JSON.stringify(scopes),
      created_at: new Date().toISOString(),
    };
    try {
      await this.#db.kysely.insertInto('auth_clients').values(row).execute();
    } catch (err) {
      // Lost a race with a concurrent add of the same id: the primary key refused the row.
      if (await this.get(clientId)) throw duplicate();
      throw err;
    }
    return { client: toClient(row), secret };
  }

  async list(): Promise<AuthClient[]> {
    const rows = await this.#db.kysely.selectFrom('auth_clients').selectAll().orderBy('client_id').execute();
    return rows.map(toClient);
  }

  async get(clientId: string): Promise<AuthClient | undefined> {
    const row = await this.#row(clientId);
    return row && toClient(row);
  }

  /** True when a client was removed, false when there was none with that id. */
  async remove(clientId: string): Promise<boolean> {
    const result = await this.#db.kysely
      .deleteFrom('auth_clients')
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** When the client was registered (its generation: re-adding an id gives a new one); undefined when removed. */
  async registeredAt(clientId: string): Promise<string | undefined> {
    const row = await this.#db.kysely
      .selectFrom('auth_clients')
      .select('created_at')
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row?.created_at;
  }

  /** The client when the secret is right; undefined for an unknown client or a wrong secret alike. */
  async verify(clientId: string, secret: string): Promise<AuthClient | undefined> {
    const row = await this.#row(clientId);
    const ok = await verifySecret(secret, row?.secret_hash ?? DUMMY_HASH);
    return ok && row ? toClient(row) : undefined;
  }

  #row(clientId: string): Promise<AuthClientsTable | undefined> {
    return this.#db.kysely
      .selectFrom('auth_clients')
      .selectAll()
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }
}
