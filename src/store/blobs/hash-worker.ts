/**
 * A hashing thread (see stream-hasher.ts): reads the content from the shared ring, runs its
 * part of the hash plan, posts the results, and ends. An aborted put ends it without results.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type RingBuffers, RingReader } from './byte-ring.ts';
import { HashJobs, type HashPlan } from './hash-jobs.ts';

export interface HashWorkerData {
  ring: RingBuffers;
  reader: number;
  plan: HashPlan;
}

const data = workerData as HashWorkerData;
const jobs = new HashJobs(data.plan);
const reader = new RingReader(data.ring, data.reader);
if (reader.drain((bytes) => jobs.update(bytes)) === 'ended') parentPort?.postMessage(jobs.results());
