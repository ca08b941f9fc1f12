/**
 * The record of writes this client made, which the read batcher consults so that no read is
 * answered with data older than a write that finished before the read was asked for. Every write
 * (any call that is not a GET) bumps a sequence number for what it may have changed: named
 * objects of one type, a whole type, or everything.
 */

/** Object types whose reads are batched, by route id prefix. */
export const BATCHED_TYPES: Readonly<Record<string, string>> = {
  nodes: "node",
  osimages: "osimage",
  networks: "network",
  policy: "policy",
  groups: "group",
};

/** What one write may have changed. */
export type WriteScope =
  | { readonly kind: "none" }
  | { readonly kind: "all" }
  | {
      readonly kind: "objects";
      /** Types changed as a whole. */
      readonly types: readonly string[];
      /** Named objects changed, by type. */
      readonly names: Readonly<Record<string, readonly string[]>>;
    };

/** One noderange element that can only name itself: no ranges, groups of brackets, selectors. */
const PLAIN_NAME = /^[A-Za-z0-9_.-]+$/;
/** `n01-n05` is a range; `cn-001` is a name (xCAT ranges need a number before the dash). */
const MAYBE_RANGE = /\d-/;

/**
 * Whether `name` can only name itself in a noderange (no range, group selector or list), so that
 * it can be merged with others into one comma list.
 *
 * @example
 * ```ts
 * isPlainName("cn-001"); // true
 * isPlainName("n01-n05"); // false
 * ```
 */
export function isPlainName(name: string): boolean {
  return PLAIN_NAME.test(name) && !MAYBE_RANGE.test(name);
}

/**
 * What a call on `routeId` with `params` (encoded path segments) may change. Conservative: a name
 * that might be a range or a group widens the scope to the whole type, a write to a group also
 * touches every node (nodes inherit group attributes), a node write touches groups (members),
 * and writes outside the object types (tables, site) touch everything.
 *
 * @example
 * ```ts
 * writeScope("nodes.update", { noderange: "n01,n02" });
 * // { kind: "objects", types: ["group"], names: { node: ["n01", "n02"] } }
 * ```
 */
export function writeScope(
  routeId: string,
  params: Readonly<Record<string, string>> | undefined,
): WriteScope {
  const prefix = routeId.slice(0, routeId.indexOf("."));
  if (prefix === "tokens") return { kind: "none" };
  const type = BATCHED_TYPES[prefix];
  if (type === undefined) return { kind: "all" };
  if (type === "group") return { kind: "objects", types: ["group", "node"], names: {} };
  const related = type === "node" ? ["group"] : [];
  const segment = firstObjectParam(params);
  let names: string[] | undefined;
  if (segment !== undefined) {
    try {
      names = decodeURIComponent(segment).split(",");
    } catch {
      names = undefined;
    }
  }
  if (names === undefined || names.some((name) => !isPlainName(name))) {
    return { kind: "objects", types: [type, ...related], names: {} };
  }
  return { kind: "objects", types: related, names: { [type]: names } };
}

const OBJECT_PARAMS = ["noderange", "imgname", "netname", "policy_priority", "groupname"];

function firstObjectParam(params: Readonly<Record<string, string>> | undefined): string | undefined {
  if (params === undefined) return undefined;
  for (const key of OBJECT_PARAMS) {
    const value = params[key];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** When an object was last written: a sequence number and a time. */
export interface WriteMark {
  readonly seq: number;
  readonly at: number;
}

const NEVER: WriteMark = { seq: 0, at: Number.NEGATIVE_INFINITY };

const later = (a: WriteMark, b: WriteMark | undefined): WriteMark =>
  b !== undefined && b.seq > a.seq ? b : a;

/**
 * Sequence numbers of finished writes. A fetch that starts at sequence S reflects every write
 * marked at or before S; a read whose object was last marked at M may use it when S ≥ M.
 *
 * @example
 * ```ts
 * const writes = new WriteLog(Date.now);
 * writes.record(writeScope("nodes.update", { noderange: "n01" }));
 * writes.lastWrite("node", "n01").seq; // 1
 * ```
 */
export class WriteLog {
  #seq = 0;
  #all: WriteMark = NEVER;
  readonly #types = new Map<string, WriteMark>();
  readonly #names = new Map<string, Map<string, WriteMark>>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** The sequence number a fetch starting now reflects. */
  get seq(): number {
    return this.#seq;
  }

  record(scope: WriteScope): void {
    if (scope.kind === "none") return;
    this.#seq += 1;
    const mark: WriteMark = { seq: this.#seq, at: this.#now() };
    if (scope.kind === "all") {
      this.#all = mark;
      // Everything is newer than every earlier mark; the per-name records are no longer needed.
      this.#types.clear();
      this.#names.clear();
      return;
    }
    for (const type of scope.types) {
      this.#types.set(type, mark);
      this.#names.delete(type);
    }
    for (const [type, names] of Object.entries(scope.names)) {
      let byName = this.#names.get(type);
      if (byName === undefined) {
        byName = new Map();
        this.#names.set(type, byName);
      }
      for (const name of names) byName.set(name, mark);
    }
  }

  /** The latest write that may have changed `name` of `type`. */
  lastWrite(type: string, name: string): WriteMark {
    return later(later(this.#all, this.#types.get(type)), this.#names.get(type)?.get(name));
  }
}
