/**
 * Row types of every table, as Kysely sees them. Timestamps are ISO-8601 UTC strings with
 * milliseconds in both databases, so that comparisons and filters behave the same on SQLite
 * and PostgreSQL. JSON documents are stored as text.
 */
export interface ServerKeysTable {
  name: string;
  /** Sealed with the configured encryption key (see security/sealed-box.ts). */
  sealed_value: string;
  created_at: string;
}

export interface AuthClientsTable {
  client_id: string;
  /** scrypt hash of the client secret: `scrypt$<salt b64>$<hash b64>`. */
  secret_hash: string;
  description: string;
  project_id: string;
  /** JSON array of granted scopes. */
  scopes: string;
  created_at: string;
}

export interface Tables {
  server_keys: ServerKeysTable;
  auth_clients: AuthClientsTable;
}
