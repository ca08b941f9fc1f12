/**
 * The exchanges recorded against a real Confluent 3.15.6 (test/confluent-emulator/record.ts)
 * and replayed against confluent-emulator (conformance.test.ts). Each scenario starts from a
 * server that holds none of its objects (the recorder deletes them first; the emulator starts
 * empty) and names every node `cfe<N>` and every group `cfe…` so that a shared real server is
 * never touched outside them. Nodes that are powered have their manager on 127.0.10.2x, where a
 * simulated BMC (ipmi_sim) answers with user cfeadmin / cfebmcpw; the others resolve to
 * 127.0.10.29, where nothing answers.
 */

/** How a request authenticates. */
export type AuthMode =
  | "basic" // the account's user and password
  | "none"
  | "wrong-password"
  | "unknown-user"
  | "session" // the ConfluentSession header with the session opened by the last Basic request
  | "session-cookie" // the same id as a confluentsessionid cookie
  | "stale-session"; // an id the server never issued

export interface ScenarioStep {
  readonly method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
  /** Path below the API root (/confluent-api is prefixed). */
  readonly path: string;
  /** JSON body (serialized), or a raw string sent as-is. */
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly contentType?: string;
  readonly auth?: AuthMode;
  /** Default true: send Accept: application/json. */
  readonly acceptJson?: boolean;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Lists inside the answer that the real server fills in completion order: compared as sets. */
  readonly unordered?: readonly string[];
  /** Wait this long before sending (for power transitions on the simulated BMC). */
  readonly delayMs?: number;
  /** Why this exchange is recorded (shown in test names). */
  readonly what: string;
}

export interface Scenario {
  readonly name: string;
  /** Nodes and groups the recorder removes before recording (left over from an earlier run). */
  readonly cleanup: { readonly nodes: readonly string[]; readonly groups: readonly string[] };
  readonly steps: readonly ScenarioStep[];
}

