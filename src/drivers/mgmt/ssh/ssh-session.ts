/**
 * The remote command executor of the management drivers: one SSH connection to a node (the
 * maintained `ssh2` client), opened with retries and back-off while the node is still booting,
 * its host key judged by the policy before any credential is sent (host-keys.ts). Commands run
 * with a timeout, optionally under sudo; their output is kept bounded (the tail of each stream)
 * and their exit status checked; files are uploaded over SFTP. The operation's signal aborts
 * whatever is under way. Credentials are used here and never put in an error or a log.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type ClientChannel, type ConnectConfig } from 'ssh2';
import { type HostKeyPolicy, judgeHostKey } from './host-keys.ts';

export interface SshAuth {
  username: string;
  password?: string;
  /** A private key in OpenSSH or PEM format. */
  privateKey?: string;
  passphrase?: string;
}

export interface SshOptions {
  hostKeyPolicy: HostKeyPolicy;
  /** The fingerprint on record for this node (known hosts or the VNFC's pinned key). */
  knownFingerprint?: string;
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  /** Connection attempts in all (a node still booting refuses or does not answer). */
  attempts: number;
  /** First wait between attempts, doubled each time up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Bytes kept of stdout and of stderr each (their tail). */
  outputBytes: number;
  signal: AbortSignal;
}

export interface CommandResult {
  command: string;
  exitCode: number | null;
  signal?: string;
  stdout: string;
  stderr: string;
  /** Whether output beyond outputBytes was dropped (from the head). */
  truncated: boolean;
}

/** A failure the user can act on; `facts` hold what is safe to show (never credentials). */
export class SshError extends Error {
  readonly facts: Record<string, unknown>;
  constructor(message: string, facts: Record<string, unknown> = {}) {
    super(message);
    this.name = 'SshError';
    this.facts = facts;
  }
}

/** Connection failures worth another attempt: the node is not up (yet), or did not answer in time. */
const TRANSIENT =
  /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|Timed out while waiting for handshake|Connection lost before handshake/;

/** How long a killed command's channel may take to close before the connection is dropped. */
const KILL_GRACE_MS = 2000;

/**
 * Sends the KILL signal request on a session channel. ssh2's `signal()` sends nothing once the
 * channel's stdin is ended (which every command's is, so that none waits for input), while the
 * protocol allows it until the channel closes: the request is sent through its protocol object.
 */
function killChannel(channel: ClientChannel): void {
  const internal = channel as unknown as {
    outgoing?: { id?: number; state?: string };
    _client?: { _protocol?: { signal(id: number, name: string): void } };
  };
  const id = internal.outgoing?.id;
  const protocol = internal._client?._protocol;
  if (id === undefined || internal.outgoing?.state === 'closed' || !protocol) return;
  protocol.signal(id, 'KILL');
}

/** `sh -c` quoting: the command as one single-quoted word. */
export const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** A stream's tail, at most `limit` bytes. */
class Tail {
  #chunks: Buffer[] = [];
  #size = 0;
  truncated = false;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  push(chunk: Buffer) {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    while (this.#size > this.limit && this.#chunks.length) {
      const first = this.#chunks[0] as Buffer;
      const over = this.#size - this.limit;
      this.truncated = true;
      if (first.length <= over) {
        this.#chunks.shift();
        this.#size -= first.length;
      } else {
        this.#chunks[0] = first.subarray(over);
        this.#size -= over;
      }
    }
  }
  text = () => Buffer.concat(this.#chunks).toString('utf8');
}

export class SshSession {
  readonly host: string;
  readonly port: number;
  /** The node's host-key fingerprint, and whether it was learnt on this connection (accept-new). */
  readonly hostKey: { fingerprint: string; learnt: boolean };
  readonly #client: Client;
  readonly #auth: SshAuth;
  readonly #options: SshOptions;

  constructor(
    client: Client,
    where: { host: string; port: number },
    hostKey: { fingerprint: string; learnt: boolean },
    auth: SshAuth,
    options: SshOptions,
  ) {
    this.#client = client;
    this.host = where.host;
    this.port = where.port;
    this.hostKey = hostKey;
    this.#auth = auth;
    this.#options = options;
  }

