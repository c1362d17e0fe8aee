/**
 * VNF packages fetched through the external NFVO (SOL005 /vnfpkgm/v2 onboarded_vnf_packages): an
 * instance created for a vnfdId that no package of the project has is not refused at once when an
 * external NFVO is configured. The NFVO's package of that vnfdId is looked up (its checksum),
 * its content is taken from a package fetched earlier with the same checksum (any project) or
 * else downloaded once, checked against that checksum, and stored and onboarded as an upload is
 * (storeUpload, then the onboarding worker); the create goes on once it is ONBOARDED. Concurrent
 * creates of the same vnfdId in a process share one fetch.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { failure } from '../packages/failure.ts';
import { findPackage, packageBlobKey } from '../packages/package-record.ts';
import { createPackage, deletePackage } from '../packages/service.ts';
import { storeUpload } from '../packages/store-upload.ts';
import { type HashAlgorithm, NODE_HASH_NAMES } from '../sol/hash-algorithms.ts';
import { ApiError } from '../sol/problem.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { Database } from '../store/db/database.ts';
import { NfvoUnavailable } from './nfvo.ts';
import type { NfvoClient } from './nfvo-client.ts';

export interface NfvoPackagesDeps {
  db: Database;
  blobs: BlobStore;
  client: NfvoClient;
  /** Wakes this process's onboarding worker (none in an api-only process: another one onboards). */
  wakeOnboarding(): void;
  settings: {
    vnfpkgmApiVersion: string;
    maxUploadBytes: number;
    leaseMs: number;
    /** Longest wait for the fetched package to be onboarded. */
    onboardTimeoutMs: number;
    pollIntervalMs: number;
  };
}

/** What Bosun reads of a VnfPkgInfo (SOL005 §9.5.2.5). */
const PkgInfo = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255 }),
  vnfdId: Type.String({ minLength: 1, maxLength: 255 }),
  checksum: Type.Object({
    algorithm: Type.String({ minLength: 1, maxLength: 32 }),
    hash: Type.String({ pattern: '^[0-9a-fA-F]{56,128}$' }),
  }),
});

const ALGORITHMS: Readonly<Record<string, HashAlgorithm>> = {
  sha224: 'sha-224',
  sha256: 'sha-256',
  sha384: 'sha-384',
  sha512: 'sha-512',
};

