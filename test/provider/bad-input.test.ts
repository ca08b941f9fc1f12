/**
 * Issue 8, item 5: invalid inputs, table-driven, through the provider's `check` exactly as the
 * dynamic-provider host calls it. Each case must fail on the field it is about, with a reason
 * that names that field and says what is wrong; `check` must never throw; and nothing may reach
 * xCAT (the emulator's data and request count are unchanged). test/e2e/reliability/bad-input
 * runs a subset as whole JavaScript programs through `pulumi preview`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProviderHarness, providerHarness } from "./support";

interface BadInputCase {
  readonly title: string;
  readonly kind: string;
  readonly inputs: Record<string, unknown>;
  /** The property the failure must be reported on. */
  readonly field: string;
  /** What the reason must say. */
  readonly reason: RegExp;
}

const node = (inputs: Record<string, unknown>) => ({ name: "cn001", groups: ["all"], ...inputs });
const network = (inputs: Record<string, unknown>) => ({
  name: "mgmt",
  net: "10.0.0.0",
  mask: "255.255.0.0",
  ...inputs,
});
const row = (inputs: Record<string, unknown>) => ({
  table: "routes",
  keys: { routename: "r1" },
  values: { net: "10.2.0.0" },
  ...inputs,
});
const vm = (inputs: Record<string, unknown>) => ({
  node: "vm01",
  cpus: 2,
  memoryMiB: 4096,
  disksGiB: [20],
  ...inputs,
});

