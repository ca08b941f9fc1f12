/**
 * Every operation of the service description (src/contract/routes.ts) is served: a request to
 * each route gets neither the "Unsupported resource." 404 nor a 405 (xcat-behavior.md §1.5).
 */
import { describe, expect, it } from "vitest";
import { UNSUPPORTED_RESOURCE } from "../../src/contract/messages";
import { ROUTES } from "../../src/contract/routes";
import { call, createNode, useEmulator } from "./helpers";

const SAMPLE: Record<string, string> = {
  noderange: "r1",
  imgname: "img1",
  netname: "net1",
  policy_priority: "1",
  groupname: "compute",
  attrs: "groups",
  item: "ip",
  tablelist: "nodelist",
  keys: "node=r1",
};

describe("routes (xcat-behavior.md §1.2)", () => {
  const env = useEmulator();

  it.each(ROUTES.map((r) => [r.id, r] as const))("%s is served", async (_id, route) => {
    await createNode(env.xcat, "r1", { groups: "compute", mgt: "kvm", vmhost: "hv1" }).catch(() => undefined);
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE[name] ?? "x");
    const reply = await call(env.xcat, route.method, path, route.method === "GET" ? {} : { body: {} });
    expect(reply.status, `${route.method} ${path}: ${reply.text}`).not.toBe(405);
    if (reply.status === 404) expect(reply.json).not.toEqual({ error: UNSUPPORTED_RESOURCE, errorcode: "2" });
    expect(env.xcat.stats().byRoute[`${route.method} ${route.path}`]).toBeGreaterThan(0);
  });

  it("an unknown sub-resource and a wrong method are rejected by the web layer (§1.5)", async () => {
    expect((await call(env.xcat, "GET", "/nodes/r1/foo")).json).toEqual({
      error: UNSUPPORTED_RESOURCE,
      errorcode: "2",
    });
    expect((await call(env.xcat, "GET", "/nodes/r1/attrs")).status).toBe(404);
    const reply = await call(env.xcat, "POST", "/groups/compute", { body: {} });
    expect(reply.status).toBe(405);
    expect(reply.json).toEqual({
      error: "request method 'POST' is not supported on resource '/groups/compute'",
      errorcode: "2",
    });
  });
});