  /**
   * Runs `command` (through the login shell). With `sudo`, under `sudo -S` fed the password (or
   * `sudo -n` for key authentication). Throws SshError on a non-zero exit unless `allowFailure`.
   */
  exec(
    command: string,
    opts: {
      sudo?: boolean;
      stdin?: string;
      allowFailure?: boolean;
      /** Each chunk of output as it arrives (for live progress; the result keeps the tails). */
      onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
    } = {},
  ): Promise<CommandResult> {
    const { commandTimeoutMs, outputBytes, signal } = this.#options;
    const password = this.#auth.password;
    const line = opts.sudo
      ? password !== undefined
        ? `sudo -S -p '' -- sh -c ${shellQuote(command)}`
        : `sudo -n -- sh -c ${shellQuote(command)}`
      : command;
    const where = `${this.#auth.username}@${this.host}:${this.port}`;
    return new Promise((resolve, reject) => {
      if (signal.aborted)
        return reject(new SshError(`The command on ${where} was cancelled before it started.`, { command }));
      const stdout = new Tail(outputBytes);
      const stderr = new Tail(outputBytes);
      let channel: ClientChannel | undefined;
      let failed: string | undefined;
      let grace: NodeJS.Timeout | undefined;
      const stop = (why: string) => {
        if (failed) return;
        failed = why;
        if (!channel) return this.#client.end();
        // Without a terminal, closing the channel would leave the remote command running: kill
        // its process group, and close (ending the connection) only if it does not end soon.
        killChannel(channel);
        grace = setTimeout(() => {
          channel?.close();
          this.#client.end();
        }, KILL_GRACE_MS);
      };
      const timer = setTimeout(
        () => stop(`timed out after ${commandTimeoutMs} ms (commandTimeoutMs)`),
        commandTimeoutMs,
      );
      const onAbort = () => stop('was cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        clearTimeout(timer);
        clearTimeout(grace);
        signal.removeEventListener('abort', onAbort);
      };
      const facts = (extra: Record<string, unknown> = {}) => ({
        host: this.host,
        port: this.port,
        command,
        stdout: stdout.text(),
        stderr: stderr.text(),
        ...extra,
      });
      this.#client.exec(line, (err, ch) => {
        if (err) {
          done();
          return reject(new SshError(`The command on ${where} could not start: ${err.message}.`, facts()));
        }
        channel = ch;
        ch.on('data', (c: Buffer) => {
          stdout.push(c);
          opts.onOutput?.('stdout', c);
        });
        ch.stderr.on('data', (c: Buffer) => {
          stderr.push(c);
          opts.onOutput?.('stderr', c);
        });
        if (opts.sudo && password !== undefined) ch.write(`${password}\n`);
        if (opts.stdin !== undefined) ch.write(opts.stdin);
        ch.end();
        ch.on('close', (code: number | null, sig?: string) => {
          done();
          const result: CommandResult = {
            command,
            exitCode: code ?? null,
            ...(sig ? { signal: sig } : {}),
            stdout: stdout.text(),
            stderr: stderr.text(),
            truncated: stdout.truncated || stderr.truncated,
          };
          const tail = (result.stderr.trim() || result.stdout.trim()).slice(-1024);
          if (failed)
            return reject(
              new SshError(`The command on ${where} ${failed}${tail ? `: ${tail}` : '.'}`, facts()),
            );
          if (code !== 0 && !opts.allowFailure) {
            const how = code === null ? `was killed${sig ? ` by ${sig}` : ''}` : `exited with status ${code}`;
            return reject(
              new SshError(
                `The command on ${where} ${how}${tail ? `: ${tail}` : '.'}`,
                facts({ exitCode: code }),
              ),
            );
          }
          resolve(result);
        });
      });
    });
  }

  /** Writes `content` to `remotePath` on the node over SFTP (mode 0600 unless given). */
  upload(content: string | Buffer, remotePath: string, mode = 0o600): Promise<void> {
    const where = `${this.#auth.username}@${this.host}:${this.port}`;
    return new Promise((resolve, reject) => {
      this.#client.sftp((err, sftp) => {
        if (err)
          return reject(
            new SshError(`SFTP to ${where} is not available: ${err.message}.`, { path: remotePath }),
          );
        sftp.writeFile(remotePath, content, { mode }, (werr) => {
          sftp.end();
          if (werr)
            return reject(
              new SshError(`Uploading ${remotePath} to ${where} failed: ${werr.message}.`, {
                path: remotePath,
              }),
            );
          resolve();
        });
      });
    });
  }

  close(): void {
    this.#client.end();
  }
}