// biome-ignore format: one case per line reads as a table
const BAD_INPUTS: readonly BadInputCase[] = [
  // Names: characters that would change the REST path or turn one name into a noderange.
  { title: "node name with /", kind: "xcat:Node", inputs: node({ name: "rack1/cn01" }), field: "name", reason: /must not contain '\/'/ },
  { title: "node name with ..", kind: "xcat:Node", inputs: node({ name: "cn..01" }), field: "name", reason: /must not contain '\.\.'/ },
  { title: "node name with ,", kind: "xcat:Node", inputs: node({ name: "cn01,cn02" }), field: "name", reason: /must not contain ','/ },
  { title: "node name with a space", kind: "xcat:Node", inputs: node({ name: "cn 01" }), field: "name", reason: /must not contain whitespace/ },
  { title: "empty node name", kind: "xcat:Node", inputs: node({ name: "" }), field: "name", reason: /must not be empty/ },
  { title: "node name with .", kind: "xcat:Node", inputs: node({ name: "cn01.example" }), field: "name", reason: /only letters, digits/ },
  { title: "node name a number", kind: "xcat:Node", inputs: node({ name: 42 }), field: "name", reason: /must be a string, got number 42/ },
  { title: "osimage name with ,", kind: "xcat:Osimage", inputs: { name: "img1,img2" }, field: "name", reason: /must not contain ','/ },
  { title: "osimage name with ..", kind: "xcat:Osimage", inputs: { name: "../etc" }, field: "name", reason: /must not contain '\/', '\.\.'/ },
  { title: "empty group name", kind: "xcat:Group", inputs: { name: "" }, field: "name", reason: /must not be empty/ },
  { title: "network name with /", kind: "xcat:Network", inputs: network({ name: "10.0.0.0/16" }), field: "name", reason: /must not contain '\/'/ },
  { title: "site attribute name with a space", kind: "xcat:GlobalConfAttribute", inputs: { name: "dns servers", value: "x" }, field: "name", reason: /must not contain whitespace/ },
  { title: "VM node name with /", kind: "xcat:VirtualMachine", inputs: vm({ node: "vm/01" }), field: "node", reason: /must not contain '\/'/ },
  { title: "clone source empty", kind: "xcat:VirtualMachine", inputs: vm({ cloneFrom: "" }), field: "cloneFrom", reason: /must not be empty/ },
  // Groups.
  { title: "groups missing", kind: "xcat:Node", inputs: { name: "cn001" }, field: "groups", reason: /groups is required/ },
  { title: "groups a string", kind: "xcat:Node", inputs: node({ groups: "compute" }), field: "groups", reason: /non-empty list of group names/ },
  { title: "groups empty", kind: "xcat:Node", inputs: node({ groups: [] }), field: "groups", reason: /non-empty list of group names/ },
  { title: "group name in groups with /", kind: "xcat:Node", inputs: node({ groups: ["all", "a/b"] }), field: "groups", reason: /groups\[1\] 'a\/b' must not contain '\/'/ },
  // Attribute names and types.
  { title: "unknown node attribute", kind: "xcat:Node", inputs: node({ attributes: { mgmt: "ipmi" } }), field: "attributes", reason: /'mgmt' is not a node attribute.*did you mean 'mgt'/ },
  { title: "node attribute value a number", kind: "xcat:Node", inputs: node({ attributes: { mgt: 5 } }), field: "attributes", reason: /value of 'mgt' must be a string, got number 5/ },
  { title: "attributes an array", kind: "xcat:Node", inputs: node({ attributes: ["mgt=ipmi"] }), field: "attributes", reason: /must be an object of attribute name to string, got an array/ },
  { title: "attributes a string", kind: "xcat:Node", inputs: node({ attributes: "mgt=ipmi" }), field: "attributes", reason: /must be an object of attribute name to string, got 'mgt=ipmi'/ },
  { title: "unknown network attribute", kind: "xcat:Network", inputs: network({ attributes: { gatway: "10.0.0.254" } }), field: "attributes", reason: /'gatway' is not a network attribute.*did you mean 'gateway'/ },
  { title: "unknown osimage attribute", kind: "xcat:Osimage", inputs: { name: "img", attributes: { osversion: "rhels9" } }, field: "attributes", reason: /'osversion' is not a osimage attribute/ },
  { title: "osimage attribute value an object", kind: "xcat:Osimage", inputs: { name: "img", attributes: { osvers: { v: 9 } } }, field: "attributes", reason: /value of 'osvers' must be a string, got an object/ },
  { title: "a group with no attributes (xCAT keeps none)", kind: "xcat:Group", inputs: { name: "gpu", attributes: {} }, field: "attributes", reason: /attributes must set at least one attribute of the group 'gpu': xCAT keeps no group without attributes/ },
  { title: "unknown group attribute", kind: "xcat:Group", inputs: { name: "compute", attributes: { netbooot: "xnba" } }, field: "attributes", reason: /'netbooot' is not a group attribute/ },
  { title: "unknown policy attribute", kind: "xcat:Policy", inputs: { priority: "6", attributes: { user: "ops" } }, field: "attributes", reason: /'user' is not a policy attribute/ },
  { title: "adopt a string", kind: "xcat:Node", inputs: node({ adopt: "yes" }), field: "adopt", reason: /adopt must be true or false, got 'yes'/ },
  { title: "purgeOnDelete a string", kind: "xcat:VirtualMachine", inputs: vm({ purgeOnDelete: "no" }), field: "purgeOnDelete", reason: /purgeOnDelete must be true or false/ },
  { title: "site attribute value a number", kind: "xcat:GlobalConfAttribute", inputs: { name: "domain", value: 7 }, field: "value", reason: /value must be a string, got number 7/ },
  { title: "connection a string", kind: "xcat:Node", inputs: node({ connection: "https://mn" }), field: "connection", reason: /connection must be an object with at least a url/ },
  { title: "connection with an unknown setting", kind: "xcat:Osimage", inputs: { name: "img", connection: { url: "https://mn", passwd: "x" } }, field: "connection", reason: /unknown setting 'passwd'/ },
  { title: "connection.insecure a string", kind: "xcat:Network", inputs: network({ connection: { url: "https://mn", insecure: "true" } }), field: "connection", reason: /connection\.insecure must be true or false/ },
  // IPv4.
  { title: "net with three octets", kind: "xcat:Network", inputs: network({ net: "10.0.0" }), field: "net", reason: /net must be an IPv4 address/ },
  { title: "net with an octet above 255", kind: "xcat:Network", inputs: network({ net: "10.0.0.256" }), field: "net", reason: /net must be an IPv4 address/ },
  { title: "net missing", kind: "xcat:Network", inputs: { name: "mgmt", mask: "255.255.0.0" }, field: "net", reason: /net is required/ },
  { title: "mask not contiguous", kind: "xcat:Network", inputs: network({ mask: "255.0.255.0" }), field: "mask", reason: /mask '255\.0\.255\.0' is not a contiguous netmask/ },
  { title: "mask in CIDR form", kind: "xcat:Network", inputs: network({ mask: "16" }), field: "mask", reason: /mask must be a netmask like 255\.255\.0\.0/ },
  // Policy priority.
  { title: "priority a word", kind: "xcat:Policy", inputs: { priority: "high" }, field: "priority", reason: /priority must be a number written as a string/ },
  { title: "priority a number", kind: "xcat:Policy", inputs: { priority: 6 }, field: "priority", reason: /priority must be a number written as a string.*got number 6/ },
  { title: "priority negative", kind: "xcat:Policy", inputs: { priority: "-1" }, field: "priority", reason: /priority must be a number written as a string/ },
  // Tables and keys.
  { title: "unknown table", kind: "xcat:TableRow", inputs: row({ table: "nosuchtable" }), field: "table", reason: /'nosuchtable' is not an xCAT table/ },
  { title: "table missing", kind: "xcat:TableRow", inputs: row({ table: undefined }), field: "table", reason: /table must be the name of an xCAT table/ },
  { title: "keys that are not key columns", kind: "xcat:TableRow", inputs: row({ keys: { net: "10.2.0.0" } }), field: "keys", reason: /keys must be exactly the key columns of table 'routes' \(routename\); missing routename; not key columns: net/ },
  { title: "a key column too many", kind: "xcat:TableRow", inputs: row({ keys: { routename: "r1", node: "cn001" } }), field: "keys", reason: /not key columns: node/ },
  { title: "key value with ,", kind: "xcat:TableRow", inputs: row({ keys: { routename: "r1,r2" } }), field: "keys", reason: /keys\.routename 'r1,r2' must not contain ','/ },
  { title: "unknown column", kind: "xcat:TableRow", inputs: row({ values: { netmask: "255.0.0.0" } }), field: "values", reason: /'netmask' is not a column of table 'routes'/ },
  { title: "no values", kind: "xcat:TableRow", inputs: row({ values: {} }), field: "values", reason: /values must set at least one column/ },
  // VM sizes.
  { title: "zero CPUs", kind: "xcat:VirtualMachine", inputs: vm({ cpus: 0 }), field: "cpus", reason: /cpus must be a positive whole number, got number 0/ },
  { title: "negative CPUs", kind: "xcat:VirtualMachine", inputs: vm({ cpus: -2 }), field: "cpus", reason: /cpus must be a positive whole number/ },
  { title: "zero memory", kind: "xcat:VirtualMachine", inputs: vm({ memoryMiB: 0 }), field: "memoryMiB", reason: /memoryMiB must be a positive whole number/ },
  { title: "fractional memory", kind: "xcat:VirtualMachine", inputs: vm({ memoryMiB: 1.5 }), field: "memoryMiB", reason: /memoryMiB must be a positive whole number, got number 1\.5/ },
  { title: "memory as a string", kind: "xcat:VirtualMachine", inputs: vm({ memoryMiB: "4096" }), field: "memoryMiB", reason: /memoryMiB must be a positive whole number, got '4096'/ },
  { title: "no disks", kind: "xcat:VirtualMachine", inputs: vm({ disksGiB: [] }), field: "disksGiB", reason: /disksGiB must be a non-empty list/ },
  { title: "a negative disk", kind: "xcat:VirtualMachine", inputs: vm({ disksGiB: [20, -5] }), field: "disksGiB", reason: /disksGiB\[1\] must be a positive whole number, got number -5/ },
  { title: "a zero disk", kind: "xcat:VirtualMachine", inputs: vm({ disksGiB: [0] }), field: "disksGiB", reason: /disksGiB\[0\] must be a positive whole number/ },
  // Conflicting settings.
  { title: "groups also in attributes", kind: "xcat:Node", inputs: node({ attributes: { groups: "compute" } }), field: "attributes", reason: /'groups' is set by the 'groups' input, not in attributes/ },
  { title: "net also in attributes", kind: "xcat:Network", inputs: network({ attributes: { net: "10.1.0.0" } }), field: "attributes", reason: /'net' is set by the 'net' input/ },
  { title: "an attribute both plain and secret", kind: "xcat:Node", inputs: node({ attributes: { bmcpassword: "a" }, secretAttributes: { bmcpassword: "b" } }), field: "attributes", reason: /'bmcpassword' is also given in secretAttributes/ },
  { title: "net with host bits for its mask", kind: "xcat:Network", inputs: network({ net: "10.0.0.1", mask: "255.255.255.0" }), field: "net", reason: /net 10\.0\.0\.1 has host bits set for mask 255\.255\.255\.0/ },
  { title: "a key column among the values", kind: "xcat:TableRow", inputs: row({ values: { routename: "r2", net: "10.2.0.0" } }), field: "values", reason: /'routename' is a key column of table 'routes'; give it in keys/ },
  { title: "empty site value (delete instead)", kind: "xcat:GlobalConfAttribute", inputs: { name: "domain", value: "" }, field: "value", reason: /value must not be empty \(to remove a site attribute, delete the resource\)/ },
];

