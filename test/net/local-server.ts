/** Loopback HTTP servers for the outbound tests: started on a free port, closed with all their sockets. */
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createTcpServer } from 'node:net';

export interface LocalServer {
  /** `http://127.0.0.1:<port>` (or the host it listens on). */
  origin: string;
  port: number;
  /** Requests received, in order. */
  requests: IncomingMessage[];
  close(): Promise<void>;
}

export async function startHttp(handler: RequestListener, host = '127.0.0.1'): Promise<LocalServer> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A TCP server that accepts connections and never writes a byte. */
export async function startSilent(): Promise<LocalServer & { connections: () => number }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createTcpServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests: [],
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
