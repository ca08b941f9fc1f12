/**
 * A Confluent server's nodes for the view, from what it reports of each node (`attributes/current`,
 * values inherited from a group marked `inheritedfrom`) and of its power. Pure. Confluent's own
 * words, cited from xcat2/confluent at tag 3.15.6:
 *
 * Place (config/attributes.py): `location.rack` "Rack number of the rack the node is in" (302),
 * `location.u` "Position in the rack of the node" (305), `location.room` "Room description for
 * the node" (296), `location.row` "Row description for the rack the node is in" (299, drawn with
 * the room: `room lab, row 3, rack 1`), and for a node in an enclosure `enclosure.manager` "The
 * management device for this node's chassis" (443) with `enclosure.bay` "The bay in the
 * enclosure" (434). These are the attributes xCAT's rack, unit, room, chassis and slot map to
 * (contract/confluent/xcat-attribute-map.ts), so the placement rule is the same (placement.ts).
 *
 * Boot: Confluent has no node status of a running OS (no nodestat; /work/shared/confluent-api.md).
 * What it reports is a deployment's progress, the fields `nodedeploy <noderange>` prints
 * (confluent_client/bin/nodedeploy 175-213): `deployment.pendingprofile` (armed, the node boots it
 * next), `deployment.stagedprofile` (the installer reported `status: staged`), `deployment.profile`
 * (it reported `status: complete`; selfservice.py 464-505 moves pending → staged → profile), and
 * `deployment.state` with `state_detail`, which "Profiles may push … for example … "failed""
 * (attributes.py 246-251; selfservice.py 466-476 stores whatever the node posts). So:
 * - failed: deployment.state is `failed`;
 * - deploying: a profile pending or staged (`pending rocky-9.4…`, `staged rocky-9.4…`);
 * - up ("deployed P"): deployment.profile is P with nothing pending or staged: the deployment
 *   completed; whether that OS still runs, Confluent does not say (the panel says so);
 * - none: no deployment recorded: the state is unknown, with that reason on the panel.
 * The profile compared with a Deployment's `osimage` is the node's own deployment.profile (not
 * one a group passes down: selfservice.py sets it on the node).
 */
import type { ConfluentAttributeValue } from "../../contract/confluent/bodies";
import {
  CONFLUENT_EVERYTHING_GROUP,
  mappingOfXcat,
  XCAT_ALL_GROUP,
  xcatValueOf,
} from "../../contract/confluent/xcat-attribute-map";
import { compareStrings, type NoderangeContext } from "../../contract/noderange";
import type { ClusterNodes, ShownAttribute } from "./cluster-nodes";
import type { BootReport } from "./node-state";
import type { PlacementInput } from "./placement";

/** One attribute as Confluent reports it (real-confluent.md items 7-10). */
export type ConfluentReported = ConfluentAttributeValue;

/** A node's attributes by Confluent's name. */
export type ConfluentNodeAttributes = ReadonlyMap<string, ConfluentReported>;

/** A Confluent read (confluent-reads.ts): attributes and power of every node. */
export interface ConfluentClusterRead {
  readonly attributes: ReadonlyMap<string, ConfluentNodeAttributes>;
  /** `on`/`off` per node whose BMC answered. */
  readonly power: ReadonlyMap<string, string>;
  /** A node's own power error (Confluent answers `{"error": …}` for it inside the 200, item 14). */
  readonly nodePowerProblems: ReadonlyMap<string, string>;
  /** Why no power is known, when the power read failed whole. */
  readonly powerProblem?: string;
}

function text(attributes: ConfluentNodeAttributes | undefined, name: string): string {
  const value = attributes?.get(name)?.value;
  if (value === undefined || value === null) return "";
  return Array.isArray(value) ? value.join(",") : String(value);
}

/** The node's own value (not one a group passes down). */
function own(attributes: ConfluentNodeAttributes | undefined, name: string): string {
  return attributes?.get(name)?.inheritedfrom === undefined ? text(attributes, name) : "";
}

/** The node's groups as Confluent lists them, without `everything` (every node's, kept last). */
export function confluentGroups(attributes: ConfluentNodeAttributes | undefined): string[] {
  const groups = attributes?.get("groups")?.value;
  return Array.isArray(groups)
    ? groups.map(String).filter((group) => group !== "" && group !== CONFLUENT_EVERYTHING_GROUP)
    : [];
}

/** Where the node goes, from Confluent's location and enclosure attributes (see the file's comment). */
export function confluentPlacement(
  name: string,
  attributes: ConfluentNodeAttributes | undefined,
): PlacementInput {
  const room = text(attributes, "location.room").trim();
  const row = text(attributes, "location.row").trim();
  return {
    name,
    rack: text(attributes, "location.rack"),
    unit: text(attributes, "location.u"),
    room: [room, row === "" ? "" : `row ${row}`].filter((part) => part !== "").join(", "),
    chassis: text(attributes, "enclosure.manager"),
    slotid: text(attributes, "enclosure.bay"),
    groups: confluentGroups(attributes),
  };
}

