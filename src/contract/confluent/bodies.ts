/**
 * Shapes of Confluent's JSON bodies (3.15.6), as zod schemas a client validates answers with and
 * the emulator is tested against. Every answer is one object with `_links` (HAL-style,
 * httpapi.py:1161 _assemble_json); noderange answers put per-node data in `databynode`, a list of
 * one-key objects (one per node per attribute for attribute reads).
 */
import { z } from "zod";

export const confluentLinkSchema = z.object({ href: z.string() });

export const confluentLinksSchema = z
  .object({
    self: z.union([confluentLinkSchema, z.array(confluentLinkSchema)]).optional(),
    collection: z.union([confluentLinkSchema, z.array(confluentLinkSchema)]).optional(),
    /** Members of a collection: `"<name>/"` for nodes and groups. */
    item: z.array(confluentLinkSchema).optional(),
  })
  .loose();

/**
 * One attribute as a read shows it (plugins/configuration/attributes.py retrieve_nodes):
 * a plain value, an expression with its expansion (or `broken` with the reason), or a secret
 * (`isset` only). `inheritedfrom` names the group it came from; own values have none.
 */
export const confluentAttributeValueSchema = z
  .object({
    value: z.unknown().optional(),
    expression: z.string().optional(),
    broken: z.string().optional(),
    isset: z.boolean().optional(),
    inheritedfrom: z.string().optional(),
  })
  .strict();
export type ConfluentAttributeValue = z.infer<typeof confluentAttributeValueSchema>;

/** `groups` (and a group's `nodes`) are plain lists; every other attribute is an object. */
export const confluentAttributeEntrySchema = z.union([z.array(z.string()), confluentAttributeValueSchema]);

/** GET /nodes/<n>/attributes/current|all, /nodegroups/<g>/attributes/current|all. */
export const confluentAttributesBodySchema = z
  .object({ _links: confluentLinksSchema })
  .catchall(confluentAttributeEntrySchema);

/** GET /noderange/<nr>/attributes/current|all: one entry per node per attribute. */
export const confluentNoderangeAttributesBodySchema = z.object({
  _links: confluentLinksSchema,
  databynode: z.array(z.record(z.string(), z.record(z.string(), confluentAttributeEntrySchema))).optional(),
});

/** A collection listing (GET /nodes/, /nodegroups/, /noderange/<nr>/nodes/, /deployment/profiles/). */
export const confluentCollectionBodySchema = z.object({ _links: confluentLinksSchema });

/** POST /nodes/, /noderange/, /nodegroups/: `created` is a string, or a list for a noderange. */
export const confluentCreatedBodySchema = z.object({
  _links: confluentLinksSchema,
  created: z.union([z.string(), z.array(z.string())]),
});

/** DELETE: `deleted` a string, a list for a noderange, absent when the range was empty. */
export const confluentDeletedBodySchema = z.object({
  _links: confluentLinksSchema,
  deleted: z.union([z.string(), z.array(z.string())]).optional(),
});

/** A handled error (exceptions.py:37): `{"error": "<Category> - <detail>"}`. */
export const confluentErrorBodySchema = z.object({ error: z.string() });

/** A failure of one node inside a noderange answer (messages.py:238 ConfluentNodeError). */
export const confluentNodeErrorSchema = z.object({ error: z.string(), errorcode: z.number().int() });

const choice = <T extends z.ZodType>(value: T) => z.object({ value });

/** GET/PUT .../power/state for one node; `oldstate` only after `boot`. */
export const confluentPowerBodySchema = z.object({
  _links: confluentLinksSchema,
  state: choice(z.string()),
  oldstate: choice(z.string()).optional(),
});

/** GET/PUT .../boot/nextdevice for one node. */
export const confluentBootDeviceBodySchema = z.object({
  _links: confluentLinksSchema,
  nextdevice: choice(z.string()),
  bootmode: choice(z.string()),
  persistent: choice(z.boolean()),
});

/** GET/PUT .../deployment/lock for one node. */
export const confluentLockBodySchema = z.object({ _links: confluentLinksSchema, lock: choice(z.string()) });

/** Per-node data of power, boot and lock answers through a noderange: `{node: {...}}` or an error. */
export const confluentNoderangeDataBodySchema = z.object({
  _links: confluentLinksSchema,
  databynode: z.array(z.record(z.string(), z.record(z.string(), z.unknown()))).optional(),
});

/** GET /sessions/current/info (httpapi.py:1045). */
export const confluentSessionInfoSchema = z.object({
  username: z.string(),
  sessionid: z.string().optional(),
  authtoken: z.string().optional(),
});

/** POST .../attributes/expression: `{"value": "<expansion>"}` (or databynode for a noderange). */
export const confluentExpressionBodySchema = z.object({
  _links: confluentLinksSchema,
  value: z.string().optional(),
  databynode: z.array(z.record(z.string(), z.object({ value: z.string() }))).optional(),
});

/** GET /version. */
export const confluentVersionBodySchema = z.object({
  _links: confluentLinksSchema,
  version: choice(z.string()),
});
