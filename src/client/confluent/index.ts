/**
 * The Confluent client: a second backend's client beside the xCAT one. Nothing here is imported
 * by the xCAT client, and nothing here imports it (biome.json noRestrictedImports).
 */

export type { ReportedAttribute } from "./bodies";
export {
  ConfluentClient,
  type ConfluentClientOptions,
  type ConfluentPowerAction,
  type ConfluentValue,
  confluentBaseUrl,
  type NodeAttributes,
  type PerNodeResult,
} from "./confluent-client";
