/**
 * Node names cut into compact noderanges that each fit in one request's URL, for reads that name
 * many nodes at once (a merged read of several NodeSets).
 *
 * What limits such a read is the length of the request line, not the number of names: xcatws is
 * a CGI under Apache httpd, which answers a request line (method, URI and protocol) longer than
 * `LimitRequestLine` with 414, and that is 8,190 bytes unless the site changed it
 * (apache/httpd include/httpd.h, DEFAULT_LIMIT_REQUEST_LINE). xCAT itself expands a noderange of
 * any size (NodeRange.pm, xcat-behavior.md §1.3). A rack of 40 nodes is `r01n[01-40]` (13
 * characters, 17 encoded), so the 100-name cap of comma lists does not bound these reads; the
 * encoded noderange is kept within {@link NODERANGE_URL_BUDGET}, half the default line, leaving
 * room for the base path, the route and a query.
 */
import { compressNoderange } from "../contract/noderange";
import { encodeSegment } from "./names";

/** Bytes of the encoded noderange segment one request may carry (see the file comment). */
export const NODERANGE_URL_BUDGET = 4_096;

/**
 * `names` as few compact noderanges as fit in `budget` encoded bytes each: the whole set when it
 * fits, else its halves (in name order, so that neighbours stay in one range), and so on.
 *
 * @example
 * ```ts
 * noderangeChunks(["r01n02", "r01n01", "r02n01"]); // [["r01n01", "r01n02", "r02n01"]]: one request, r01n[01-02],r02n01
 * ```
 */
export function noderangeChunks(names: readonly string[], budget = NODERANGE_URL_BUDGET): string[][] {
  const sorted = [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const chunks: string[][] = [];
  const cut = (part: string[]) => {
    if (part.length === 0) return;
    if (part.length === 1 || encodeSegment(compressNoderange(part)).length <= budget) {
      chunks.push(part);
      return;
    }
    const half = Math.ceil(part.length / 2);
    cut(part.slice(0, half));
    cut(part.slice(half));
  };
  cut(sorted);
  return chunks;
}
