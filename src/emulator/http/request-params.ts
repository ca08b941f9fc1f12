/**
 * Step 1 of the CGI pipeline (fetchParameters, xcat-behavior.md §1.1): the body is parsed first,
 * before any routing, and general params (userName, userPW, pretty, debug, xcoll, ver) are taken
 * out of the body and the query; everything else lands in one `paramhash`, where a query param
 * overrides a body key of the same name.
 */

import { GENERAL_PARAMS } from "../../contract/envelope";
import { BODY_NOT_AN_OBJECT } from "../../contract/messages";
import { WebError } from "./errors";
import { perlJsonError } from "./perl-json";
import { jsonXsError } from "./perl-json-xs";

export type GeneralParam = (typeof GENERAL_PARAMS)[number];

export interface RequestParams {
  readonly general: Partial<Record<GeneralParam, string>>;
  /** Body keys and non-general query params; query values win; repeated query keys are arrays. */
  readonly params: ReadonlyMap<string, unknown>;
  /** Whether a body was parsed (for debug output). */
  readonly hadBody: boolean;
}

const GENERAL = new Set<string>(GENERAL_PARAMS);

/** The Perl module JSON.pm decodes bodies with: JSON::XS when it is installed, else JSON::PP. */
const NEITHER_MESSAGE = "malformed JSON string, neither array, object, number, string or atom";

export type JsonDecoder = "JSON::XS" | "JSON::PP";

/**
 * The CGI's 400 text for a body the decoder refuses (§3.1), or undefined when it decodes. The
 * decoder's croak ends ` at /<path of xcatws.cgi> line N.`; the CGI cuts from the first ` at /`
 * to the end of the line and keeps the newline (xcatws.cgi master:3473-3480), so a body whose
 * shown text holds ` at /` loses the rest too.
 */
function decoderMessage(text: string, decoder: JsonDecoder): string | undefined {
  const message = decoder === "JSON::XS" ? jsonXsError(text) : perlJsonError(text);
  if (message === undefined) return undefined;
  return `${message} at /opt/xcat/ws/xcatws.cgi line 3473.\n`.replace(/ at \/[^\n]*/, "");
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
  decoder: JsonDecoder = "JSON::XS",
): RequestParams {
  let bodyObject: Record<string, unknown> = {};
  let hadBody = false;
  const readsBody =
    method === "PUT" || method === "POST" ? !isFormType(contentType) : /json/i.test(contentType);
  // `if ($pdata)`: Perl skips an empty body and "0", not one of white space (xcatws.cgi master:3472).
  if (readsBody && body !== "" && body !== "0") {
    const refused = decoderMessage(body, decoder);
    if (refused !== undefined) throw new WebError(400, refused);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      // Nothing the Perl decoders take is refused by JSON.parse; should that change, the catch-all.
      throw new WebError(400, `${NEITHER_MESSAGE}, at character offset 0 (before "${body.slice(0, 20)}")\n`);
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