/** The node's deployment as Confluent reports it (see the file's comment). */
export function confluentBoot(attributes: ConfluentNodeAttributes | undefined): BootReport {
  const state = text(attributes, "deployment.state").trim();
  const detail = text(attributes, "deployment.state_detail").trim();
  const pending = text(attributes, "deployment.pendingprofile").trim();
  const staged = text(attributes, "deployment.stagedprofile").trim();
  const profile = own(attributes, "deployment.profile").trim();
  const stateFact =
    state === "" ? [] : [`deployment.state: ${detail === "" ? state : `${state}: ${detail}`}`];
  const statusFacts = [
    `deployment: ${
      pending !== ""
        ? `pending ${pending} (armed: the node installs it at its next network boot)`
        : staged !== ""
          ? `staged ${staged} (the installer runs)`
          : profile !== ""
            ? `completed ${profile}`
            : "none recorded (no deployment.pendingprofile, stagedprofile or profile)"
    }`,
    ...stateFact,
  ];
  const imageFacts = [`profile (deployment.profile): ${profile === "" ? "(none)" : profile}`];
  if (state.toLowerCase() === "failed") {
    return { phase: "failed", label: "failed", image: profile, statusFacts, imageFacts };
  }
  if (pending !== "" || staged !== "") {
    return {
      phase: "deploying",
      label: pending !== "" ? `pending ${pending}` : `staged ${staged}`,
      image: profile,
      statusFacts,
      imageFacts,
    };
  }
  if (profile !== "") {
    return {
      phase: "up",
      label: `deployed ${profile}`,
      image: profile,
      statusFacts: [
        ...statusFacts,
        "boot state: Confluent reports the deployment completed; it keeps no status of the running OS",
      ],
      imageFacts,
    };
  }
  return {
    phase: "none",
    label: "no deployment",
    image: "",
    statusFacts: [
      ...statusFacts,
      "boot state: unknown: Confluent keeps no boot status of a node (it has no nodestat), only a deployment's progress, and none is recorded",
    ],
    imageFacts,
  };
}

/** The panel's attributes in Confluent's names; a secret is `[secret]` (Confluent never returns its value, item 7). */
export function confluentShownAttributes(attributes: ConfluentNodeAttributes | undefined): ShownAttribute[] {
  const shown: ShownAttribute[] = [];
  for (const [name, reported] of [...(attributes ?? new Map<string, ConfluentReported>())].sort((a, b) =>
    compareStrings(a[0], b[0]),
  )) {
    let value: string;
    if (name.startsWith("secret.") || name.startsWith("crypted.") || reported.isset !== undefined) {
      if (reported.isset !== true && !name.startsWith("secret.") && !name.startsWith("crypted.")) continue;
      value = "[secret]";
    } else if (reported.broken !== undefined) {
      value = `(broken expression ${reported.expression ?? ""}: ${reported.broken})`;
    } else {
      value = text(attributes, name);
      if (value === "") continue;
      if (reported.expression !== undefined) value = `${value} (expression ${reported.expression})`;
    }
    shown.push(
      reported.inheritedfrom === undefined ? { name, value } : { name, value, from: reported.inheritedfrom },
    );
  }
  return shown;
}

/** A groups list as the program records it and Confluent stores it: without `all` and `everything`. */
function comparableGroups(groups: string): string {
  return groups
    .split(",")
    .filter((group) => group !== "" && group !== XCAT_ALL_GROUP && group !== CONFLUENT_EVERYTHING_GROUP)
    .join(",");
}

/**
 * Whether Confluent holds another value now than the stack recorded for the program's xCAT
 * attribute (through the one map of xCAT names to Confluent's, xcat-attribute-map.ts); undefined
 * for what cannot be compared: a write-only secret, an expression, an attribute with no place there.
 */
export function confluentDiffers(
  attributes: ConfluentNodeAttributes | undefined,
  attribute: string,
  recorded: string,
): boolean | undefined {
  if (attribute === "groups") return comparableGroups(recorded) !== confluentGroups(attributes).join(",");
  const mapping = mappingOfXcat(attribute);
  if (mapping === undefined || mapping.writeOnly || recorded.startsWith("|") || recorded.startsWith("{"))
    return undefined;
  return xcatValueOf(mapping, text(attributes, mapping.confluent)) !== recorded;
}

/** A Confluent read as {@link ClusterNodes}. */
export function confluentClusterNodes(read: ConfluentClusterRead): ClusterNodes {
  const members = new Map<string, string[]>();
  for (const [node, attributes] of read.attributes) {
    for (const group of confluentGroups(attributes))
      members.set(group, [...(members.get(group) ?? []), node]);
  }
  const nodes = [...read.attributes.keys()];
  const context: NoderangeContext = {
    isNode: (name) => read.attributes.has(name),
    // A program's `all` is Confluent's `everything` (xcat-attribute-map.ts).
    groupMembers: (group) =>
      group === XCAT_ALL_GROUP || group === CONFLUENT_EVERYTHING_GROUP ? nodes : members.get(group),
  };
  return {
    backend: "confluent",
    nodes,
    power: read.power,
    ...(read.powerProblem ? { powerProblem: read.powerProblem } : {}),
    nodePowerProblems: read.nodePowerProblems,
    context,
    boot: (node) => confluentBoot(read.attributes.get(node)),
    placement: (node) => confluentPlacement(node, read.attributes.get(node)),
    attributes: (node) => confluentShownAttributes(read.attributes.get(node)),
    differs: (node, attribute, recorded) => confluentDiffers(read.attributes.get(node), attribute, recorded),
  };
}
