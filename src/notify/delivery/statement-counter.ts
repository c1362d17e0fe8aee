/**
 * Counts the database statements the delivery worker runs (a Kysely plugin on its handle), for
 * the metric `bosun_notification_delivery_statements_total`: statements per delivered
 * notification is what decides how far delivery scales on one database. A transaction's BEGIN
 * and COMMIT are not queries and are not counted.
 */
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

export class StatementCounter implements KyselyPlugin {
  readonly #counted: () => void;

  constructor(counted: () => void) {
    this.#counted = counted;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  /** Called once per executed statement, with its result. */
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.#counted();
    return args.result;
  }
}
