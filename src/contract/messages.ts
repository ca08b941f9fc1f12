/**
 * The exact texts xCAT's REST service answers with, quoted from xcatws.cgi and the xCAT plugins
 * (sections 3 and 9 of ../shared/xcat-behavior.md). The emulator writes them; the client
 * recognizes them. Keep xCAT's spelling, including its typos ("occured").
 */

// --- Errors raised by the web layer (xcatws.cgi): `error` is one string, errorcode "2" ----------
export const AUTHENTICATION_FAILURE = "Authentication failure";
export const UNSUPPORTED_RESOURCE = "Unsupported resource.";
export const MISSED_ACTION = "Missed Action.";
export const LACK_OF_OPERATION_DATA = "Lack of operation data.";
export const ALLRESOURCES_GET_ONLY = "Keyword ALLRESOURCES is only supported for GET Action.";
export const BODY_NOT_AN_OBJECT = "put or post data must be a json object (hash/dict).";
export const INVALID_SOURCE = "Invalid source.";
export const KEYS_FOR_SINGLE_TABLE_ONLY = "currently you can only specify keys for a single table.";
export const SERVICE_UNAVAILABLE = "communication with the xCAT server seems to have been ended prematurely";

export const methodNotSupported = (method: string, path: string) =>
  `request method '${method}' is not supported on resource '${path}'`;
export const incorrectAction = (action: string) => `Incorrect action:${action}.`;
export const tableNotInUri = (table: string) => `The table ${table} is NOT in the URI.`;

// --- Errors from xCAT commands (xcatd plugins): `error` is an array, status 403, errorcode "1" --
export const NO_OBJECT_DEFINITIONS_TO_DISPLAY = "Could not find any object definitions to display.";
export const ZERO_DEFINITIONS_CHANGED = "0 object definitions have been created or modified.";
export const ONE_OR_MORE_ERRORS =
  "One or more errors occured when attempting to create or modify xCAT object definitions.";
/**
 * xcatws's line for a command that ended with a non-zero return code and no message of its own
 * (filterData, master:xCAT-server/xCAT-wsapi/xcatws.cgi:3167-3178): mkdef/chdef/rmdef end that
 * way whenever they `return 1` (DBobjectdefs.pm process_request, master:…/DBobjectdefs.pm:173-181).
 */
export const FAILED_WITH_UNKNOWN_REASON = "Failed with unknown reason.";
export const SKIPPING_TO_NEXT_ATTRIBUTE = "Skipping to the next attribute.";
export const NO_ATTRIBUTES_SPECIFIED =
  "No object definitions have been created or modified: no attributes were specified.";
export const GROUPS_REQUIRED_ON_CREATE = "The 'groups' attribute is required when creating node definitions.";
export const NO_TABLE_ROWS_MATCHED = "No table rows matched specified keys or attributes";
export const NO_NODES_IN_NODERANGE = "No nodes in noderange";
export const UNSUPPORTED_COMMAND = "Unsupported command";

export const couldNotFindObject = (name: string, type: string) =>
  `Could not find an object named '${name}' of type '${type}'.`;
export const couldNotGetObjectsOfType = (type: string) => `Could not get objects of type '${type}'.`;
export const invalidAttributeName = (attribute: string, type: string) =>
  `'${attribute}' is not a valid attribute name for an object type of '${type}'.`;
export const groupsNotSpecified = (node: string) =>
  `Attribute 'groups' is not specified for node '${node}', skipping to the next node.`;
export const invalidNoderange = (names: readonly string[]) =>
  `Invalid nodes and/or groups in noderange: ${names.join(",")}`;
export const noSuchTable = (tables: readonly string[]) => `No such table: ${tables.join(" ")}`;
export const netOrMaskEmpty = (network: string) =>
  `Net or mask value should not be empty for xCAT network object '${network}'.`;
export const networkNameExists = (network: string) =>
  `A network definition called '${network}' already exists. Cannot create a definition for '${network}'.`;
export const networkNetMaskExists = (existing: string, network: string) =>
  `A network definition called '${existing}' already exists that contains the same net and mask values. ` +
  `Cannot create a definition for '${network}'.`;
export const invalidObjectName = (name: string) =>
  `The object name '${name}' is invalid, Cannot use '.' in node name.`;
export const couldNotFindNode = (node: string) =>
  `Could not find a node named '${node}', skipping to the next node.`;
export const onlyIfValueMismatch = (attribute: string, condition: string, value: string) =>
  `Cannot set the attr='${attribute}' attribute unless ${condition} value is ${value}.`;

// --- Recognizers used by clients: how to tell "gone" and "empty" from other failures ----------
/** 403 with this prefix means the named object does not exist (xCAT has no 404 for objects). */
export const NOT_FOUND_PREFIX = "Could not find an object named";
/** 403 with this prefix is the empty-list answer that the xCAT code path describes. */
export const EMPTY_LIST_PREFIX = "Could not get objects of type";
/** A create of something that exists fails with one of these (mkdef, networks). */
export const ALREADY_EXISTS_PATTERNS: readonly RegExp[] = [
  /^0 object definitions have been created or modified\.$/,
  /^A network definition called '.*' already exists\. Cannot create/,
];

// --- Additions used by the emulator (xcat-behavior.md §3.2, §5) ---------------------------------
/** 400 for a nodeshell, vmclone or vmmigrate body without the data it needs; errorcode is the number 3. */
export const LACK_OF_OPERATION_DATA_ERRORCODE = 3;
/** 408 when the CGI cannot reach xcatd over SSL in time (xcat-behavior.md §3.1). */
export const SSL_TIMEOUT = "Connection failure: SSL Timeout or incorrect certificates in ~/.xcat";
/** 503 when xcatd cannot be reached at all; the "xx" typo is in xcatws.cgi. */
export const connectionFailure = (reason: string) => `Connection failurexx: ${reason}`;
/** 418 when the CGI cannot parse lsdef output. */
export const IMPROPERLY_FORMATTED_LSDEF = "improperly formatted lsdef output from xcatd";
export const netNotSpecified = (attribute: "net" | "mask", network: string) =>
  `Attribute '${attribute}' is not specified for network entry '${network}', skipping.`;
/** A node plugin failure is reported as "<node>: <message>". */
export const nodeError = (node: string, message: string) => `${node}: ${message}`;
export const unableToIdentifyPlugin = (tables: string) =>
  `Unable to identify plugin for this command, check relevant tables: ${tables}`;
export const noSuitableVmHost = (node: string) =>
  `Unable to identify a suitable target host for guest ${node}`;
