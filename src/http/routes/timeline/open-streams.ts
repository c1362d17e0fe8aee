/**
 * The event streams this server holds open: how many each client has (a client may hold
 * lcm.timeline.streamsPerClient at once; one more is refused with 429 rather than letting one
 * caller pin the server's connections), and every stream, so that shutdown can end them all
 * (a stream never ends by itself while its op occ runs, and the server would wait for it).
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../../sol/problem.ts';

export interface Closable {
  close(why: string): void;
}

export class OpenStreams {
  readonly #perClient = new Map<string, number>();
  readonly #all = new Set<Closable>();
  #closing = false;

  /** Who holds the stream: the token's project and subject; without authentication, the address. */
  static clientOf(request: FastifyRequest): string {
    const { caller } = request;
    return caller.subject === 'anonymous' ? `address ${request.ip}` : `${caller.project}/${caller.subject}`;
  }

  /** Counts a new stream of `client`; throws 429 (or 503 while shutting down) when it may not have one. */
  admit(client: string, limit: number): () => void {
    if (this.#closing)
      throw new ApiError(
        503,
        'Bosun is shutting down: open the stream again (to another replica, or once it has restarted).',
      );
    const count = this.#perClient.get(client) ?? 0;
    if (count >= limit)
      throw new ApiError(
        429,
        `This client already has ${count} event streams open (lcm.timeline.streamsPerClient is ${limit}): close one, or follow several op occs with GET /bosun/v1/vnf_lcm_op_occs/{id}/timeline.`,
        { headers: { 'Retry-After': '5' } },
      );
    this.#perClient.set(client, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#perClient.get(client) ?? 1) - 1;
      if (left > 0) this.#perClient.set(client, left);
      else this.#perClient.delete(client);
    };
  }

  add(stream: Closable): () => void {
    this.#all.add(stream);
    return () => this.#all.delete(stream);
  }

  /** Ends every stream (shutdown): clients reconnect elsewhere with their Last-Event-ID. */
  closeAll(why: string): void {
    this.#closing = true;
    for (const stream of [...this.#all]) stream.close(why);
  }
}