/** A filter value as SOL013 §5.2.2 wants it: quoted when it holds a character of the grammar. */
const filterValue = (value: string) => (/[,()'~]/.test(value) ? `'${value.replaceAll("'", "''")}'` : value);

/** The stream, failing at its end when its digest is not the one declared. */
function checked(body: Readable, algorithm: HashAlgorithm, expected: string, what: string): Readable {
  async function* check(): AsyncGenerator<Buffer> {
    const hash = createHash(NODE_HASH_NAMES[algorithm]);
    for await (const chunk of body) {
      hash.update(chunk as Buffer);
      yield chunk as Buffer;
    }
    if (hash.digest('hex') !== expected.toLowerCase()) {
      throw new Error(
        `the content of ${what} does not match the ${algorithm} checksum the NFVO declared (${expected})`,
      );
    }
  }
  return Readable.from(check(), { objectMode: false });
}

export class NfvoPackages {
  readonly #deps: NfvoPackagesDeps;
  readonly #inFlight = new Map<string, Promise<void>>();

  constructor(deps: NfvoPackagesDeps) {
    this.#deps = deps;
  }

  /**
   * Makes the NFVO's package of `vnfdId` an ONBOARDED package of `project` when the project has
   * none. Returns without one when the NFVO has none either (the create is then refused as
   * without an NFVO); throws ApiError when the NFVO cannot be asked or its package not onboarded.
   */
  async ensure(project: string, vnfdId: string): Promise<void> {
    if (await this.#onboarded(project, vnfdId)) return;
    const key = `${project}\u0000${vnfdId}`;
    let pending = this.#inFlight.get(key);
    if (!pending) {
      pending = this.#fetch(project, vnfdId).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pending);
    }
    await pending;
  }

  async #onboarded(project: string, vnfdId: string): Promise<boolean> {
    const row = await this.#deps.db.kysely
      .selectFrom('vnf_packages')
      .select('id')
      .where('project_id', '=', project)
      .where('vnfd_id', '=', vnfdId)
      .where('onboarding_state', '=', 'ONBOARDED')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The NFVO's package of `vnfdId`, or undefined when it has none. */
  async #lookup(vnfdId: string): Promise<{ id: string; algorithm: HashAlgorithm; hash: string } | undefined> {
    const { client, settings } = this.#deps;
    const filter = encodeURIComponent(`(eq,vnfdId,${filterValue(vnfdId)})`);
    const answer = await client.call({
      method: 'GET',
      target: `/vnfpkgm/v2/onboarded_vnf_packages?filter=${filter}`,
      version: settings.vnfpkgmApiVersion,
    });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200 || !Array.isArray(answer.json)) {
      throw new NfvoUnavailable(
        502,
        `NFVO call ${answer.what} answered HTTP ${answer.status}${Array.isArray(answer.json) ? '' : ' without a list of VNF packages'}`,
      );
    }
    const found = answer.json.find((p) => (p as { vnfdId?: unknown } | null)?.vnfdId === vnfdId);
    if (found === undefined) return undefined;
    if (!Value.Check(PkgInfo, found)) {
      const problem = [...Value.Errors(PkgInfo, found)][0];
      throw new NfvoUnavailable(
        502,
        `NFVO call ${answer.what}: its VNF package of vnfdId ${vnfdId} is not usable (${problem?.path}: ${problem?.message})`,
      );
    }
    const algorithm = ALGORITHMS[found.checksum.algorithm.toLowerCase().replace(/[^a-z0-9]/g, '')];
    if (!algorithm) {
      throw new NfvoUnavailable(
        502,
        `NFVO package ${found.id} has a ${found.checksum.algorithm} checksum, which Bosun cannot check (SHA-224, -256, -384 or -512)`,
      );
    }
    return { id: found.id, algorithm, hash: found.checksum.hash.toLowerCase() };
  }

  async #fetch(project: string, vnfdId: string): Promise<void> {
    const { db, blobs, client, settings } = this.#deps;
    const info = await this.#lookup(vnfdId);
    if (!info) return;
    const checksum = `${info.algorithm}:${info.hash}`;
    const what = `NFVO package ${info.id} (vnfdId ${vnfdId})`;
    // The same content fetched before, for any project: taken from the blob store.
    const cached = await db.kysely
      .selectFrom('vnf_packages')
      .select('id')
      .where('nfvo_checksum', '=', checksum)
      .where('onboarding_state', '=', 'ONBOARDED')
      .executeTakeFirst();
    const pkg = await createPackage(db.kysely, project);
    await db.kysely
      .updateTable('vnf_packages')
      .set({ nfvo_checksum: checksum })
      .where('id', '=', pkg.id)
      .execute();
    let content: Readable;
    try {
      content = cached
        ? await blobs.get(packageBlobKey(cached.id))
        : (
            await client.download(
              `/vnfpkgm/v2/onboarded_vnf_packages/${encodeURIComponent(vnfdId)}/package_content`,
              settings.vnfpkgmApiVersion,
              settings.maxUploadBytes,
            )
          ).body;
    } catch (err) {
      await deletePackage(db, blobs, pkg).catch(() => {});
      throw err;
    }
    try {
      await storeUpload(
        { db, blobs, maxUploadBytes: settings.maxUploadBytes, leaseMs: settings.leaseMs },
        pkg.id,
        checked(content, info.algorithm, info.hash, what),
        { failureOf: (err) => failure(502, `Fetching ${what}: ${(err as Error).message}`) },
      );
    } catch (err) {
      throw new NfvoUnavailable(
        502,
        `Fetching ${what} into VNF package ${pkg.id} failed: ${(err as Error).message}`,
      );
    }
    this.#deps.wakeOnboarding();
    await this.#onboarding(project, vnfdId, pkg.id, what);
  }

  /** Waits for the fetched package's onboarding; a package of the vnfdId onboarded meanwhile also does. */
  async #onboarding(project: string, vnfdId: string, id: string, what: string): Promise<void> {
    const { db, blobs, settings } = this.#deps;
    const until = Date.now() + settings.onboardTimeoutMs;
    for (;;) {
      const pkg = await findPackage(db.kysely, id);
      if (pkg?.onboardingState === 'ONBOARDED') {
        if (pkg.vnfdId === vnfdId) return;
        throw new ApiError(
          422,
          `${what} is VNF package ${id} with vnfdId ${pkg.vnfdId}, not ${vnfdId}: the NFVO served another package.`,
        );
      }
      if (!pkg || (pkg.onboardingState === 'CREATED' && pkg.onboardingFailure)) {
        // Another process fetched the same vnfdId first: use that one, drop this duplicate.
        if (await this.#onboarded(project, vnfdId)) {
          if (pkg) await deletePackage(db, blobs, pkg).catch(() => {});
          return;
        }
        throw new ApiError(
          422,
          `${what} was fetched into VNF package ${id}, whose onboarding failed: ${pkg?.onboardingFailure?.detail ?? 'it was deleted'}`,
        );
      }
      if (Date.now() > until) {
        throw new ApiError(
          504,
          `${what} was fetched into VNF package ${id}, which is still ${pkg.onboardingState} after ${settings.onboardTimeoutMs} ms; create the instance again once it is ONBOARDED.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, settings.pollIntervalMs));
    }
  }
}