describe("bad input is refused by check, on the right field, with nothing sent to xCAT", () => {
  let h: ProviderHarness;
  let snapshot: string;
  let requests: number;

  beforeAll(async () => {
    h = await providerHarness();
    snapshot = h.emulator.state.snapshot();
    requests = h.emulator.stats().total;
  });

  afterAll(async () => {
    // check is pure: none of the cases may have touched xCAT.
    expect(h.emulator.state.snapshot()).toBe(snapshot);
    expect(h.emulator.stats().total).toBe(requests);
    await h.close();
  });

  it("has at least 40 cases", () => {
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(BAD_INPUTS)("$kind: $title", async ({ kind, inputs, field, reason }) => {
    const result = await h.check(kind, inputs);
    expect(result.inputs).toBeUndefined();
    const failures = result.failures ?? [];
    // A failure on an input holding a password comes without its property (the engine would
    // print the value next to it); its reason still starts with the field.
    const onField = failures.filter(
      (failure) =>
        failure.property === field || (failure.property === "" && failure.reason.startsWith(field)),
    );
    expect(onField, `failures: ${JSON.stringify(failures)}`).not.toEqual([]);
    expect(onField.map((failure) => failure.reason).join("\n")).toMatch(reason);
    // Every reason names the input it is about, so it reads on its own in Pulumi's output.
    for (const failure of failures) expect(failure.reason).toContain(failure.property);
  });
});
