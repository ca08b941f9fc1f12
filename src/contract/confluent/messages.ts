/**
 * Confluent's exact texts, as its 3.15.6 server writes them (source lines cited) and as recorded
 * from a real one (test/confluent-emulator/recorded/). A handled error is answered with the HTTP
 * reason phrase `<Category> - <detail>` and the body `{"error": "<Category> - <detail>"}`
 * (exceptions.py:37 get_error_body); an unhandled one with status 500, reason `- <message>`, no
 * Content-Type and the plain body `500 - <message>` (httpapi.py:632 resourcehandler).
 */

/** Error categories (exceptions.py): the HTTP status and the reason's first part. */
export const CONFLUENT_ERROR_CATEGORIES = {
  notFound: { status: 404, category: "Target not found" }, // exceptions.py:52
  badRequest: { status: 400, category: "Bad Request" }, // exceptions.py:59
  unreachable: { status: 504, category: "Unreachable Target" }, // exceptions.py:66
  badCredentials: { status: 502, category: "Bad Credentials" }, // exceptions.py:73
  forbidden: { status: 403, category: "Forbidden" }, // exceptions.py:91
} as const;

export type ConfluentErrorKind = keyof typeof CONFLUENT_ERROR_CATEGORIES;

export const confluentMessages = {
  /** 401 body (text/plain), with `WWW-Authenticate: Basic realm="confluent"` unless ConfluentAuthToken was sent (httpapi.py:522). */
  authenticationRequired: "authentication required",
  authenticationReason: "Authentication Required",
  logoutResult: "200 - Successful logout", // httpapi.py:515
  logoutReason: "Successful logout",
  /** GET without Accept: application/json (httpapi.py:1105 _assemble_html). */
  htmlExplorerDiscontinued:
    "<html><body>HTML API Explorer is discontinued, notify developers if you want this back</body></html>",
  badMethodReason: "Bad Method", // httpapi.py:505
  // 404
  invalidNode: "Invalid Node", // core.py:1043
  invalidNoderange: (detail: string) => `Invalid Noderange: ${detail}`, // core.py:1049
  invalidNodegroup: (group: string) => `Invalid nodegroup: ${group} not found`, // attributes.py:39
  invalidElement: "Invalid element requested", // core.py:1080
  unrecognizedRequest: "Unrecognized request", // core.py:273
  notRecognized: (element: string) => `${element} not a recognized node, group, or alias`, // noderange.py:473
  unknownNode: (name: string) => `Unknown node ${name}`, // noderange.py:400
  // 400
  noRequestData: "no request data provided", // messages.py:818
  nameNotSpecified: "name not specified", // core.py:817
  nameNotSupported: (name: string) => `Name "${name}" is not supported`, // core.py:811
  groupDoesNotExist: (group: string) => `group ${group} does not exist`, // configmanager.py:2572
  nodeAttributeInvalid: (attribute: string, node: string) =>
    `${attribute} attribute on node ${node} is invalid`, // configmanager.py:2592
  groupAttributeInvalid: (attribute: string) => `${attribute} attribute is invalid`, // configmanager.py:2067
  nodeNotFoundForGroup: (node: string, group: string) => `${node} node does not exist to add to ${group}`, // configmanager.py:2105
  doesNotAcceptValue: (attribute: string, value: string, valid: readonly string[]) =>
    `Attribute ${attribute} does not accept value ${value} (valid values would be ${valid.join(",")})`, // messages.py:865
  doesNotAcceptListMember: (attribute: string, value: string, valid: readonly string[]) =>
    `Attribute ${attribute} does not accept list member ${value} (valid values would be ${valid.join(",")})`, // messages.py:871
  lockByApiOnly: "Deployment lock must be manipulated by {node}/deployment/lock api", // plugins/configuration/attributes.py:271
  lockedDeployment: "Request to set deployment for a node that has locked deployment", // plugins/configuration/attributes.py:276
  badExpression: (detail: string) =>
    `Bad confluent expression syntax (must use "{{" and "}}" if not desiring confluent expansion): ${detail}`, // plugins/configuration/attributes.py:216
  brokenExpressionName: (name: string) => `${name} is not a valid attribute name`, // configmanager.py:1198
  missingInputData: "missing input data", // messages.py ConfluentInputMessage
  notInRequest: (node: string) => `${node} not in request`,
  notOneOf: (value: string, valid: readonly string[]) => `${value} is not one of ${valid.join(",")}`,
  // 504 / 502 per node inside a noderange answer (messages.py:293, 316)
  timeout: "timeout",
  badCredentials: "bad credentials",
} as const;

/**
 * Valid power states in the order 3.15.6 lists them in its error (a Python set's order, as
 * recorded: messages.py:1165 InputPowerMessage).
 */
export const CONFLUENT_POWER_STATES = ["boot", "diag", "reset", "on", "shutdown", "off"] as const;
export type ConfluentPowerState = (typeof CONFLUENT_POWER_STATES)[number];

/** Valid next boot devices in the order the recorded error lists them (messages.py:1341 BootDevice). */
export const CONFLUENT_BOOT_DEVICES = [
  "floppy",
  "default",
  "cd",
  "setup",
  "hd",
  "network",
  "usb",
  "http",
] as const;
export type ConfluentBootDevice = (typeof CONFLUENT_BOOT_DEVICES)[number];

/** deployment/lock values (config/attributes.py:221 plus the default). */
export const CONFLUENT_LOCK_STATES = ["autolock", "locked", "unlocked"] as const;
