/**
 * Merges reads of one object type into few requests. Reads that arrive together (the engine runs
 * a handful of steps at once) go out as one GET of a comma list of up to `maxBatchSize` names.
 * When reads of objects this process has not just written keep coming (a refresh), one GET of
 * ALLRESOURCES fills a snapshot that answers the following reads for `cacheTtlMs`.
 *
 * Freshness rule: a read is only answered from a fetch that started after the last write this
 * client made to that object had finished (see {@link WriteLog}), so a read never returns data
 * older than a write that came before it. Writes by others show up after at most `cacheTtlMs`.
 */
import type { WriteLog } from "./read-batcher-writes";

/** Tuning of a {@link ReadBatcher}; the defaults suit a management node and a Pulumi engine. */
export interface ReadBatcherTuning {
  /** Names per batched request. Default 100. */
  readonly maxBatchSize?: number | undefined;
  /** Milliseconds to wait for more reads before sending a batch; 0 = the next turn of the event loop. Default 0. */
  readonly windowMs?: number | undefined;
  /** Reads of objects not written recently, within `rateWindowMs`, that switch to ALLRESOURCES. Default 32. */
  readonly allResourcesThreshold?: number | undefined;
  /** Default 2 000. */
  readonly rateWindowMs?: number | undefined;
  /** How long an ALLRESOURCES snapshot answers reads. Default 5 000. */
  readonly cacheTtlMs?: number | undefined;
}

export interface ReadBatcherOptions<T> extends ReadBatcherTuning {
  /** The object type, as the write log names it ("node"). */
  readonly type: string;
  /** Reads the named objects in one request; names missing from the map do not exist. */
  readonly fetchMany: (names: readonly string[]) => Promise<ReadonlyMap<string, T>>;
  /** Reads every object of the type. */
  readonly fetchAll: () => Promise<ReadonlyMap<string, T>>;
  readonly writes: WriteLog;
  readonly now: () => number;
}

/** Counters of one batcher. */
export interface ReadBatcherStats {
  /** Reads asked for. */
  reads: number;
  /** Batched requests sent (each may be several HTTP requests when names are missing). */
  batches: number;
  /** ALLRESOURCES requests sent. */
  allResources: number;
  /** Reads answered from a snapshot or a fetch already under way. */
  shared: number;
}

interface Fetch<T> {
  /** The write sequence number when the fetch started. */
  readonly seq: number;
  readonly startedAt: number;
  readonly result: Promise<ReadonlyMap<string, T>>;
}

interface Waiter<T> {
  readonly name: string;
  resolve(value: T | undefined): void;
  reject(error: unknown): void;
}

export class ReadBatcher<T> {
  readonly stats: ReadBatcherStats = { reads: 0, batches: 0, allResources: 0, shared: 0 };
  readonly #options: ReadBatcherOptions<T>;
  readonly #maxBatchSize: number;
  readonly #windowMs: number;
  readonly #threshold: number;
  readonly #rateWindowMs: number;
  readonly #ttlMs: number;
  #pending: Waiter<T>[] = [];
  #flushScheduled = false;
  /** The latest ALLRESOURCES answer. */
  #snapshot:
    | { readonly seq: number; readonly startedAt: number; readonly objects: ReadonlyMap<string, T> }
    | undefined;
  /** The ALLRESOURCES request under way. */
  #allFetch: Fetch<T> | undefined;
  /** No ALLRESOURCES before this time (after one failed). */
  #allPausedUntil = Number.NEGATIVE_INFINITY;
  /** Arrival times of recent cold reads (objects not written within the rate window). */
  #coldReads: number[] = [];

  constructor(options: ReadBatcherOptions<T>) {
    this.#options = options;
    this.#maxBatchSize = options.maxBatchSize ?? 100;
    this.#windowMs = options.windowMs ?? 0;
    this.#threshold = options.allResourcesThreshold ?? 32;
    this.#rateWindowMs = options.rateWindowMs ?? 2_000;
    this.#ttlMs = options.cacheTtlMs ?? 5_000;
  }

