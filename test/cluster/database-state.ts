/**
 * What the cluster's database says once the load has stopped: nothing left half-way — no op occ
 * outside a final state, no package mid-upload or mid-onboarding, no notification still due.
 */
import pg from 'pg';

export interface Leftovers {
  opOccs: string[];
  packages: string[];
  outbox: number;
}

export async function leftovers(databaseUrl: string): Promise<Leftovers> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const ops = await client.query<{ id: string; operation_state: string }>(
      `select id, operation_state from vnf_lcm_op_occs_v2
        where operation_state not in ('COMPLETED', 'FAILED_TEMP', 'FAILED', 'ROLLED_BACK')`,
    );
    const pkgs = await client.query<{ id: string; onboarding_state: string }>(
      `select id, onboarding_state from vnf_packages where onboarding_state in ('UPLOADING', 'PROCESSING')`,
    );
    const outbox = await client.query<{ n: string }>('select count(*) as n from notification_outbox');
    return {
      opOccs: ops.rows.map((r) => `${r.id} ${r.operation_state}`),
      packages: pkgs.rows.map((r) => `${r.id} ${r.onboarding_state}`),
      outbox: Number(outbox.rows[0].n),
    };
  } finally {
    await client.end();
  }
}
