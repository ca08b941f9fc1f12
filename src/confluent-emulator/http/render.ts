/**
 * How Confluent turns handler messages into a JSON body (httpapi.py:1161 _assemble_json): link
 * relations gather under `_links` (`item` always a list), data keys merge, a key seen twice
 * becomes a list, `databynode` is always a list; the whole is `json.dumps(sort_keys=True,
 * indent=4)`.
 */

/** One message a handler yields: data, or a link to a child. */
export type Message = { readonly data: Record<string, unknown> } | { readonly item: string };

export function pythonJson(value: unknown, indent?: number): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v as Record<string, unknown>).sort())
        out[k] = sorted((v as Record<string, unknown>)[k]);
      return out;
    }
    return v;
  };
  if (indent) return JSON.stringify(sorted(value), null, indent);
  // json.dumps defaults: ", " between items and ": " after keys, keys in insertion order.
  return compact(value);
}

function compact(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compact).join(", ")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}: ${compact(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** `_links.self` and `_links.collection` from the request path (httpapi.py:1169). */
function baseLinks(url: string, extension: string): Record<string, unknown> {
  const resource = `.${url.slice(url.lastIndexOf("/"))}`;
  const links: Record<string, unknown> = { self: { href: resource + extension } };
  if (url === "/") return links;
  links.collection = { href: resource.endsWith("/") ? `../${extension}` : `./${extension}` };
  return links;
}

export function assembleJson(messages: readonly Message[], url: string, extension: string): string {
  const links = baseLinks(url, extension);
  const data: Record<string, unknown> = {};
  for (const message of messages) {
    if ("item" in message) {
      const entry = { href: message.item + extension };
      const items = links.item as unknown[] | undefined;
      if (items) items.push(entry);
      else links.item = [entry];
      continue;
    }
    for (const [key, value] of Object.entries(message.data)) {
      if (key in data) {
        const current = data[key];
        if (Array.isArray(current)) {
          if (Array.isArray(value)) current.push(...value);
          else current.push(value);
        } else data[key] = [current, value];
      } else if (key === "databynode" || key === "asyncresponse") data[key] = [value];
      else data[key] = value;
    }
  }
  data._links = links;
  return pythonJson(data, 4);
}
