/**
 * One access-log line per request, written when it completes (method, route, URL, status,
 * duration, request id) instead of fastify's two: half the logging cost on the hot path,
 * and every fact about a request on one line.
 */
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

export class AccessLog extends LogController {
  readonly #enabled: boolean;

  /** Disabled, only requests that end in an error are logged. */
  constructor(enabled: boolean) {
    super({ requestIdLogLabel: 'requestId' });
    this.#enabled = enabled;
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (!error && !this.#enabled) return;
    const line = {
      method: request.method,
      url: request.url,
      route: request.policy?.route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      remote: request.ip,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
