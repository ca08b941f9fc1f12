/**
 * CSV text as records that remember the file line they start on, so that a problem in an
 * inventory file can name its line (RFC 4180: fields separated by commas, quoted with `"` and
 * `""` for a quote inside; a quoted field may span lines). A spreadsheet's export is taken as it
 * comes: a UTF-8 byte-order mark, CRLF or LF line ends, blank lines, and spaces around fields.
 */

/** One record: its fields and the 1-based file line it starts on. */
export interface CsvRecord {
  readonly line: number;
  readonly fields: readonly string[];
}

/** The records of `text`, or the problem that stops reading it (an unclosed quote). */
export type CsvOutcome =
  | { readonly records: readonly CsvRecord[] }
  | { readonly problem: { readonly line: number; readonly reason: string } };

/**
 * Splits CSV text into records. Unquoted fields are trimmed (a spreadsheet's `10.0.0.1 ` is
 * meant without the space); quoted fields are kept exactly. A line with nothing on it is skipped.
 *
 * @example
 * parseCsv('node,ip\r\nr01n01,10.0.0.1\r\n') // { records: [{ line: 1, fields: ["node", "ip"] }, { line: 2, fields: ["r01n01", "10.0.0.1"] }] }
 */
export function parseCsv(text: string): CsvOutcome {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false; // the current field was quoted (kept untrimmed)
  let inQuotes = false;
  let line = 1;
  let recordLine = 1;
  let quoteLine = 1;

  const endField = () => {
    fields.push(quoted ? field : field.trim());
    field = "";
    quoted = false;
  };
  const endRecord = () => {
    endField();
    const blank = fields.length === 1 && fields[0] === "";
    if (!blank) records.push({ line: recordLine, fields });
    fields = [];
  };

  for (let i = 0; i < source.length; i += 1) {
    const char = source[i] ?? "";
    if (inQuotes) {
      if (char === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i += 1;
        } else inQuotes = false;
      } else {
        if (char === "\n") line += 1;
        // A CRLF inside a quoted field is one line end, kept as "\n".
        if (!(char === "\r" && source[i + 1] === "\n")) field += char;
      }
      continue;
    }
    if (char === '"' && field.trim() === "" && !quoted) {
      inQuotes = true;
      quoted = true;
      quoteLine = line;
      field = "";
    } else if (char === ",") {
      endField();
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && source[i + 1] === "\n") i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else if (!quoted) {
      field += char;
    } else if (char.trim() !== "") {
      return {
        problem: { line, reason: `a quoted field must end at its closing quote, found '${char}' after it` },
      };
    }
  }
  if (inQuotes) return { problem: { line: quoteLine, reason: "a quoted field is never closed" } };
  endRecord();
  return { records };
}
