/**
 * Merges reads of one object type into few requests. Reads that arrive while a read of the type is
 * in flight wait for it and then go out together as one GET of a comma list of up to
 * `maxBatchSize` names (see coalescer.ts). When reads of objects this process has not just written
 * keep coming (a refresh), one GET of ALLRESOURCES fills a snapshot that answers the following
 * reads for `cacheTtlMs` (longer when the snapshot was slow to get).
 *
 * When to read the whole type is decided from cost (xcat-behavior.md section 10: any request
 * ~0.3 s, a named list adds ~0.003 s per name, ALLRESOURCES ~0.0017 s per object of the type):
 * after a few cold batches the batcher learns the size of the type from one name list, and reads
 * the whole type once the cold batches it has sent cost about what that read costs (the
 * "rent or buy" rule, never more than twice the best choice). A stack that manages three nodes of
 * a 5,000-node cluster never reads the cluster; a refresh of the whole cluster reads it once.
 * The old trigger, many cold reads within a short time (only a fast server answers that quickly),
 * stays as a second way in.
 *
 * Group reads ({@link ReadBatcher.getGroup}: a NodeSet's nodes, read as one) have a queue of their
 * own: groups that arrive while a group read is in flight go out together as one request for all
 * their names (the caller writes it as a compact noderange, see `fetchGroup`), so the sets of a
 * refresh, or the read-backs of a roll, share requests. A group's names count in the rent-or-buy
 * cost like a batch's, but a group is one read for the rate trigger, never one per name: a lone
 * rack of 40 nodes would otherwise look like 40 cold reads at once and read a 10,000-node type.
 * Groups read cold also buy the whole type once their names reach an eighth of it (see
 * GROUP_COVERAGE_TO_BUY): a refresh of a cluster kept as NodeSets reads it after a few merged
 * reads, not after ~15.
 *
 * Whole-type reads pay off only while this client writes nothing that makes them stale: cold
 * batches sent before this client's last write to the whole type (a noderange or group write, a
 * table write) no longer count toward reading it, so an `up` that reads sets between writes (a
 * NodeSet's check for existing nodes before it creates them) does not read the type again and
 * again.
 *
 * Freshness rule: a read is only answered from a fetch that started after the last write this
 * client made to that object had finished (see {@link WriteLog}), so a read never returns data
 * older than a write that came before it. Writes by others show up after at most `cacheTtlMs`.
 */
import { Coalescer, type HoldPolicy, type Outcome } from "./coalescer";
import type { WriteLog } from "./read-batcher-writes";

/** Tuning of a {@link ReadBatcher}; the defaults suit a management node and a Pulumi engine. */
export interface ReadBatcherTuning {
  /** Names per batched request. Default 100. */
  readonly maxBatchSize?: number | undefined;
  /** Milliseconds a read waits for others when no read is in flight; 0 = the next turn of the event loop. Default 0. */
  readonly windowMs?: number | undefined;
  /** Reads of objects not written recently, within `rateWindowMs`, that switch to ALLRESOURCES. Default 32. */
  readonly allResourcesThreshold?: number | undefined;
  /** Default 2 000. */
  readonly rateWindowMs?: number | undefined;
  /**
   * Cold batches (within `costWindowMs`) after which the size of the type is asked for, once they
   * held at least `sizeProbeNames` names. Default 2: at the engine's default of 8 steps a batch
   * holds at most 8 reads, so waiting for 4 batches of them made a refresh of 200 nodes cost 6
   * node requests where 4 do (issue #25).
   */
  readonly sizeProbeAfter?: number | undefined;
  /**
   * Cold names read in batches before the size of the type is asked for. Default 8, what one batch
   * holds at the engine's default of 8 steps (2 CPUs): a stack of a few nodes never asks, and a
   * refresh of 200 nodes on a real xCAT 2.19, whose first batches held 1 and 7 names, asks after
   * those two instead of after a third (16 names), one request less (issue #25).
   */
  readonly sizeProbeNames?: number | undefined;
  /** How long cold batches count toward the cost of reading the whole type. Default 60 000. */
  readonly costWindowMs?: number | undefined;
  /** How long an ALLRESOURCES snapshot answers reads. Default 5 000. */
  readonly cacheTtlMs?: number | undefined;
}

