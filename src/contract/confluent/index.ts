/**
 * Confluent's wire contract (release 3.15.6): paths, body shapes, exact texts and the attribute
 * schema. Backend-neutral: nothing here knows xCAT, and the xCAT contract does not import it.
 */
export * from "./attributes";
export * from "./bodies";
export * from "./messages";
export * from "./paths";
