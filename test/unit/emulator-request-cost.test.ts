/**
 * The cost model's calibration: for a request alone on the management node, its cost divided by
 * the CPUs one request keeps busy must land within ±30% of the wall time measured on a real
 * xCAT 2.19 with 2 cores (xcat-behavior.md section 10; issue #11). Concurrency is checked in
 * emulator-cpu-scheduler.test.ts (in modelled time) and test/emulator/cost-model.test.ts.
 */
import { describe, expect, it } from "vitest";
import { PER_REQUEST_CPUS } from "../../src/emulator/cost/cpu-scheduler";
import { type RequestWork, requestCost } from "../../src/emulator/cost/request-cost";

const get = (
  route: string,
  named: number,
  returned: number,
  attributes?: number,
  listed = named,
): RequestWork => ({
  method: "GET",
  route,
  named,
  listed,
  returned,
  attributes,
  succeeded: true,
});
const write = (method: string, named: number): RequestWork => ({
  method,
  route: "/nodes/{noderange}",
  named,
  listed: 1,
  returned: 0,
  attributes: undefined,
  succeeded: true,
});

// [what, the request, measured wall seconds: low, high]
const MEASURED: ReadonlyArray<readonly [string, RequestWork, number, number]> = [
  ["any request, base cost (a refused one)", { ...write("PUT", 1), succeeded: false }, 0.27, 0.35],
  ["GET /nodes/n (one node, all attributes)", get("/nodes/{noderange}", 1, 1), 0.36, 0.47],
  ["GET of 100 named nodes", get("/nodes/{noderange}", 100, 100), 0.49, 0.74],
  ["GET /nodes/ALLRESOURCES, 1,000 nodes", get("/nodes/{noderange}", 0, 1000), 2.0, 2.1],
  ["GET /nodes/<group>, 1,000 nodes", get("/nodes/{noderange}", 1000, 1000, undefined, 1), 2.0, 2.1],
  [
    "GET /nodes/<group>/attrs/ip,groups, 1,000 nodes",
    get("/nodes/{noderange}/attrs/{attrs}", 1000, 1000, 2),
    0.85,
    0.85,
  ],
  [
    "GET /tables/<7 tables>/nodes/<group>, 1,000 nodes",
    get("/tables/{tables}/nodes/{noderange}", 1000, 7000, undefined, 1),
    1.13,
    1.13,
  ],
  ["GET /groups/<group> with 1,000 members", get("/groups/{groupname}", 1, 1), 0.37, 0.37],
  ["PUT one node", write("PUT", 1), 0.34, 0.34],
  ["PUT 100 nodes, same body", write("PUT", 100), 0.37, 0.37],
  ["PUT 1,000 nodes, same body", write("PUT", 1000), 0.93, 0.93],
  ["POST one node", write("POST", 1), 0.34, 0.34],
  ["POST 100 nodes in one noderange", write("POST", 100), 10.8, 10.8],
  ["DELETE one node", write("DELETE", 1), 0.38, 0.38],
  ["DELETE 100 nodes in one noderange", write("DELETE", 100), 0.64, 0.64],
];

describe("the cost model matches a real xCAT 2.19 management node (issue #11)", () => {
  for (const [what, work, low, high] of MEASURED) {
    it(`${what}: ${low === high ? low : `${low}-${high}`} s ± 30%`, () => {
      const wall = requestCost(work) / PER_REQUEST_CPUS;
      expect(wall).toBeGreaterThanOrEqual(low * 0.7);
      expect(wall).toBeLessThanOrEqual(high * 1.3);
    });
  }

  it("a read of the whole type costs more than a few named reads and less than many single ones", () => {
    const all = requestCost(get("/nodes/{noderange}", 0, 1000));
    expect(all).toBeGreaterThan(requestCost(get("/nodes/{noderange}", 10, 10)));
    expect(all).toBeLessThan(10 * requestCost(get("/nodes/{noderange}", 1, 1)));
  });
});