/** One attempt: a ready client, or the reason it is not (with whether another attempt may help). */
function attempt(
  host: string,
  port: number,
  auth: SshAuth,
  options: SshOptions,
): Promise<{ client: Client; hostKey: { fingerprint: string; learnt: boolean } }> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    let keyRefusal: string | undefined;
    let hostKey: { fingerprint: string; learnt: boolean } | undefined;
    const onAbort = () => {
      client.end();
      reject(new SshError(`Connecting to ${host}:${port} was cancelled.`, { host, port }));
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    const config: ConnectConfig = {
      host,
      port,
      username: auth.username,
      readyTimeout: options.connectTimeoutMs,
      hostVerifier: (key: Buffer) => {
        const verdict = judgeHostKey(options.hostKeyPolicy, `${host}:${port}`, key, options.knownFingerprint);
        if (!verdict.ok) {
          keyRefusal = verdict.reason;
          return false;
        }
        hostKey = { fingerprint: verdict.fingerprint, learnt: verdict.learnt };
        return true;
      },
      ...(auth.password !== undefined ? { password: auth.password } : {}),
      ...(auth.privateKey !== undefined ? { privateKey: auth.privateKey } : {}),
      ...(auth.passphrase !== undefined ? { passphrase: auth.passphrase } : {}),
    };
    client.once('ready', () => {
      options.signal.removeEventListener('abort', onAbort);
      resolve({ client, hostKey: hostKey as { fingerprint: string; learnt: boolean } });
    });
    client.once('error', (err: Error & { level?: string }) => {
      options.signal.removeEventListener('abort', onAbort);
      client.end();
      if (keyRefusal)
        return reject(
          new SshError(`Refused to connect to ${host}:${port}: ${keyRefusal}.`, {
            host,
            port,
            hostKey: 'refused',
          }),
        );
      if (err.level === 'client-authentication') {
        return reject(
          new SshError(
            `${auth.username}@${host}:${port} refused the credentials (${auth.privateKey !== undefined ? 'key' : 'password'} authentication): check additionalParams.ssh.username and its password or private key.`,
            { host, port, auth: 'refused' },
          ),
        );
      }
      const transient = TRANSIENT.test(err.message) || TRANSIENT.test((err as { code?: string }).code ?? '');
      reject(Object.assign(new SshError(`${host}:${port}: ${err.message}`, { host, port }), { transient }));
    });
    try {
      client.connect(config);
    } catch (err) {
      options.signal.removeEventListener('abort', onAbort);
      reject(new SshError(`Cannot connect to ${host}:${port}: ${(err as Error).message}.`, { host, port }));
    }
  });
}

/**
 * Opens a session to `host:port`, trying `attempts` times with exponential back-off while the
 * node refuses or does not answer; a refused host key or refused credentials end it at once.
 */
export async function connectSsh(
  host: string,
  port: number,
  auth: SshAuth,
  options: SshOptions,
): Promise<SshSession> {
  let wait = options.backoffMs;
  let last: SshError | undefined;
  for (let n = 1; n <= options.attempts; n++) {
    if (options.signal.aborted)
      throw new SshError(`Connecting to ${host}:${port} was cancelled.`, { host, port });
    try {
      const { client, hostKey } = await attempt(host, port, auth, options);
      return new SshSession(client, { host, port }, hostKey, auth, options);
    } catch (err) {
      const transient = (err as { transient?: boolean }).transient === true;
      if (!transient) throw err;
      last = err as SshError;
      if (n === options.attempts) break;
      try {
        await sleep(wait, undefined, { signal: options.signal });
      } catch {
        throw new SshError(`Connecting to ${host}:${port} was cancelled.`, { host, port });
      }
      wait = Math.min(wait * 2, options.maxBackoffMs);
    }
  }
  throw new SshError(
    `${host}:${port} could not be reached over SSH after ${options.attempts} attempts (the last: ${last?.message ?? 'no answer'}); check that the node is up, that sshd listens on port ${port} and that Bosun can route to its address.`,
    { host, port, attempts: options.attempts },
  );
}