export interface ReadBatcherOptions<T> extends ReadBatcherTuning {
  /** Hold reads in a free lane while more are coming (see coalescer.ts); without it `windowMs` applies. */
  readonly hold?: HoldPolicy | undefined;
  /** The object type, as the write log names it ("node"). */
  readonly type: string;
  /** Reads the named objects in one request; names missing from the map do not exist. */
  readonly fetchMany: (names: readonly string[]) => Promise<ReadonlyMap<string, T>>;
  /** Reads every object of the type. */
  readonly fetchAll: () => Promise<ReadonlyMap<string, T>>;
  /**
   * Reads the named objects of one or more groups (see {@link ReadBatcher.getGroup}) in as few
   * requests as the server takes; names missing from the map do not exist. Without it, groups are
   * read with `fetchMany`.
   */
  readonly fetchGroup?: ((names: readonly string[]) => Promise<ReadonlyMap<string, T>>) | undefined;
  /** How many objects the type has (one cheap name list); without it only the rate trigger reads the whole type. */
  readonly countAll?: (() => Promise<number>) | undefined;
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
  /** Size probes (name lists) sent. */
  sizeProbes: number;
  /** Group reads asked for (see {@link ReadBatcher.getGroup}). */
  groupReads: number;
  /** Merged requests of groups sent. */
  groupBatches: number;
}

/** Relative costs of xCAT reads in units of one request's base cost (xcat-behavior.md section 10). */
const COST = {
  /** Each name of a comma-list GET: 100 names add ~0.3 s to a 0.3 s request. */
  perNamedObject: 0.01,
  /** Each object of an ALLRESOURCES GET: 1,000 nodes take ~2 s, about 6 base costs more. */
  perTypeObject: 0.006,
} as const;

/**
 * Groups one merged group read holds at most: a batch is one read of all their names, so this
 * only bounds how long one answer can take (100 racks of 40 nodes: ~12 s on a real xCAT, which
 * reads ~0.003 s per named node, xcat-behavior.md section 10).
 */
const GROUPS_PER_BATCH = 100;

/**
 * Groups read cold (a refresh of NodeSets) buy the whole type once their names reach 1/8 of it
 * (1/GROUP_COVERAGE_TO_BUY): 1,250 of 10,000 nodes, about 31 racks of 40. The cost rule alone
 * waits until the merged group reads have cost what the whole type costs, ~15 reads of 8 racks at
 * the engine's 8 steps and more where fewer racks meet in one read (the plain emulator's fast
 * answers: 23), which a refresh of a cluster kept as NodeSets pays every time. Sets name their
 * nodes in bulk, so a stack whose sets have already named an eighth of the type most likely
 * manages the cluster; reading the rest by name would cost at least 0.01 per name against
 * 0.006 per object of the whole type, plus a request per merged read. The price when it does not
 * (a stack of sets holding 1/8 to ~2/3 of the type): one whole-type read more than needed, at
 * 10,000 nodes ~61 base costs (~18 s of a real management node's CPU, xcat-behavior.md §10),
 * once per refresh. A lone set, and a few racks of a large cluster, never come near it.
 */
const GROUP_COVERAGE_TO_BUY = 8;

/** The entries of `objects` named in `names`. */
function pick<T>(objects: ReadonlyMap<string, T>, names: readonly string[]): Map<string, T> {
  const found = new Map<string, T>();
  for (const name of names) {
    const object = objects.get(name);
    if (object !== undefined) found.set(name, object);
  }
  return found;
}

interface Fetch<T> {
  /** The write sequence number when the fetch started. */
  readonly seq: number;
  readonly startedAt: number;
  readonly result: Promise<ReadonlyMap<string, T>>;
}

