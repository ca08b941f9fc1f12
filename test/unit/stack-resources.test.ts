/**
 * How review and drift read a resource's kind and management node (src/cli/stack-resources.ts),
 * on what the real engine printed for YAML programs on the native provider (pulumi v3.259.0,
 * pulumi-language-yaml v1.25.0, recorded by the programs of test/e2e/programs/native-review and
 * native-review-mns against emulators): `preview --json` of the Deployment added on the default
 * provider, `preview --json` (with and without `--show-sames`) of a change on two of three
 * explicit providers, and the event logs of `refresh --preview-only` on both stacks. (The
 * providers' captures are of native-review-mns before its mnA image and Deployment were added.)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRefreshEvents } from "../../src/cli/drift/refresh-events";
import { managedObjects } from "../../src/cli/drift/unmanaged";
import type { PreviewStep } from "../../src/cli/review/plan-summary";
import {
  describeManagementNode,
  explicitProviders,
  isXcatResource,
  kindOf,
  managementNodeOf,
  resourceKind,
  SECRET_SIG,
  STACK_MANAGEMENT_NODE,
} from "../../src/cli/stack-resources";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");
const stepsOf = (name: string) => (JSON.parse(fixture(name)) as { steps: PreviewStep[] }).steps;
const PROVIDER = "urn:pulumi:test::native-review-mns::pulumi:providers:xcat::";

describe("resourceKind", () => {
  it("reads the same kind from a TypeScript program's dynamic type and the native provider's", () => {
    expect(resourceKind("pulumi-nodejs:dynamic/xcat:Deployment")).toBe("xcat:Deployment");
    expect(resourceKind("xcat:index:Deployment")).toBe("xcat:Deployment");
    expect(resourceKind("xcat:Node")).toBe("xcat:Node");
    // A URN's type after its parents'.
    expect(resourceKind("my:Rack$xcat:index:PowerState")).toBe("xcat:PowerState");
  });

  it("leaves providers, the stack and other packages' types as they are", () => {
    expect(resourceKind("pulumi:providers:xcat")).toBe("pulumi:providers:xcat");
    expect(resourceKind("pulumi:pulumi:Stack")).toBe("pulumi:pulumi:Stack");
    expect(resourceKind("random:index:RandomPassword")).toBe("random:index:RandomPassword");
    expect(isXcatResource({ type: "pulumi:providers:xcat" })).toBe(false);
    expect(isXcatResource({ urn: "urn:pulumi:s::p::xcat:index:Node::n1" })).toBe(true);
  });
});

describe("the management node of a resource, as the engine shows it", () => {
  it("is the stack's for a resource on the default provider (pulumi:providers:xcat::default)", () => {
    const steps = stepsOf("native-preview-deployment.json");
    const deployment = steps.find((step) => kindOf(step) === "xcat:Deployment");
    expect(deployment?.newState?.provider).toMatch(/::pulumi:providers:xcat::default::/);
    const node = managementNodeOf(deployment ?? {}, explicitProviders(steps), {
      "xcat:url": "http://127.0.0.1:41751/xcatws",
    });
    expect(node.key).toBe(STACK_MANAGEMENT_NODE);
    expect(describeManagementNode(node)).toBe("the stack's management node");
  });

  it("is the explicit provider's, named with its url and backend when the preview lists the provider", () => {
    const sames = stepsOf("native-preview-providers-change-sames.json");
    const providers = explicitProviders(sames);
    expect([...providers.keys()].sort()).toEqual([`${PROVIDER}mnA`, `${PROVIDER}mnB`, `${PROVIDER}mnC`]);
    expect(providers.get(`${PROVIDER}mnC`)).toEqual({
      url: "http://127.0.0.1:34501/confluent-api",
      backend: "confluent",
    });
    const byName = new Map(
      sames.filter(isXcatResource).map((step) => [step.urn?.split("::").at(-1), step] as const),
    );
    const where = (name: string) =>
      describeManagementNode(managementNodeOf(byName.get(name) ?? {}, providers));
    expect(where("a01")).toBe("provider mnA (http://127.0.0.1:38063/xcatws)");
    expect(where("c01")).toBe("provider mnC (http://127.0.0.1:34501/confluent-api, Confluent)");
    expect(managementNodeOf(byName.get("b01") ?? {}, providers).key).toBe(`${PROVIDER}mnB`);
  });

  it("is the provider by its name when the preview leaves unchanged providers out", () => {
    const steps = stepsOf("native-preview-providers-change.json");
    expect(steps.some((step) => step.urn?.includes("pulumi:providers:"))).toBe(false);
    const c01 = steps.find((step) => step.urn?.endsWith("::c01"));
    expect(describeManagementNode(managementNodeOf(c01 ?? {}, explicitProviders(steps)))).toBe(
      "provider mnC",
    );
  });

  it("is a resource's own connection before its provider", () => {
    const step = {
      type: "pulumi-nodejs:dynamic/xcat:Node",
      provider: "urn:pulumi:s::p::pulumi:providers:pulumi-nodejs::default::1",
      newState: { inputs: { connection: { url: "https://mn9/xcatws" } } },
    };
    expect(managementNodeOf(step, new Map()).key).toBe("https://mn9/xcatws");
  });

  it("is the server a secret connection's state records, each apart; without a record, named as a secret", () => {
    // The classes pass `connection` as a secret; the provider records backend and URL beside it.
    const secret = { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };
    const setOn = (url: string | undefined) => ({
      type: "pulumi-nodejs:dynamic/xcat:NodeSet",
      oldState: {
        inputs: { connection: secret },
        outputs: { connection: secret, ...(url ? { managementServer: { backend: "xcat", url } } : {}) },
      },
      newState: { inputs: { connection: "[secret]" } },
    });
    const a = managementNodeOf(setOn("http://127.0.0.1:8001/xcatws"), new Map());
    const b = managementNodeOf(setOn("http://127.0.0.1:8002/xcatws"), new Map());
    expect([a.key, b.key]).toEqual(["http://127.0.0.1:8001/xcatws", "http://127.0.0.1:8002/xcatws"]);
    expect(describeManagementNode(b)).toBe("http://127.0.0.1:8002/xcatws (xCAT)");
    expect(managementNodeOf(setOn(undefined), new Map()).key).toBe("a connection held as a secret");
  });
});

describe("drift's managed objects per management node, from the refresh's event log", () => {
  it("counts every node on the default provider as the stack's (the YAML stack that read '0 of 36')", () => {
    const events = parseRefreshEvents(fixture("native-refresh-default.jsonl"));
    const managed = managedObjects(events.steps);
    expect([...managed.keys()]).toEqual([STACK_MANAGEMENT_NODE]);
    expect([...(managed.get(STACK_MANAGEMENT_NODE)?.get("xcat:Node") ?? [])].sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `r02n${String(i + 1).padStart(2, "0")}`),
    );
    expect([...(managed.get(STACK_MANAGEMENT_NODE)?.get("xcat:Osimage") ?? [])]).toEqual([
      "rocky9.4-x86_64-netboot-compute",
    ]);
  });

  it("keeps each explicit provider's nodes apart", () => {
    const events = parseRefreshEvents(fixture("native-refresh-providers.jsonl"));
    const managed = managedObjects(events.steps);
    const nodes = (provider: string) =>
      [...(managed.get(`${PROVIDER}${provider}`)?.get("xcat:Node") ?? [])].sort();
    expect(nodes("mnA")).toEqual(["a01", "a02"]);
    expect(nodes("mnB")).toEqual(["b01"]);
    expect(nodes("mnC")).toEqual(["c01"]);
    expect(managed.has(STACK_MANAGEMENT_NODE)).toBe(false);
    // The refresh lists the providers with their url and backend (the password reads [secret]).
    expect(explicitProviders(events.steps).get(`${PROVIDER}mnC`)).toEqual({
      url: "http://127.0.0.1:34501/confluent-api",
      backend: "confluent",
    });
  });
});