const BMC = { user: "cfeadmin", password: "cfebmcpw" };

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "auth",
    cleanup: { nodes: [], groups: [] },
    steps: [
      { what: "no credentials", method: "GET", path: "/nodes/", auth: "none" },
      { what: "wrong password", method: "GET", path: "/nodes/", auth: "wrong-password" },
      { what: "unknown user", method: "GET", path: "/nodes/", auth: "unknown-user" },
      { what: "basic auth opens a session", method: "GET", path: "/sessions/current/info", auth: "basic" },
      { what: "the session header reuses it", method: "GET", path: "/nodes/", auth: "session" },
      { what: "the session cookie reuses it", method: "GET", path: "/nodes/", auth: "session-cookie" },
      { what: "an unknown session id", method: "GET", path: "/nodes/", auth: "stale-session" },
      {
        what: "a Bearer token is not understood",
        method: "GET",
        path: "/nodes/",
        auth: "none",
        headers: { Authorization: "Bearer abc" },
      },
      {
        what: "no credentials with ConfluentAuthToken: no WWW-Authenticate",
        method: "GET",
        path: "/nodes/",
        auth: "none",
        headers: { ConfluentAuthToken: "x" },
      },
      { what: "logout", method: "GET", path: "/sessions/current/logout", auth: "session" },
      { what: "the session is gone after logout", method: "GET", path: "/nodes/", auth: "session" },
      { what: "without Accept json: HTML notice", method: "GET", path: "/nodes/", acceptJson: false },
      { what: "a .json suffix instead of Accept", method: "GET", path: "/nodes.json/", acceptJson: false },
      { what: "PATCH is not a method", method: "PATCH", path: "/nodes/", body: {} },
      { what: "version", method: "GET", path: "/version" },
      { what: "root collection", method: "GET", path: "/" },
      { what: "unknown path", method: "GET", path: "/nosuchthing/" },
    ],
  },
  {
    name: "nodes-groups",
    cleanup: {
      nodes: ["cfe1", "cfe2", "cfe3", "cfe4", "cfe5", "cfe6", "cfe7", "cfe8", "cfe9"],
      groups: ["cfecompute", "cfeother", "cfeempty", "cfenew"],
    },
    steps: [
      {
        what: "create a group with attributes",
        method: "POST",
        path: "/nodegroups/",
        body: {
          name: "cfecompute",
          "hardwaremanagement.method": "ipmi",
          "console.method": "ipmi",
          "location.rack": "r1",
        },
      },
      {
        what: "a second group",
        method: "POST",
        path: "/nodegroups/",
        body: { name: "cfeother", "location.rack": "r9", "location.room": "b2" },
      },
      { what: "group create without name", method: "POST", path: "/nodegroups/", body: {} },
      {
        what: "create a node in two groups",
        method: "POST",
        path: "/nodes/",
        body: { name: "cfe1", groups: ["cfecompute", "cfeother"], "net.hwaddr": "00:11:22:33:44:01" },
      },
      {
        what: "create two nodes by noderange, groups as a comma string",
        method: "POST",
        path: "/noderange/",
        body: { name: "cfe2,cfe3", groups: "cfeother,cfecompute" },
      },
      {
        what: "create a node naming a missing group",
        method: "POST",
        path: "/nodes/",
        body: { name: "cfe4", groups: ["nosuchgroup"] },
      },
      {
        what: "create a node with an unknown attribute",
        method: "POST",
        path: "/nodes/",
        body: { name: "cfe4", "nosuch.attribute": "x" },
      },
      { what: "a name with a space", method: "POST", path: "/nodes/", body: { name: "bad name" } },
      { what: "create a plain node", method: "POST", path: "/nodes/", body: { name: "cfe4" } },
      { what: "list nodes", method: "GET", path: "/nodes/" },
      { what: "list groups", method: "GET", path: "/nodegroups/" },
      { what: "one node's collection", method: "GET", path: "/nodes/cfe1/" },
      { what: "own and inherited attributes", method: "GET", path: "/nodes/cfe1/attributes/current" },
      { what: "inheritance follows list order", method: "GET", path: "/nodes/cfe2/attributes/current" },
      { what: "every attribute of the schema", method: "GET", path: "/nodes/cfe4/attributes/all" },
      {
        what: "a group's current attributes",
        method: "GET",
        path: "/nodegroups/cfecompute/attributes/current",
      },
      { what: "a group's all view", method: "GET", path: "/nodegroups/cfeother/attributes/all" },
      {
        what: "everything lists its nodes",
        method: "GET",
        path: "/nodegroups/everything/attributes/current",
      },
      {
        what: "noderange read of current attributes",
        method: "GET",
        path: "/noderange/cfe1,cfe4/attributes/current",
      },
      { what: "noderange nodes listing", method: "GET", path: "/noderange/cfecompute/nodes/" },
      {
        what: "update a node: set, clear and a console method",
        method: "PUT",
        path: "/nodes/cfe1/attributes/current",
        body: { "location.rack": "r2", "net.hwaddr": null, "custom.owner": "alice" },
      },
      {
        what: "an empty string masks the group value",
        method: "PUT",
        path: "/nodes/cfe2/attributes/current",
        body: { "location.room": "" },
      },
      {
        what: "noderange write to one node",
        method: "PUT",
        path: "/noderange/cfe3/attributes/current",
        body: { "location.row": "7" },
      },
      {
        what: "a bad console.method value",
        method: "PUT",
        path: "/nodes/cfe1/attributes/current",
        body: { "console.method": "bogus" },
      },
      {
        what: "an unknown attribute on update",
        method: "PUT",
        path: "/nodes/cfe1/attributes/current",
        body: { "nosuch.attribute": "x" },
      },
      {
        what: "update a group",
        method: "PUT",
        path: "/nodegroups/cfeother/attributes/current",
        body: { "location.room": "b3", "location.rack": null },
      },
      {
        what: "inherited value after the group change",
        method: "GET",
        path: "/nodes/cfe3/attributes/current",
      },
      {
        what: "noderange write",
        method: "PUT",
        path: "/noderange/cfe1,cfe2/attributes/current",
        body: { "location.u": "10" },
      },
      {
        what: "create an existing node merges and replaces groups",
        method: "POST",
        path: "/nodes/",
        body: { name: "cfe4", groups: ["cfeother"], "location.u": "4" },
      },
      { what: "after the merge", method: "GET", path: "/nodes/cfe4/attributes/current" },
      {
        what: "create a group with nodes puts it first",
        method: "POST",
        path: "/nodegroups/",
        body: { name: "cfenew", nodes: ["cfe1", "cfe4"], "location.room": "new" },
      },
      { what: "groups after group create", method: "GET", path: "/noderange/cfe1,cfe4/attributes/current" },
      { what: "delete the group", method: "DELETE", path: "/nodegroups/cfenew" },
      { what: "members lose it", method: "GET", path: "/nodes/cfe4/attributes/current" },
      { what: "delete a missing group", method: "DELETE", path: "/nodegroups/cfenosuch" },
      { what: "unknown node", method: "GET", path: "/nodes/cfe9/attributes/current" },
      { what: "delete a missing node", method: "DELETE", path: "/nodes/cfe9" },
      { what: "unknown group", method: "GET", path: "/nodegroups/cfenosuch/attributes/current" },
      {
        what: "noderange with an unknown name",
        method: "GET",
        path: "/noderange/cfe1,nosuch/attributes/current",
      },
      { what: "noderange range with a gap", method: "GET", path: "/noderange/cfe1-cfe5/nodes/" },
      { what: "noderange brackets with a gap", method: "GET", path: "/noderange/cfe[1-5]/nodes/" },
      { what: "noderange range", method: "GET", path: "/noderange/cfe1-cfe4/nodes/" },
      { what: "noderange exclusion", method: "GET", path: "/noderange/cfecompute,-cfe2/nodes/" },
      { what: "noderange to nothing", method: "GET", path: "/noderange/cfe1,-cfe1/nodes/" },
      { what: "noderange regex", method: "GET", path: "/noderange/~cfe[23]/nodes/" },
      { what: "noderange attribute match", method: "GET", path: "/noderange/location.rack==r2/nodes/" },
      { what: "noderange intersection", method: "GET", path: "/noderange/cfecompute@cfeother/nodes/" },
      {
        what: "abbreviate",
        method: "POST",
        path: "/noderange/cfe1-cfe4/abbreviate",
        body: { nodes: ["cfe1", "cfe2", "cfe3", "cfe4"] },
      },
      {
        what: "malformed JSON",
        method: "POST",
        path: "/nodes/",
        rawBody: "{not json",
        contentType: "application/json",
      },
      {
        what: "an integer value",
        method: "PUT",
        path: "/nodes/cfe1/attributes/current",
        body: { "location.u": 5 },
      },
      { what: "PUT on a group collection", method: "PUT", path: "/nodegroups/cfeother/", body: {} },
      { what: "DELETE on the node collection", method: "DELETE", path: "/nodes/" },
      { what: "delete a node", method: "DELETE", path: "/nodes/cfe4" },
      { what: "delete by noderange", method: "DELETE", path: "/noderange/cfe1-cfe3", unordered: ["deleted"] },
      { what: "nodes gone", method: "GET", path: "/nodes/" },
      { what: "delete the groups", method: "DELETE", path: "/noderange/cfecompute,cfeother" },
      { what: "delete a group", method: "DELETE", path: "/nodegroups/cfecompute" },
      { what: "delete the other group", method: "DELETE", path: "/nodegroups/cfeother" },
      { what: "groups gone", method: "GET", path: "/nodegroups/" },
    ],
  },
  {
    name: "expressions-secrets",
    cleanup: { nodes: ["cfe5", "cfe15", "cfe16"], groups: ["cfeexpr", "cfesec"] },
    steps: [
      {
        what: "a group with an expression",
        method: "POST",
        path: "/nodegroups/",
        body: { name: "cfeexpr", "net.ipv4_address": "10.0.0.{n1}", "location.u": "{n1+10}" },
      },
      {
        what: "a group with secrets",
        method: "POST",
        path: "/nodegroups/",
        body: {
          name: "cfesec",
          "secret.hardwaremanagementuser": "admin",
          "secret.hardwaremanagementpassword": "s3cret",
        },
      },
      {
        what: "a group shows the expression only",
        method: "GET",
        path: "/nodegroups/cfeexpr/attributes/current",
      },
      {
        what: "a group shows secrets as isset",
        method: "GET",
        path: "/nodegroups/cfesec/attributes/current",
      },
      {
        what: "nodes in both groups",
        method: "POST",
        path: "/noderange/",
        body: { name: "cfe5,cfe15", groups: ["cfeexpr", "cfesec"] },
      },
      { what: "a member shows the expansion", method: "GET", path: "/nodes/cfe15/attributes/current" },
      {
        what: "a node's own expression",
        method: "PUT",
        path: "/nodes/cfe5/attributes/current",
        body: { "location.slot": "{n0}-{location.u}", "secret.ipmikg": "kg" },
      },
      { what: "own expression and own secret", method: "GET", path: "/nodes/cfe5/attributes/current" },
      {
        what: "an expression naming an unknown attribute",
        method: "PUT",
        path: "/nodes/cfe5/attributes/current",
        body: { "location.room": "{nosuchvar}" },
      },
      {
        what: "an unbalanced brace",
        method: "PUT",
        path: "/nodes/cfe5/attributes/current",
        body: { "location.row": "{n1" },
      },
      { what: "expression view by GET", method: "GET", path: "/nodes/cfe5/attributes/expression" },
      {
        what: "evaluate an expression",
        method: "POST",
        path: "/nodes/cfe15/attributes/expression",
        body: { expression: "{node}-{n1}-{n1:02d}" },
      },
      {
        what: "evaluate over a noderange",
        method: "POST",
        path: "/noderange/cfe5,cfe15/attributes/expression",
        body: { expression: "rack{n1//10}" },
      },
      {
        what: "a bad expression",
        method: "POST",
        path: "/nodes/cfe5/attributes/expression",
        body: { expression: "{n1" },
      },
      {
        what: "group check with the right secret",
        method: "PUT",
        path: "/nodegroups/cfesec/attributes/check",
        body: { "secret.hardwaremanagementpassword": "s3cret" },
      },
      {
        what: "group check with a wrong secret",
        method: "PUT",
        path: "/nodegroups/cfesec/attributes/check",
        body: { "secret.hardwaremanagementpassword": "nope" },
      },
      { what: "all view with secrets", method: "GET", path: "/nodes/cfe15/attributes/all" },
      {
        what: "noderange read with expressions",
        method: "GET",
        path: "/noderange/cfe5,cfe15/attributes/current",
      },
      { what: "clean up nodes", method: "DELETE", path: "/noderange/cfe5,cfe15", unordered: ["deleted"] },
      { what: "clean up group", method: "DELETE", path: "/nodegroups/cfeexpr" },
      { what: "clean up group 2", method: "DELETE", path: "/nodegroups/cfesec" },
    ],
  },
  {
    name: "power-boot",
    cleanup: { nodes: ["cfe20", "cfe21", "cfe22", "cfe23"], groups: ["cfebmc"] },
    steps: [
      {
        what: "a group with BMC credentials",
        method: "POST",
        path: "/nodegroups/",
        body: {
          name: "cfebmc",
          "hardwaremanagement.method": "ipmi",
          "secret.hardwaremanagementuser": BMC.user,
          "secret.hardwaremanagementpassword": BMC.password,
        },
      },
      {
        what: "node with a simulated BMC",
        method: "POST",
        path: "/nodes/",
        body: { name: "cfe20", groups: ["cfebmc"], "hardwaremanagement.manager": "127.0.10.20" },
      },
      {
        what: "second node with a simulated BMC",
        method: "POST",
        path: "/nodes/",
        body: { name: "cfe21", groups: ["cfebmc"], "hardwaremanagement.manager": "127.0.10.21" },
      },
      {
        what: "a node whose BMC answers nothing",
        method: "POST",
        path: "/nodes/",
        body: { name: "cfe22", groups: ["cfebmc"], "hardwaremanagement.manager": "127.0.10.29" },
      },
      {
        what: "a node with a wrong BMC password",
        method: "POST",
        path: "/nodes/",
        body: {
          name: "cfe23",
          groups: ["cfebmc"],
          "hardwaremanagement.manager": "127.0.10.22",
          "secret.hardwaremanagementpassword": "wrongpw",
        },
      },
      { what: "power off first", method: "PUT", path: "/nodes/cfe20/power/state", body: { state: "off" } },
      { what: "power state off", method: "GET", path: "/nodes/cfe20/power/state" },
      { what: "power on", method: "PUT", path: "/nodes/cfe20/power/state", body: { state: "on" } },
      { what: "power state on", method: "GET", path: "/nodes/cfe20/power/state" },
      {
        what: "power boot of a powered node",
        method: "PUT",
        path: "/nodes/cfe20/power/state",
        body: { state: "boot" },
      },
      { what: "power reset", method: "PUT", path: "/nodes/cfe20/power/state", body: { state: "reset" } },
      { what: "bad power state", method: "PUT", path: "/nodes/cfe20/power/state", body: { state: "bogus" } },
      { what: "no power state", method: "PUT", path: "/nodes/cfe20/power/state", body: {} },
      {
        what: "power off by noderange",
        method: "PUT",
        path: "/noderange/cfe20,cfe21/power/state",
        body: { state: "off" },
        unordered: ["databynode"],
      },
      {
        what: "boot a powered-off node",
        method: "PUT",
        path: "/nodes/cfe21/power/state",
        body: { state: "boot" },
      },
      {
        what: "power state by noderange",
        method: "GET",
        path: "/noderange/cfe20,cfe21/power/state",
        unordered: ["databynode"],
      },
      { what: "unreachable BMC", method: "GET", path: "/nodes/cfe22/power/state" },
      { what: "wrong BMC password", method: "GET", path: "/nodes/cfe23/power/state" },
      {
        what: "noderange with failing nodes",
        method: "GET",
        path: "/noderange/cfe20,cfe22,cfe23/power/state",
        unordered: ["databynode"],
      },
      {
        what: "set the next boot device",
        method: "PUT",
        path: "/nodes/cfe20/boot/nextdevice",
        body: { nextdevice: "network" },
      },
      {
        what: "set it uefi, not persistent, by noderange",
        method: "PUT",
        path: "/noderange/cfe20,cfe21/boot/nextdevice",
        body: { nextdevice: "network", bootmode: "uefi", persistent: false },
        unordered: ["databynode"],
      },
      {
        what: "a bad boot device",
        method: "PUT",
        path: "/nodes/cfe20/boot/nextdevice",
        body: { nextdevice: "tape" },
      },
      { what: "read the boot device", method: "GET", path: "/nodes/cfe20/boot/nextdevice" },
      {
        what: "power on an unknown node",
        method: "PUT",
        path: "/nodes/cfe9/power/state",
        body: { state: "on" },
      },
      { what: "power off again", method: "PUT", path: "/nodes/cfe21/power/state", body: { state: "off" } },
      { what: "clean up nodes", method: "DELETE", path: "/noderange/cfebmc", unordered: ["deleted"] },
      { what: "clean up group", method: "DELETE", path: "/nodegroups/cfebmc" },
    ],
  },
  {
    name: "deployment",
    cleanup: { nodes: ["cfe25", "cfe26"], groups: ["cfedeploy"] },
    steps: [
      { what: "profiles", method: "GET", path: "/deployment/profiles/" },
      { what: "a profile's info", method: "GET", path: "/deployment/profiles/rocky-9.4-x86_64-default/info" },
      {
        what: "a profile as a collection",
        method: "GET",
        path: "/deployment/profiles/rocky-9.4-x86_64-default/",
      },
      { what: "deployment collection", method: "GET", path: "/deployment/" },
      { what: "a group to deploy", method: "POST", path: "/nodegroups/", body: { name: "cfedeploy" } },
      {
        what: "nodes to deploy",
        method: "POST",
        path: "/noderange/",
        body: { name: "cfe25,cfe26", groups: ["cfedeploy"] },
      },
      { what: "lock state", method: "GET", path: "/noderange/cfe25,cfe26/deployment/lock" },
      {
        what: "arm the api",
        method: "PUT",
        path: "/noderange/cfedeploy/attributes/current",
        body: { "deployment.apiarmed": "once" },
      },
      {
        what: "set the pending profile as nodedeploy does",
        method: "PUT",
        path: "/noderange/cfedeploy/attributes/current",
        body: {
          "deployment.pendingprofile": "rocky-9.4-x86_64-default",
          "deployment.state": "",
          "deployment.state_detail": "",
          "deployment.stagedprofile": "",
          "deployment.profile": "",
        },
      },
      { what: "deployment attributes", method: "GET", path: "/nodes/cfe25/attributes/current" },
      {
        what: "a profile that does not exist is accepted",
        method: "PUT",
        path: "/nodes/cfe26/attributes/current",
        body: { "deployment.pendingprofile": "nosuch-profile" },
      },
      {
        what: "setting the lock by attribute",
        method: "PUT",
        path: "/nodes/cfe26/attributes/current",
        body: { "deployment.lock": "locked" },
      },
      { what: "lock a node", method: "PUT", path: "/nodes/cfe26/deployment/lock", body: { lock: "locked" } },
      { what: "the lock shows", method: "GET", path: "/nodes/cfe26/deployment/lock" },
      {
        what: "a locked node refuses a pending profile",
        method: "PUT",
        path: "/nodes/cfe26/attributes/current",
        body: { "deployment.pendingprofile": "rocky-9.4-x86_64-default" },
      },
      { what: "unlock", method: "PUT", path: "/nodes/cfe26/deployment/lock", body: { lock: "unlocked" } },
      {
        what: "clear pending",
        method: "PUT",
        path: "/noderange/cfedeploy/attributes/current",
        body: { "deployment.pendingprofile": "" },
      },
      { what: "after clear", method: "GET", path: "/noderange/cfedeploy/attributes/current" },
      { what: "clean up nodes", method: "DELETE", path: "/noderange/cfedeploy", unordered: ["deleted"] },
      { what: "clean up group", method: "DELETE", path: "/nodegroups/cfedeploy" },
    ],
  },
];
