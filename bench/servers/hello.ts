/** The yardstick: a bare fastify hello-world on loopback. Prints its URL on stdout. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
process.stdout.write(`http://127.0.0.1:${port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
