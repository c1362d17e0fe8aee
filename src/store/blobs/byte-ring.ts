/**
 * A fixed ring of shared memory that carries a byte stream from the event loop to hashing
 * threads: one writer, a few readers, each reader at its own pace. The writer copies every
 * chunk in once (no per-chunk allocation, no message per chunk) and waits — asynchronously —
 * only when the slowest reader is a whole ring behind; readers block on a futex while empty.
 *
 * Shared layout: positions (total bytes written; total bytes consumed per reader) as 64-bit
 * integers, three 32-bit words (data sequence, space sequence, state) used with Atomics.wait /
 * notify, then the data.
 */

/** Bytes written between two wake-ups of the readers. */
const WAKE_EVERY = 512 * 1024;
const DATA = 0;
const SPACE = 1;
const STATE = 2;
// State 0: running.
const ENDED = 1;
const ABORTED = 2;

export interface RingBuffers {
  control: SharedArrayBuffer;
  signals: SharedArrayBuffer;
  data: SharedArrayBuffer;
  readers: number;
}

export function createRing(capacity: number, readers: number): RingBuffers {
  return {
    control: new SharedArrayBuffer(8 * (1 + readers)),
    signals: new SharedArrayBuffer(4 * 3),
    data: new SharedArrayBuffer(capacity),
    readers,
  };
}

/** The event-loop side. */
export class RingWriter {
  readonly #positions: BigInt64Array;
  readonly #signals: Int32Array;
  readonly #data: Buffer;
  readonly #readers: number;
  /** Readers are woken once this many bytes are waiting, not for every chunk. */
  readonly #wakeEvery: number;
  #written = 0;
  /** `#written` when readers were last woken. */
  #woken = 0;
  /** Set when a reader went away: writes then fail instead of waiting forever. */
  #failure: Error | undefined;

  constructor(ring: RingBuffers) {
    this.#positions = new BigInt64Array(ring.control);
    this.#signals = new Int32Array(ring.signals);
    this.#data = Buffer.from(ring.data);
    this.#readers = ring.readers;
    this.#wakeEvery = Math.max(1, Math.min(WAKE_EVERY, Math.floor(this.#data.length / 4)));
  }

  get written(): number {
    return this.#written;
  }

  /** Copies the chunk in; a promise only when it had to wait for room (backpressure). */
  write(chunk: Uint8Array): Promise<void> | undefined {
    let offset = 0;
    const capacity = this.#data.length;
    while (offset < chunk.length) {
      if (this.#failure) throw this.#failure;
      const spaceSeen = Atomics.load(this.#signals, SPACE);
      const free = capacity - (this.#written - this.#slowestReader());
      if (free === 0) {
        this.#wake();
        const rest = chunk.subarray(offset);
        return this.#room(spaceSeen).then(() => this.write(rest));
      }
      const at = this.#written % capacity;
      const n = Math.min(free, chunk.length - offset, capacity - at);
      this.#data.set(chunk.subarray(offset, offset + n), at);
      this.#written += n;
      Atomics.store(this.#positions, 0, BigInt(this.#written));
      if (this.#written - this.#woken >= this.#wakeEvery) this.#wake();
      offset += n;
    }
    return undefined;
  }

  /**
   * Wakes readers waiting for data. Not per chunk: a reader faster than the socket would wake
   * (a futex call, a context switch) for every 64 KiB; a reader that went to sleep with less
   * than `#wakeEvery` bytes waiting gets them at the next wake or at the end.
   */
  #wake(): void {
    this.#woken = this.#written;
    Atomics.add(this.#signals, DATA, 1);
    Atomics.notify(this.#signals, DATA);
  }

  /** No more bytes: readers finish what is in the ring. */
  end(): void {
    this.#setState(ENDED);
  }

  /** Readers stop at once; their results are not wanted. Later writes throw. */
  abort(): void {
    this.#setState(ABORTED);
    this.fail(new Error('the stream was aborted'));
  }

  /** A reader died: pending and later writes reject with this error. */
  fail(error: Error): void {
    this.#failure ??= error;
    Atomics.add(this.#signals, SPACE, 1);
    Atomics.notify(this.#signals, SPACE);
  }

  #setState(state: number): void {
    Atomics.store(this.#signals, STATE, state);
    Atomics.add(this.#signals, DATA, 1);
    Atomics.notify(this.#signals, DATA);
  }

  #slowestReader(): number {
    let slowest = this.#written;
    for (let i = 0; i < this.#readers; i++) {
      slowest = Math.min(slowest, Number(Atomics.load(this.#positions, 1 + i)));
    }
    return slowest;
  }

  async #room(spaceSeen: number): Promise<void> {
    const waited = Atomics.waitAsync(this.#signals, SPACE, spaceSeen, 1000);
    if (waited.async) await waited.value;
    if (this.#failure) throw this.#failure;
  }
}

export type DrainOutcome = 'ended' | 'aborted' | 'empty';

export interface RingReader {
  /**
   * Calls `consume` with every byte of the stream, in order, in slices of at most `slice`
   * bytes (views into the ring: valid only during the call), blocking while the ring is empty.
   * Returns at the end of the stream ('ended'), when the writer aborted ('aborted'), or — with
   * `block: false` — as soon as the ring is empty ('empty').
   */
  drain(consume: (bytes: Buffer) => void, options?: { slice?: number; block?: boolean }): DrainOutcome;
}

/**
 * The hashing-thread side. Self-contained (no reference outside its body, the layout numbers
 * written out): hashing threads run it from its source text (see hash-thread.ts).
 */
export function ringReader(ring: RingBuffers, index: number): RingReader {
  const positions = new BigInt64Array(ring.control);
  const signals = new Int32Array(ring.signals);
  const data = Buffer.from(ring.data);
  const [dataSignal, spaceSignal, stateSignal, ended, aborted] = [0, 1, 2, 1, 2];
  let read = 0;
  return {
    drain(consume, options = {}) {
      const slice = options.slice ?? 2 ** 20;
      const capacity = data.length;
      for (;;) {
        const dataSeen = Atomics.load(signals, dataSignal);
        // State before position: the writer ends only after its last write, so once ended is
        // seen, the position read next is final.
        const state = Atomics.load(signals, stateSignal);
        const written = Number(Atomics.load(positions, 0));
        if (state === aborted) return 'aborted';
        if (written > read) {
          const at = read % capacity;
          const n = Math.min(written - read, capacity - at, slice);
          consume(data.subarray(at, at + n));
          read += n;
          Atomics.store(positions, 1 + index, BigInt(read));
          Atomics.add(signals, spaceSignal, 1);
          Atomics.notify(signals, spaceSignal);
          continue;
        }
        if (state === ended) return 'ended';
        if (options.block === false) return 'empty';
        Atomics.wait(signals, dataSignal, dataSeen);
      }
    },
  };
}