export class ReadBatcher<T> {
  readonly stats: ReadBatcherStats = {
    reads: 0,
    batches: 0,
    allResources: 0,
    shared: 0,
    sizeProbes: 0,
    groupReads: 0,
    groupBatches: 0,
  };
  readonly #options: ReadBatcherOptions<T>;
  readonly #threshold: number;
  readonly #rateWindowMs: number;
  readonly #ttlMs: number;
  readonly #probeAfter: number;
  readonly #probeNames: number;
  readonly #costWindowMs: number;
  readonly #queue: Coalescer<string, T | undefined>;
  /** Group reads: each item is one group's names; a batch is one read of their union. */
  readonly #groups: Coalescer<readonly string[], ReadonlyMap<string, T>>;
  /** Time the last ALLRESOURCES read took; a slow one is kept longer. */
  #allDurationMs = 0;
  /**
   * Cold batches sent recently: when, at which write sequence number, how many names, and whether
   * they were groups (a NodeSet's nodes) or single reads.
   */
  #coldBatches: {
    readonly at: number;
    readonly seq: number;
    readonly names: number;
    readonly group: boolean;
  }[] = [];
  /** Objects of the type, when known, and when learned. */
  #typeSize: { readonly count: number; readonly at: number } | undefined;
  #sizeProbe: Promise<void> | undefined;
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
    this.#threshold = options.allResourcesThreshold ?? 32;
    this.#rateWindowMs = options.rateWindowMs ?? 2_000;
    this.#ttlMs = options.cacheTtlMs ?? 5_000;
    this.#probeAfter = options.sizeProbeAfter ?? 2;
    this.#probeNames = options.sizeProbeNames ?? 8;
    this.#costWindowMs = options.costWindowMs ?? 60_000;
    this.#queue = new Coalescer<string, T | undefined>({
      maxBatchSize: options.maxBatchSize ?? 100,
      windowMs: options.windowMs,
      // An explicit window (tests, tuning) wins over the measured hold.
      hold: options.windowMs === undefined ? options.hold : undefined,
      run: (_lane, names) => this.#fetchBatch(names),
    });
    this.#groups = new Coalescer<readonly string[], ReadonlyMap<string, T>>({
      // A batch of groups is one request whatever its size (fetchGroup keeps each request within
      // what the server takes), so only the count of groups bounds it.
      maxBatchSize: GROUPS_PER_BATCH,
      windowMs: options.windowMs,
      hold: options.windowMs === undefined ? options.hold : undefined,
      run: (_lane, groups) => this.#fetchGroups(groups),
    });
  }

  /** How long a snapshot answers reads: longer when it took long to get, so a refresh does not read the type again and again. */
  get #snapshotTtlMs(): number {
    return Math.max(this.#ttlMs, 10 * this.#allDurationMs);
  }

  /** The object named `name`, or `undefined` when it does not exist. */
  async get(name: string): Promise<T | undefined> {
    this.stats.reads += 1;
    const now = this.#options.now();
    const written = this.#options.writes.lastWrite(this.#options.type, name);
    const busy = this.#countCold(now, written.at) || this.#wholeTypeIsCheaper(now);
    const canStartAll = busy && this.#allFetch === undefined && now >= this.#allPausedUntil;
    const snapshot = this.#snapshot;
    if (
      snapshot !== undefined &&
      snapshot.seq >= written.seq &&
      now - snapshot.startedAt < this.#snapshotTtlMs
    ) {
      // Renew a snapshot in the background before it expires while reads keep coming, so that
      // they never wait for it.
      if (canStartAll && now - snapshot.startedAt >= this.#snapshotTtlMs / 2) this.#startAll(now);
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
    return this.#queue.submit("", name);
  }

  /**
   * The objects named in `names`, read together as one group (a NodeSet's nodes): a map without
   * the names that do not exist. Groups asked for while a group read is in flight go out together
   * as one read of all their names when it is answered; a lone group is one read of its names,
   * never of the whole type. The same freshness rule as {@link get} holds for every name.
   */
  async getGroup(names: readonly string[]): Promise<ReadonlyMap<string, T>> {
    const unique = [...new Set(names)];
    if (unique.length === 0) return new Map();
    this.stats.groupReads += 1;
    const now = this.#options.now();
    const written = this.#lastWriteOf(unique);
    // A read-back after this client's own write is never worth a whole-type read: only cold
    // groups (a refresh) may start one, and only by cost.
    const cold = now - written.at >= this.#rateWindowMs;
    const canStartAll =
      cold &&
      this.#allFetch === undefined &&
      now >= this.#allPausedUntil &&
      this.#wholeTypeIsCheaper(now, { groups: true });
    const snapshot = this.#snapshot;
    if (
      snapshot !== undefined &&
      snapshot.seq >= written.seq &&
      now - snapshot.startedAt < this.#snapshotTtlMs
    ) {
      if (canStartAll && now - snapshot.startedAt >= this.#snapshotTtlMs / 2) this.#startAll(now);
      this.stats.shared += 1;
      return pick(snapshot.objects, unique);
    }
    const under = this.#allFetch;
    const fetch =
      under !== undefined && under.seq >= written.seq ? under : canStartAll ? this.#startAll(now) : undefined;
    if (fetch !== undefined) {
      if (fetch === under) this.stats.shared += 1;
      try {
        return pick(await fetch.result, unique);
      } catch {
        // Fall back to a group read.
      }
    }
    const merged = await this.#groups.submit("", unique);
    return pick(merged, unique);
  }

  /** The latest write this client made to any of `names`. */
  #lastWriteOf(names: readonly string[]): { readonly seq: number; readonly at: number } {
    let latest = { seq: 0, at: Number.NEGATIVE_INFINITY };
    for (const name of names) {
      const mark = this.#options.writes.lastWrite(this.#options.type, name);
      if (mark.seq > latest.seq) latest = mark;
    }
    return latest;
  }

  /** One read of the union of `groups`' names, answering each group with the whole answer. */
  async #fetchGroups(groups: readonly (readonly string[])[]): Promise<Outcome<ReadonlyMap<string, T>>[]> {
    const union = [...new Set(groups.flat())];
    this.stats.groupBatches += 1;
    this.#recordCold(union, true);
    const fetch = this.#options.fetchGroup ?? this.#options.fetchMany;
    // The write log only grows, so a fetch starting now is fresh enough for every waiting group.
    const objects = await fetch(union);
    return groups.map(() => ({ ok: true, value: objects }));
  }

  /**
   * True when the cold batches sent recently have cost about what one read of the whole type
   * costs, so the rest of what looks like a refresh should come from one; for a cold group read
   * (`groups`), also when cold groups have named an eighth of the type (GROUP_COVERAGE_TO_BUY).
   * Single reads keep the cost rule alone: they are a Node's, or a name-service step's after a
   * write. Asks for the size of the type (once, in the background) after a few cold batches.
   */
  #wholeTypeIsCheaper(now: number, { groups = false }: { groups?: boolean } = {}): boolean {
    const cutoff = now - this.#costWindowMs;
    while ((this.#coldBatches[0]?.at ?? now) < cutoff) this.#coldBatches.shift();
    // A whole-type read made before this client's own write to the whole type would be stale:
    // the batches sent before that write bought nothing a read now could use.
    const typeWritten = this.#options.writes.lastWrite(this.#options.type, "").seq;
    while ((this.#coldBatches[0]?.seq ?? typeWritten) < typeWritten) this.#coldBatches.shift();
    if (this.#coldBatches.length < this.#probeAfter) return false;
    let coldNames = 0;
    for (const batch of this.#coldBatches) coldNames += batch.names;
    if (coldNames < this.#probeNames) return false;
    const size = this.#typeSize;
    if (size === undefined || now - size.at > this.#costWindowMs) {
      this.#probeSize();
      if (size === undefined) return false;
    }
    let spent = 0;
    let groupNames = 0;
    for (const batch of this.#coldBatches) {
      spent += 1 + batch.names * COST.perNamedObject;
      if (batch.group) groupNames += batch.names;
    }
    return (
      spent >= 1 + size.count * COST.perTypeObject ||
      (groups && groupNames * GROUP_COVERAGE_TO_BUY >= size.count)
    );
  }

  #probeSize(): void {
    const countAll = this.#options.countAll;
    if (countAll === undefined || this.#sizeProbe !== undefined) return;
    this.stats.sizeProbes += 1;
    this.#sizeProbe = countAll().then(
      (count) => {
        this.#typeSize = { count, at: this.#options.now() };
        this.#sizeProbe = undefined;
      },
      () => {
        // Without the size, only the rate trigger reads the whole type; ask again later.
        this.#typeSize = { count: Number.POSITIVE_INFINITY, at: this.#options.now() };
        this.#sizeProbe = undefined;
      },
    );
  }

  /** One merged read of `names` (duplicates possible), answering each in order. */
  async #fetchBatch(names: readonly string[]): Promise<Outcome<T | undefined>[]> {
    const unique = [...new Set(names)];
    this.stats.batches += 1;
    this.#recordCold(unique, false);
    // The write log only grows, so a fetch starting now is fresh enough for every waiter.
    const objects = await this.#options.fetchMany(unique);
    return names.map((name) => ({ ok: true, value: objects.get(name) }));
  }

  /** Records a batch about to be sent, by its names not written within the rate window, for the cost rule. */
  #recordCold(names: readonly string[], group: boolean): void {
    const now = this.#options.now();
    const cold = names.filter(
      (name) => now - this.#options.writes.lastWrite(this.#options.type, name).at >= this.#rateWindowMs,
    ).length;
    if (cold > 0) this.#coldBatches.push({ at: now, seq: this.#options.writes.seq, names: cold, group });
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
        this.#allDurationMs = this.#options.now() - fetch.startedAt;
        this.#typeSize = { count: objects.size, at: this.#options.now() };
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
}
