/**
 * `xcat:Deployment` on Confluent: `osimage` names a Confluent deployment profile, and each batch
 * goes through Confluent's deploy sequence as `nodedeploy -n` runs it (confluent_client/bin/
 * nodedeploy at 3.15.6, lines 14-80 and 130-228): refuse locked nodes (deployment.lock),
 * arm the node's API key once (deployment.apiarmed, unless continuous), set
 * deployment.pendingprofile with the state fields cleared, next boot device network, power boot.
 * Progress is Confluent's: the deploying node reports through /self/updatestatus, which sets
 * deployment.state (and state_detail), moves pendingprofile to stagedprofile and then to
 * deployment.profile when complete (selfservice.py 3.15.6 lines 464-505). A node is done when
 * deployment.profile is the profile and nothing is pending or staged. The roll around it
 * (batches, canary, stops, timeouts, progress lines) is the xCAT Deployment's.
 */
import { isNotFound } from "../../client";
import type { ConfluentClient, NodeAttributes } from "../../client/confluent";
import type { DeploySteps, NodeProgress, NodeState } from "../deploy";
import { type DeploymentBackend, deploymentSpecOn } from "../resources/deployment";
import { ResourceConflictError } from "../spec";
import { confluentRange, expandOnConfluent, failedNodes } from "./nodes";

const KIND = "xcat:Deployment";

function text(attributes: NodeAttributes | undefined, name: string): string {
  const value = attributes?.get(name)?.value;
  return value === undefined || value === null ? "" : String(value);
}

/** A node's deployment progress in words: Confluent's state, else where its profile stands. */
function progressOf(attributes: NodeAttributes | undefined, profile: string): NodeProgress {
  const pending = text(attributes, "deployment.pendingprofile");
  const staged = text(attributes, "deployment.stagedprofile");
  const completed = text(attributes, "deployment.profile");
  const state = text(attributes, "deployment.state");
  const detail = text(attributes, "deployment.state_detail");
  if (completed === profile && pending === "" && staged === "") {
    return { status: "completed", statusTime: "", outcome: "booted" };
  }
  const status =
    state !== "" ? (detail !== "" ? `${state}: ${detail}` : state) : staged !== "" ? "staged" : "pending";
  // Someone cleared the pending deployment (nodedeploy -c) or started another profile.
  if (pending !== profile && staged !== profile) {
    return {
      status: `no longer pending ${profile} (pending '${pending}', deployed '${completed}')`,
      statusTime: "",
      outcome: "failed",
    };
  }
  return { status, statusTime: "" };
}

function steps(client: ConfluentClient): DeploySteps {
  return {
    actions: "deployment.pendingprofile, boot/nextdevice network, power boot",
    async start(batch, profile) {
      const refused = new Map<string, string>();
      let current: Map<string, NodeAttributes>;
      try {
        current = await client.nodes.getMany(batch);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        for (const node of batch) refused.set(node, `reading the node failed: ${why}`);
        return refused;
      }
      for (const node of batch) {
        if (text(current.get(node), "deployment.lock") === "locked") {
          refused.set(node, "its deployment is locked (deployment.lock locked); unlock it first");
        }
      }
      let active = batch.filter((node) => !refused.has(node));
      const run = async (
        what: string,
        action: (nodes: string[]) => Promise<Map<string, string> | undefined>,
      ) => {
        if (active.length === 0) return;
        try {
          const failures = (await action(active)) ?? new Map<string, string>();
          for (const [node, why] of failures) refused.set(node, `${what} failed: ${why}`);
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error);
          for (const node of active) refused.set(node, `${what} failed: ${why}`);
        }
        active = active.filter((node) => !refused.has(node));
      };
      await run("arming the node's API key", async (nodes) => {
        const once = nodes.filter((node) => text(current.get(node), "deployment.apiarmed") !== "continuous");
        if (once.length > 0) await client.nodes.updateMany(once, { "deployment.apiarmed": "once" });
        return undefined;
      });
      await run("setting deployment.pendingprofile", async (nodes) => {
        await client.nodes.updateMany(nodes, {
          "deployment.pendingprofile": profile,
          "deployment.state": "",
          "deployment.state_detail": "",
          ...(profile.startsWith("genesis-")
            ? {}
            : { "deployment.stagedprofile": "", "deployment.profile": "" }),
        });
        return undefined;
      });
      await run("boot/nextdevice network", async (nodes) =>
        failedNodes(await client.nodes.setNextDevice(nodes, "network")),
      );
      await run("power boot", async (nodes) => failedNodes(await client.nodes.setPower(nodes, "boot")));
      return refused;
    },
    async progress(nodes, profile) {
      const read = await client.nodes.getMany(nodes);
      return new Map(nodes.map((node) => [node, progressOf(read.get(node), profile)]));
    },
  };
}

async function missingProfile(client: ConfluentClient, profile: string): Promise<string | undefined> {
  const profiles = await client.deployment.profiles();
  if (profiles.includes(profile)) return undefined;
  return (
    `Confluent has no deployment profile '${profile}' (GET /deployment/profiles/: ` +
    `${profiles.length > 0 ? profiles.join(", ") : "none"}). On the Confluent stack, osimage names a profile; ` +
    "import one with osdeploy import, or fix the name."
  );
}

const confluentDeploymentBackend: DeploymentBackend<ConfluentClient> = {
  async requireImage(client, profile) {
    const problem = await missingProfile(client, profile);
    if (problem) throw new ResourceConflictError(`${KIND}: osimage: ${problem} Nothing was changed.`);
  },
  missingImage: missingProfile,
  expandNodes: (client, nodes) => expandOnConfluent(client, KIND, nodes),
  steps,
  async readStates(client, nodes, olds) {
    let names: string[];
    try {
      names = await client.nodes.list(confluentRange(nodes));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    if (names.length === 0) return undefined;
    const read = await client.nodes.getMany(names);
    const osimage = olds.osimage ?? text(read.get(names[0] ?? ""), "deployment.profile");
    const nodeStates: Record<string, NodeState> = {};
    for (const node of names) {
      const attributes = read.get(node);
      const progress = progressOf(attributes, osimage);
      nodeStates[node] = {
        status: progress.status,
        statusTime: "",
        osimage: text(attributes, "deployment.profile"),
        // Deployed with the profile and nothing else pending: done; otherwise as recorded while
        // the profile is still the one pending (a roll that timed out may yet complete).
        deployed: progress.outcome === "booted",
      };
    }
    return { osimage, nodeStates };
  },
  async takeOffline(client, listed) {
    const existing = await client.nodes.list(listed.join(",")).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
    // One name that is gone fails the whole noderange (item 12): then ask one by one.
    const batch =
      existing ??
      (
        await Promise.all(
          listed.map(async (node) =>
            (await client.nodes.list(node).catch(() => [])).length > 0 ? node : undefined,
          ),
        )
      ).filter((node): node is string => node !== undefined);
    if (batch.length === 0) return undefined;
    await client.nodes.updateMany(batch, { "deployment.pendingprofile": "" });
    const failures = failedNodes(await client.nodes.setPower(batch, "off"));
    if (failures.size > 0) {
      throw new ResourceConflictError(
        `${KIND}: powering off failed on ${[...failures].map(([node, why]) => `${node}: ${why}`).join("; ")}`,
      );
    }
    return `${confluentRange(batch)}: pending deployment cleared, powered off`;
  },
};

export const confluentDeploymentSpec = deploymentSpecOn(confluentDeploymentBackend);
