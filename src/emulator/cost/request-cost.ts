/**
 * What one request costs a real xCAT management node, in CPU-seconds: a Perl CGI start plus an
 * xcatd round trip for every request, and per-object work that depends on the command.
 * Calibrated to a real xCAT 2.19 on a 2-core management node (xcat-behavior.md section 10,
 * issue #11); the calibration is checked in test/unit/emulator-request-cost.test.ts.
 *
 * The figures are CPU work, not wall time: one request can keep about 1.13 CPUs busy (the CGI
 * and xcatd overlap), so a lone request's wall time is its cost / 1.13, and concurrent requests
 * share the management node's CPUs (see cpu-scheduler.ts).
 */

/** What the pipeline tells the cost model about one answered request. */
export interface RequestWork {
  readonly method: string;
  /** The route's path template (`/nodes/{noderange}/attrs/{attrs}`), or undefined when unrouted. */
  readonly route: string | undefined;
  /** Objects named in the path (names of a noderange after expansion, or of a comma list). */
  readonly named: number;
  /** Elements of the path's comma list as written (`n1,n2,rack3` is 3; a group or a range is 1). */
  readonly listed: number;
  /** Objects in the answer (lsdef objects, table rows, list entries); 0 for writes and errors. */
  readonly returned: number;
  /** Attributes asked for by an `/attrs/{attrs}` route; undefined for all attributes. */
  readonly attributes: number | undefined;
  /** Whether the command ran (false: refused before xcatd did any object work). */
  readonly succeeded: boolean;
}

/** CPU-seconds of the CGI start and the xcatd round trip that every request pays. */
export const BASE_CPU_S = 0.35;
/** An lsdef, which loads the schema and reads the tables before looking at any object. */
const LSDEF_CPU_S = 0.15;
/** lsdef per object it prints, with all attributes (inheritance, every table). */
const LSDEF_OBJECT_CPU_S = 0.002;
/** lsdef -i per object: a fixed part plus each attribute asked for. */
const LSDEF_SUBSET_OBJECT_CPU_S = 0.0003;
const LSDEF_SUBSET_ATTRIBUTE_CPU_S = 0.0001;
/** Looking up each element of the comma list given in the path. */
const NAME_CPU_S = 0.0001;
/** A table row of a node-table read (getTablesNodesAttribs). */
const TABLE_ROW_CPU_S = 0.00015;
/** chdef's fixed extra and its per-object work. */
const CHDEF_CPU_S = 0.03;
const CHDEF_OBJECT_CPU_S = 0.0006;
/** mkdef: about 0.1 s per object created (measured: 100 nodes in one POST take 10.8 s). */
const MKDEF_CPU_S = 0.03;
const MKDEF_OBJECT_CPU_S = 0.115;
/** rmdef. */
const RMDEF_CPU_S = 0.07;
const RMDEF_OBJECT_CPU_S = 0.003;
/** Hardware and service actions (rpower, nodeset, makehosts...) per node, without the BMC's own time. */
const ACTION_OBJECT_CPU_S = 0.01;

const isObjectRoute = (route: string) =>
  /^\/(nodes|groups|osimages|networks|policy)\/\{[^}]+\}(\/attrs\/\{attrs\})?$/.test(route);
const isListRoute = (route: string) => /^\/(nodes|groups|osimages|networks|policy)$/.test(route);

/**
 * The CPU-seconds a request costs the management node.
 *
 * @example
 * requestCost({ method: "GET", route: "/nodes/{noderange}", named: 1, listed: 1, returned: 1, attributes: undefined, succeeded: true });
 * // ≈ 0.50: a lone single-node GET answers in about 0.44 s
 */
export function requestCost(work: RequestWork): number {
  const route = work.route;
  if (route === undefined || !work.succeeded) return BASE_CPU_S;
  const names = work.listed * NAME_CPU_S;
  if (work.method === "GET") {
    if (isListRoute(route)) return BASE_CPU_S + LSDEF_CPU_S + work.returned * 0.0002;
    if (isObjectRoute(route) || route === "/globalconf" || route.startsWith("/globalconf/attrs")) {
      const perObject =
        work.attributes === undefined
          ? LSDEF_OBJECT_CPU_S
          : LSDEF_SUBSET_OBJECT_CPU_S + work.attributes * LSDEF_SUBSET_ATTRIBUTE_CPU_S;
      return BASE_CPU_S + LSDEF_CPU_S + names + work.returned * perObject;
    }
    if (route.startsWith("/tables/")) return BASE_CPU_S + work.returned * TABLE_ROW_CPU_S;
    return BASE_CPU_S + work.named * ACTION_OBJECT_CPU_S;
  }
  if (isObjectRoute(route)) {
    if (work.method === "PUT") return BASE_CPU_S + CHDEF_CPU_S + work.named * CHDEF_OBJECT_CPU_S;
    if (work.method === "POST") return BASE_CPU_S + MKDEF_CPU_S + work.named * MKDEF_OBJECT_CPU_S;
    if (work.method === "DELETE") return BASE_CPU_S + RMDEF_CPU_S + work.named * RMDEF_OBJECT_CPU_S;
  }
  return BASE_CPU_S + work.named * ACTION_OBJECT_CPU_S;
}
