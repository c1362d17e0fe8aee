/**
 * An NFVO for the external-NFVO tests: a real HTTP (or HTTPS, optionally asking for a client
 * certificate) server on loopback whose answers each test decides. It records every request and
 * serves an OAuth 2.0 client-credentials token endpoint at /token whose tokens it can revoke;
 * `packageAnswer` serves one VNF package the SOL005 way (onboarded_vnf_packages by vnfdId).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** RFC 6749 §2.3.1: client id and secret are form-encoded before Basic encoding. */
const formEncode = (text: string) => new URLSearchParams({ x: text }).toString().slice(2);

export interface NfvoRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: unknown;
  /** CN of the client certificate, when one was presented (HTTPS). */
  clientCn?: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Bytes sent as they are (package content), instead of a JSON body. */
  raw?: Buffer;
  /** Never answer (a stalled NFVO). */
  hang?: boolean;
}

export type Handler = (req: NfvoRequest, nfvo: FakeNfvo) => Answer | Promise<Answer>;

export interface FakeNfvo {
  url: string;
  requests: NfvoRequest[];
  /** Requests other than the token endpoint's. */
  calls(): NfvoRequest[];
  /** Token requests. */
  tokenRequests(): NfvoRequest[];
  /** Tokens issued so far; `revoke` makes the NFVO refuse them with 401. */
  tokens: string[];
  revoked: Set<string>;
  handle: Handler;
  close(): Promise<void>;
}

export interface FakeNfvoOptions {
  tls?: { cert: string; key: string; ca: string; requestCert: boolean };
  /** The OAuth 2.0 client the token endpoint accepts (HTTP Basic client authentication). */
  client?: { id: string; secret: string };
}

/** A Grant for `request`: every added COMPUTE in `zone`, the flavours and images given. */
export function grantFor(
  request: Record<string, unknown>,
  options: {
    zone?: string;
    flavours?: Record<string, string>;
    images?: Record<string, string>;
    vimConnectionInfo?: Record<string, unknown>;
  } = {},
) {
  const add = (request.addResources ?? []) as { id: string; type: string }[];
  const zoneKey = 'nfvo-zone-1';
  return {
    id: `grant-${request.vnfLcmOpOccId}`,
    vnfInstanceId: request.vnfInstanceId,
    vnfLcmOpOccId: request.vnfLcmOpOccId,
    ...(options.zone ? { zones: [{ id: zoneKey, zoneId: options.zone }] } : {}),
    addResources: add.map((r) => ({
      resourceDefinitionId: r.id,
      ...(options.zone && r.type === 'COMPUTE' ? { zoneId: zoneKey } : {}),
    })),
    removeResources: ((request.removeResources ?? []) as { id: string }[]).map((r) => ({
      resourceDefinitionId: r.id,
    })),
    vimAssets: {
      computeResourceFlavours: Object.entries(options.flavours ?? {}).map(([vdu, flavour]) => ({
        vnfdVirtualComputeDescId: vdu,
        vimFlavourId: flavour,
      })),
      softwareImages: Object.entries(options.images ?? {}).map(([node, image]) => ({
        vnfdSoftwareImageId: node,
        vimSoftwareImageId: image,
      })),
    },
    ...(options.vimConnectionInfo ? { vimConnectionInfo: options.vimConnectionInfo } : {}),
    _links: { vnfLcmOpOcc: { href: 'x' }, vnfInstance: { href: 'y' } },
  };
}

export async function startFakeNfvo(handle: Handler, options: FakeNfvoOptions = {}): Promise<FakeNfvo> {
  const requests: NfvoRequest[] = [];
  let issued = 0;
  const nfvo: FakeNfvo = {
    url: '',
    requests,
    calls: () => requests.filter((r) => r.path !== '/token'),
    tokenRequests: () => requests.filter((r) => r.path === '/token'),
    tokens: [],
    revoked: new Set(),
    handle,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  const respond = (res: ServerResponse, answer: Answer) => {
    if (answer.hang) return;
    if (answer.raw) {
      res.writeHead(answer.status, { 'content-type': 'application/zip', ...answer.headers });
      res.end(answer.raw);
      return;
    }
    const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...answer.headers,
    });
    res.end(body);
  };
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const socket = req.socket as TLSSocket;
    const peer = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
    const recorded: NfvoRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      json,
      ...(peer?.subject?.CN ? { clientCn: String(peer.subject.CN) } : {}),
    };
    requests.push(recorded);
    if (recorded.path === '/token') {
      const expected = options.client
        ? `Basic ${Buffer.from(`${formEncode(options.client.id)}:${formEncode(options.client.secret)}`).toString('base64')}`
        : undefined;
      if (expected && req.headers.authorization !== expected) {
        respond(res, { status: 401, body: { error: 'invalid_client' } });
        return;
      }
      const token = `token-${++issued}`;
      nfvo.tokens.push(token);
      respond(res, { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: 3600 } });
      return;
    }
    if (options.client) {
      const token = req.headers.authorization?.replace(/^Bearer /, '');
      if (!token || !nfvo.tokens.includes(token) || nfvo.revoked.has(token)) {
        respond(res, { status: 401, body: { status: 401, detail: 'token refused' } });
        return;
      }
    }
    respond(res, await nfvo.handle(recorded, nfvo));
  };
  const server = options.tls
    ? createHttpsServer(
        {
          cert: options.tls.cert,
          key: options.tls.key,
          ca: options.tls.ca,
          requestCert: options.tls.requestCert,
          rejectUnauthorized: options.tls.requestCert,
        },
        listener,
      )
    : createHttpServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  nfvo.url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  return nfvo;
}

/**
 * The NFVO's answers about one package: the list filtered by vnfdId (with its checksum) and its
 * content; undefined for other requests. `checksum` overrides the declared one.
 */
export function packageAnswer(
  req: NfvoRequest,
  pkg: { vnfdId: string; zip: Buffer; checksum?: { algorithm: string; hash: string } },
): Answer | undefined {
  const base = '/vnfpkgm/v2/onboarded_vnf_packages';
  if (req.method !== 'GET' || !req.path.startsWith(base)) return undefined;
  if (req.path === `${base}/${pkg.vnfdId}/package_content`) return { status: 200, raw: pkg.zip };
  const filter = new URL(req.path, 'http://x').searchParams.get('filter');
  if (req.path.startsWith(`${base}?`)) {
    const listed = filter === `(eq,vnfdId,${pkg.vnfdId})`;
    return {
      status: 200,
      body: listed
        ? [
            {
              id: `nfvo-pkg-${pkg.vnfdId}`,
              vnfdId: pkg.vnfdId,
              onboardingState: 'ONBOARDED',
              checksum: pkg.checksum ?? {
                algorithm: 'SHA-256',
                hash: createHash('sha256').update(pkg.zip).digest('hex'),
              },
            },
          ]
        : [],
    };
  }
  return { status: 404, body: { status: 404, detail: 'no such package' } };
}
