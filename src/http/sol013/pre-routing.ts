/**
 * ProblemDetails for the requests that fail before any route or hook sees them: a path the
 * router cannot decode or whose segment is too long (fastify's frameworkErrors), and bytes
 * Node's HTTP parser refuses — headers too large, a malformed header line, a bad method or
 * chunk (the server's clientError event, which has only the socket to answer on).
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiError, PROBLEM_JSON } from '../../sol/problem.ts';
import { send } from './errors.ts';

const shown = (path: string) => (path.length > 120 ? `${path.slice(0, 120)}…` : path);

/** fastify's `frameworkErrors`: the router could not take the path apart. */
export function routerErrorHandler(maxParamLength: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('X-Request-Id', request.id);
    const path = request.url.split('?')[0];
    const problem =
      error.code === 'FST_ERR_BAD_URL'
        ? new ApiError(
            400,
            `The path '${shown(path)}' is not valid: a '%' must start a percent-encoded UTF-8 byte (two hex digits).`,
          )
        : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError(
              414,
              `A segment of the path '${shown(path)}' is longer than ${maxParamLength} characters; no resource has such an id.`,
            )
          : new ApiError(400, `The request path '${shown(path)}' cannot be routed.`);
    request.log.info({ status: problem.status, detail: problem.detail }, 'request refused');
    return send(request, reply, problem);
  };
}

interface ParserRefusal {
  status: number;
  detail: string;
}

/** What Node's HTTP parser refused, by its error code, in words a client can act on. */
function refusalOf(code: string | undefined, limits: { maxHeaderSize: number }): ParserRefusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        detail: `The request line and headers are larger than ${limits.maxHeaderSize} bytes (a long query string counts too); shorten them, e.g. split a long filter over several requests.`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'The request was not received completely in time; send it again.' };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_HEADER':
      return {
        status: 400,
        detail: "A header line is malformed: each must be 'Name: value' with a name of token characters.",
      };
    case 'HPE_INVALID_METHOD':
      return { status: 400, detail: 'The request method is not a valid HTTP method.' };
    case 'HPE_INVALID_URL':
      return {
        status: 400,
        detail:
          'The request target is not a valid path: spaces and control characters must be percent-encoded.',
      };
    case 'HPE_INVALID_CONSTANT':
      return {
        status: 400,
        detail:
          "The request line is malformed: it must be 'METHOD /path HTTP/1.1', spaces in the path percent-encoded.",
      };
    case 'HPE_INVALID_VERSION':
      return { status: 400, detail: 'The request line does not end with a valid HTTP version (HTTP/1.1).' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return {
        status: 400,
        detail:
          'The body framing is invalid: give one valid Content-Length or Transfer-Encoding: chunked, not both.',
      };
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 400, detail: 'The chunked request body is malformed.' };
    default:
      return { status: 400, detail: `The request is not valid HTTP/1.1 (${code ?? 'parse error'}).` };
  }
}

/** The server's `clientError` handler: a ProblemDetails written on the socket, then closed. */
export function parserErrorHandler(logger: Logger, limits: { maxHeaderSize: number }) {
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    // A reset connection has no one to answer; a response already begun cannot be replaced.
    const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inProgress?.headersSent) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const { status, detail } = refusalOf(error.code, limits);
    const problem = new ApiError(status, detail).toProblem();
    logger.info({ requestId, status, code: error.code, detail }, 'request refused by the HTTP parser');
    const body = JSON.stringify(problem);
    socket.end(
      `HTTP/1.1 ${status} ${problem.title}\r\n` +
        `Content-Type: ${PROBLEM_JSON}; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}
