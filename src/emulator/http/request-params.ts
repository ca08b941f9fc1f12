/**
 * Step 1 of the CGI pipeline (fetchParameters, xcat-behavior.md §1.1): the body is parsed first,
 * before any routing, and general params (userName, userPW, pretty, debug, xcoll, ver) are taken
 * out of the body and the query; everything else lands in one `paramhash`, where a query param
 * overrides a body key of the same name.
 */
import { GENERAL_PARAMS } from "../../contract/envelope";
import { BODY_NOT_AN_OBJECT } from "../../contract/messages";
import { WebError } from "./errors";

export type GeneralParam = (typeof GENERAL_PARAMS)[number];

export interface RequestParams {
  readonly general: Partial<Record<GeneralParam, string>>;
  /** Body keys and non-general query params; query values win; repeated query keys are arrays. */
  readonly params: ReadonlyMap<string, unknown>;
  /** Whether a body was parsed (for debug output). */
  readonly hadBody: boolean;
}

const GENERAL = new Set<string>(GENERAL_PARAMS);

/** A Perl-JSON-like parser message for text that is not JSON (JSON::PP's wording, §3.1). */
export function jsonParseMessage(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /position (\d+)/.exec(message);
  const offset = match ? Number(match[1]) : text.length;
  const rest = text.slice(offset);
  let before = "(end of string)";
  if (rest !== "") {
    const snippet = JSON.stringify(rest.length > 32 ? rest.slice(0, 32) : rest).slice(1, -1);
    before = `"${snippet}${rest.length > 32 ? "..." : ""}"`;
  }
  let kind = "malformed JSON string, neither tag, array, object, number, string or atom";
  const previous = text.slice(0, offset).trimEnd().slice(-1);
  if (rest === "") kind = "unexpected end of string while parsing JSON string";
  else if ((previous === "{" || previous === ",") && !rest.startsWith('"') && /^\s*\{/.test(text))
    kind = `'"' expected`;
  else if (previous === '"' || /^[\w\]]/.test(previous)) kind = ", or } expected while parsing object/hash";
  return `${kind}, at character offset ${offset} (before ${before})\n`;
}

function isFormType(contentType: string): boolean {
  return /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(contentType);
}

/**
 * Parses body and query. Throws WebError 400 for a body that is not JSON or not an object.
 * PUT and POST bodies are read unless form-encoded; GET and DELETE bodies only with a JSON
 * content type (CGI.pm PUTDATA/POSTDATA rules).
 */
export function parseParams(
  method: string,
  contentType: string,
  body: string,
  query: URLSearchParams,
): RequestParams {
  let bodyObject: Record<string, unknown> = {};
  let hadBody = false;
  const readsBody =
    method === "PUT" || method === "POST" ? !isFormType(contentType) : /json/i.test(contentType);
  if (readsBody && body.trim() !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      throw new WebError(400, jsonParseMessage(body, error));
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new WebError(400, BODY_NOT_AN_OBJECT);
    }
    bodyObject = parsed as Record<string, unknown>;
    hadBody = true;
  }
  const general: Partial<Record<GeneralParam, string>> = {};
  const params = new Map<string, unknown>();
  for (const [key, value] of Object.entries(bodyObject)) {
    if (GENERAL.has(key))
      general[key as GeneralParam] = value === null || value === undefined ? "" : String(value);
    else params.set(key, value);
  }
  const queryValues = new Map<string, string[]>();
  for (const [key, value] of query) {
    const list = queryValues.get(key);
    if (list) list.push(value);
    else queryValues.set(key, [value]);
  }
  for (const [key, values] of queryValues) {
    if (GENERAL.has(key)) general[key as GeneralParam] = values[0] ?? "";
    else params.set(key, values.length === 1 ? values[0] : values);
  }
  return { general, params, hadBody };
}
