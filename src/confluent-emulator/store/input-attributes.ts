/**
 * What Confluent does to attribute values between the request body and the configuration
 * (messages.py:805 InputAttributes): a string holding a replacement field becomes
 * `{"expression": ...}`, other strings lose their `{{`/`}}` escapes, secrets are left alone, and
 * for node updates the values of attributes with a value list are checked (messages.py:861).
 * Group bodies and create bodies are not checked (InputAttributes with no nodes).
 */
import {
  CONFLUENT_ATTRIBUTE_ALIASES,
  CONFLUENT_NODE_ATTRIBUTES,
  isSecretAttribute,
} from "../../contract/confluent/attributes";
import { confluentMessages } from "../../contract/confluent/messages";
import { badRequest } from "./errors";
import { formatWithoutArguments } from "./python-format";

/** configmanager.py:148 attrib_supports_expression. */
function supportsExpression(attribute: string): boolean {
  return !isSecretAttribute(CONFLUENT_ATTRIBUTE_ALIASES[attribute] ?? attribute);
}

function asExpressionOrValue(attribute: string, value: unknown): unknown {
  if (typeof value !== "string" || !supportsExpression(attribute)) return value;
  const plain = formatWithoutArguments(value);
  return plain === undefined ? { expression: value } : plain;
}

/** A create or group body: expression detection only. */
export function inputAttributes(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [attribute, value] of Object.entries(body))
    out[attribute] = asExpressionOrValue(attribute, value);
  return out;
}

/** A node update body: expression detection and the value lists of the schema. */
export function nodeInputAttributes(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [attribute, raw] of Object.entries(body)) {
    const value = asExpressionOrValue(attribute, raw);
    out[attribute] = value;
    const spec = CONFLUENT_NODE_ATTRIBUTES[attribute];
    if (spec?.validValues) {
      if (value && !(typeof value === "string" && spec.validValues.includes(value))) {
        throw badRequest(confluentMessages.doesNotAcceptValue(attribute, pyStr(value), spec.validValues));
      }
    } else if (spec?.validList && value) {
      if (typeof value === "string") {
        for (const member of value.split(",")) {
          if (member && !spec.validList.includes(member)) {
            throw badRequest(confluentMessages.doesNotAcceptListMember(attribute, member, spec.validList));
          }
        }
      }
    }
  }
  return out;
}

/** Python's str() of a JSON value, for messages that print one. */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

function pyRepr(value: unknown): string {
  return typeof value === "string" ? `'${value}'` : pyStr(value);
}
