/**
 * How merged writes of one object type are sent and how their answer is split back per object:
 * deletes of one type go out as one `DELETE /nodes/a,b,c`, updates with equal bodies as one
 * `PUT /nodes/a,b,c`. Queued with a {@link Coalescer}, so they merge while an earlier request of
 * the same kind is being answered (see coalescer.ts for why).
 *
 * Failure rule: one object failing fails only its own caller, with the message a single request
 * for it gets. When a merged request fails for a reason that cannot be pinned on named objects,
 * every object of it is sent again on its own (deletes and updates are idempotent, so what the
 * merged request already did is done again harmlessly).
 */
import type { Outcome } from "./coalescer";

/** What a delete ended with: the object went, or it was not there. */
export type DeleteResult = "deleted" | "missing";

export interface MergedDeleteParts {
  /** One DELETE of `names` in one noderange. */
  readonly deleteMany: (names: readonly string[]) => Promise<void>;
  /**
   * The names a failed request reports missing when that is all it reports, else `undefined`
   * (xCAT's 403 `Could not find an object named 'x' of type 'node'.`).
   */
  readonly onlyMissing: (error: unknown) => readonly string[] | undefined;
}

/**
 * Deletes `names` in one request. xCAT's rmdef deletes the objects that exist even when others of
 * the noderange are missing, and then answers 403 naming the missing ones (xcat-behavior.md 9.6;
 * rmdef in xCAT-server/lib/xcat/plugins/DBobjectdefs.pm): those are "missing", the others
 * "deleted", with no second request.
 *
 * @example
 * ```ts
 * await deleteMerged(["n1", "gone"], parts); // [{ ok: true, value: "deleted" }, { ok: true, value: "missing" }]
 * ```
 */
export async function deleteMerged(
  names: readonly string[],
  parts: MergedDeleteParts,
): Promise<Outcome<DeleteResult>[]> {
  const unique = [...new Set(names)];
  let missing: ReadonlySet<string> = new Set();
  try {
    await parts.deleteMany(unique);
  } catch (error) {
    const reported = parts.onlyMissing(error);
    if (reported !== undefined && reported.length > 0 && reported.every((name) => unique.includes(name))) {
      missing = new Set(reported);
    } else if (unique.length === 1) {
      return names.map(() => ({ ok: false, error }));
    } else {
      return eachAlone(names, async (name) => {
        try {
          await parts.deleteMany([name]);
          return "deleted" as const;
        } catch (single) {
          if (parts.onlyMissing(single)?.includes(name)) return "missing" as const;
          throw single;
        }
      });
    }
  }
  return names.map((name) => ({ ok: true, value: missing.has(name) ? "missing" : "deleted" }));
}

/**
 * Applies one body to `names` in one request; when that fails, each object on its own, so that
 * a bad object fails only its caller, with its own error.
 */
export async function updateMerged(
  names: readonly string[],
  updateMany: (names: readonly string[]) => Promise<void>,
): Promise<Outcome<undefined>[]> {
  const unique = [...new Set(names)];
  try {
    await updateMany(unique);
    return names.map(() => ({ ok: true, value: undefined }));
  } catch (error) {
    if (unique.length === 1) return names.map(() => ({ ok: false, error }));
    return eachAlone(names, async (name) => {
      await updateMany([name]);
      return undefined;
    });
  }
}

/** Runs `one` for each distinct name (at most a few at a time), answering every name. */
async function eachAlone<R>(
  names: readonly string[],
  one: (name: string) => Promise<R>,
): Promise<Outcome<R>[]> {
  const results = new Map<string, Outcome<R>>();
  const unique = [...new Set(names)];
  const width = 4;
  for (let start = 0; start < unique.length; start += width) {
    await Promise.all(
      unique.slice(start, start + width).map(async (name) => {
        try {
          results.set(name, { ok: true, value: await one(name) });
        } catch (error) {
          results.set(name, { ok: false, error });
        }
      }),
    );
  }
  return names.map(
    (name) => results.get(name) ?? { ok: false, error: new Error(`internal: no result for ${name}`) },
  );
}
