/**
 * What the native provider's resource operations (Check, Diff, Create, Read, Update, Delete)
 * need beyond the protocol: the provider core with every kind's spec and the clients (undici,
 * tls, zod's response schemas), and the YAML program check (js-yaml). server.ts loads this
 * module on the first such call and not at start (loadResourceCore says why).
 */
export * as runtime from "../provider/runtime";
export { cancelledOperation } from "./cancelled";
export {
  invalidResources,
  otherResourceFailures,
  stackOfUrn,
  stackProviderOf,
  yamlProgramResources,
} from "./yaml-program-check";