  /** The object named `name`, or `undefined` when it does not exist. */
  async get(name: string): Promise<T | undefined> {
    this.stats.reads += 1;
    const now = this.#options.now();
    const written = this.#options.writes.lastWrite(this.#options.type, name);
    const busy = this.#countCold(now, written.at);
    const canStartAll = busy && this.#allFetch === undefined && now >= this.#allPausedUntil;
    const snapshot = this.#snapshot;
    if (snapshot !== undefined && snapshot.seq >= written.seq && now - snapshot.startedAt < this.#ttlMs) {
      // Renew a snapshot in the background before it expires while reads keep coming, so that
      // they never wait for it.
      if (canStartAll && now - snapshot.startedAt >= this.#ttlMs / 2) this.#startAll(now);
      this.stats.shared += 1;
      return snapshot.objects.get(name);
    }
    const under = this.#allFetch;
    const fetch =
      under !== undefined && under.seq >= written.seq ? under : canStartAll ? this.#startAll(now) : undefined;
    if (fetch !== undefined) {
      if (fetch === under) this.stats.shared += 1;
      try {
        return (await fetch.result).get(name);
      } catch {
        // Fall back to a batch.
      }
    }
    return this.#enqueue(name);
  }

  /** Counts a read of an object not written within the rate window; true when the rate is high. */
  #countCold(now: number, writtenAt: number): boolean {
    if (now - writtenAt < this.#rateWindowMs) return false;
    const cutoff = now - this.#rateWindowMs;
    let drop = 0;
    while (drop < this.#coldReads.length && (this.#coldReads[drop] ?? 0) <= cutoff) drop += 1;
    if (drop > 0) this.#coldReads.splice(0, drop);
    this.#coldReads.push(now);
    return this.#coldReads.length >= this.#threshold;
  }

  #startAll(now: number): Fetch<T> {
    this.stats.allResources += 1;
    const fetch: Fetch<T> = {
      seq: this.#options.writes.seq,
      startedAt: now,
      result: this.#options.fetchAll(),
    };
    this.#allFetch = fetch;
    fetch.result.then(
      (objects) => {
        this.#allFetch = undefined;
        this.#snapshot = { seq: fetch.seq, startedAt: fetch.startedAt, objects };
      },
      () => {
        this.#allFetch = undefined;
        // The waiters fall back to batches; do not try again until a snapshot would have expired.
        this.#allPausedUntil = this.#options.now() + this.#ttlMs;
      },
    );
    return fetch;
  }

  #enqueue(name: string): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ name, resolve, reject });
      if (this.#pending.length >= this.#maxBatchSize) this.#flush();
      else if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        if (this.#windowMs > 0) setTimeout(() => this.#flush(), this.#windowMs);
        else setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#flushScheduled = false;
    const waiters = this.#pending;
    this.#pending = [];
    if (waiters.length === 0) return;
    // The write log only grows, so a fetch starting now is fresh enough for every waiter.
    const byName = new Map<string, Waiter<T>[]>();
    for (const waiter of waiters) {
      const list = byName.get(waiter.name);
      if (list === undefined) byName.set(waiter.name, [waiter]);
      else list.push(waiter);
    }
    const names = [...byName.keys()];
    for (let start = 0; start < names.length; start += this.#maxBatchSize) {
      const chunk = names.slice(start, start + this.#maxBatchSize);
      this.stats.batches += 1;
      this.#options.fetchMany(chunk).then(
        (objects) => {
          for (const name of chunk)
            for (const waiter of byName.get(name) ?? []) waiter.resolve(objects.get(name));
        },
        (error: unknown) => {
          for (const name of chunk) for (const waiter of byName.get(name) ?? []) waiter.reject(error);
        },
      );
    }
  }
}
