/**
 * Database statements and transactions Bosun processes sent, read from their /metrics
 * (bosun_db_statements_total, bosun_db_transactions_total): the round trips a measured piece of
 * work cost, summed over every process of a cluster.
 */
export interface DbCost {
  statements: number;
  transactions: number;
}

async function costOf(url: string): Promise<DbCost> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 'NaN');
  return { statements: read('bosun_db_statements_total'), transactions: read('bosun_db_transactions_total') };
}

/** The statements and transactions the processes at `urls` sent while `work` ran. */
export async function dbCost<T>(
  urls: readonly string[],
  work: () => Promise<T>,
): Promise<{ result: T; cost: DbCost }> {
  const before = await Promise.all(urls.map(costOf));
  const result = await work();
  const after = await Promise.all(urls.map(costOf));
  const cost = { statements: 0, transactions: 0 };
  after.forEach((a, i) => {
    cost.statements += a.statements - before[i].statements;
    cost.transactions += a.transactions - before[i].transactions;
  });
  return { result, cost };
}
