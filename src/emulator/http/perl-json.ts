/**
 * The error message Perl's JSON::PP gives for a body it cannot decode, as the CGI returns it in a
 * 400 (xcatws.cgi:3473-3480 strips only the ` at /file line N.` location). A reimplementation of
 * the decoder's error paths of JSON::PP 4.07 with JSON->new's defaults (not relaxed, no bare or
 * single-quoted keys, no tags, non-references allowed): the message, the byte offset it reports
 * (the decoder's position, moved back where it does so) and the escaped text after it, 20
 * characters at most. Checked against JSON::PP 4.07 (Perl 5.36) on sample bodies in
 * test/unit/perl-json.test.ts. JSON::XS, used instead when installed, words a few messages
 * differently (docs/emulator-coverage.md).
 */

const NEITHER = "malformed JSON string, neither array, object, number, string or atom";
const MAX_DEPTH = 512;

class DecodeError extends Error {}

/** The message JSON::PP's decode dies with for `text`, without location; undefined if it decodes. */
export function perlJsonError(text: string): string | undefined {
  // The CGI hands JSON the body's bytes as a character string; JSON::PP upgrades and encodes it,
  // so every byte above 0x7f counts as a two-byte character (offsets are in those bytes).
  const bytes = Uint8Array.from(
    [...new TextEncoder().encode(text)].flatMap((b) =>
      b < 0x80 ? [b] : [0xc0 | (b >> 6), 0x80 | (b & 0x3f)],
    ),
  );
  let at = 0;
  let ch: number | undefined = -1; // -1: the decoder's initial '' (defined, consumed by white)
  let depth = 0;

  const fail = (message: string): never => {
    let mess = "";
    for (const c of bytes.subarray(at)) {
      mess +=
        c === 0x07
          ? "\\a"
          : c === 0x09
            ? "\\t"
            : c === 0x0a
              ? "\\n"
              : c === 0x0d
                ? "\\r"
                : c === 0x0c
                  ? "\\f"
                  : c < 0x20
                    ? `\\x{${c.toString(16)}}`
                    : c === 0x5c
                      ? "\\\\"
                      : c < 0x80
                        ? String.fromCharCode(c)
                        : `\\x{${c.toString(16)}}`;
      if (mess.length >= 20) {
        mess += "...";
        break;
      }
    }
    throw new DecodeError(`${message}, at character offset ${at} (before "${mess || "(end of string)"}")`);
  };
  const next = (): number | undefined => {
    ch = at >= bytes.length ? undefined : bytes[at++];
    return ch;
  };
  const is = (c: string) => ch === c.charCodeAt(0);
  const isDigit = () => ch !== undefined && ch >= 0x30 && ch <= 0x39;
  const white = () => {
    while (ch !== undefined && (ch === -1 || ch === 0x20 || ch === 0x09 || ch === 0x0d || ch === 0x0a))
      next();
  };

  const validUtf8Length = (): number => {
    const lead = bytes[at - 1] ?? 0;
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead <= 0xdf
          ? 2
          : lead >= 0xe0 && lead <= 0xef
            ? 3
            : lead >= 0xf0 && lead <= 0xf4
              ? 4
              : 0;
    if (length === 0 || at - 1 + length > bytes.length) return 0;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(at - 1, at - 1 + length));
      return length;
    } catch {
      return 0;
    }
  };

  const string = (): void => {
    let highSurrogate = false;
    // A key that does not open with '"' fails at once, where it stands.
    if (!is('"')) fail("unexpected end of string while parsing JSON string");
    outer: while (next() !== undefined) {
      if (is('"')) {
        next();
        if (highSurrogate) fail("missing low surrogate character in surrogate pair");
        return;
      }
      if (is("\\")) {
        next();
        if (ch !== undefined && '"\\/bfnrt'.includes(String.fromCharCode(ch))) continue;
        if (is("u")) {
          let hex = "";
          for (let i = 0; i < 4; i++) {
            next();
            if (ch === undefined || !/[0-9a-fA-F]/.test(String.fromCharCode(ch))) break outer;
            hex += String.fromCharCode(ch);
          }
          if (/^[dD][89abAB]/.test(hex)) highSurrogate = true;
          else if (/^[dD][c-fC-F]/.test(hex)) {
            if (!highSurrogate) fail("missing high surrogate character in surrogate pair");
            highSurrogate = false;
          } else if (highSurrogate) fail("surrogate pair expected");
          continue;
        }
        at -= 2;
        fail("illegal backslash escape sequence in string");
      }
      if (ch !== undefined && ch > 127) {
        const length = validUtf8Length();
        if (length === 0) {
          at -= 1;
          fail("malformed UTF-8 character in JSON string");
        }
        at += length - 1;
        continue;
      }
      if (ch !== undefined && ch < 0x20) {
        at--;
        fail("invalid character encountered while parsing JSON string");
      }
    }
    fail("unexpected end of string while parsing JSON string");
  };

  const word = (): void => {
    const w = new TextDecoder().decode(bytes.subarray(at - 1, at + 3));
    if (w === "true" || w === "null") {
      at += 3;
      next();
      return;
    }
    if (w === "fals") {
      at += 3;
      if (bytes[at] === 0x65) {
        at++;
        next();
        return;
      }
    }
    at--;
    if (w.startsWith("n")) fail("'null' expected");
    if (w.startsWith("t")) fail("'true' expected");
    if (w.startsWith("f")) fail("'false' expected");
    fail(NEITHER);
  };

  const number = (): void => {
    if (is("-")) {
      next();
      if (!isDigit()) fail("malformed number (no digits after initial minus)");
    }
    if (is("0")) {
      if (/^[0-9a-dfA-DF]/.test(String.fromCharCode(bytes[at] ?? 0x20))) {
        fail("malformed number (leading zero must not be followed by another digit)");
      }
      next();
    }
    while (isDigit()) next();
    if (is(".")) {
      next();
      if (!isDigit()) fail("malformed number (no digits after decimal point)");
      while (next() !== undefined && isDigit());
    }
    if (is("e") || is("E")) {
      next();
      if (is("+") || is("-")) {
        next();
        if (!isDigit()) fail("malformed number (no digits after exp sign)");
      } else if (!isDigit()) fail("malformed number (no digits after exp sign)");
      while (next() !== undefined && isDigit());
    }
  };

  const container = (close: string, what: string): void => {
    if (++depth > MAX_DEPTH)
      fail("json text or perl structure exceeds maximum nesting level (max_depth set too low?)");
    const isObject = close === "}";
    next();
    white();
    if (is(close)) {
      depth--;
      next();
      return;
    }
    while (ch !== undefined) {
      if (isObject) {
        string();
        white();
        if (!is(":")) {
          at--;
          fail("':' expected");
        }
        next();
      }
      value();
      white();
      if (ch === undefined) break;
      if (is(close)) {
        depth--;
        next();
        return;
      }
      if (!is(",")) break;
      next();
      white();
    }
    if (ch !== undefined) at--;
    fail(`, or ${close} expected while parsing ${what}`);
  };

  const value = (): void => {
    white();
    if (ch === undefined) return;
    if (is("{")) container("}", "object/hash");
    else if (is("[")) container("]", "array");
    else if (is("(")) fail(NEITHER);
    else if (is('"')) string();
    else if (isDigit() || is("-")) number();
    else word();
  };

  try {
    white();
    if (ch === undefined) fail(NEITHER);
    value();
    white();
    if (ch !== undefined) fail("garbage after JSON object");
    return undefined;
  } catch (error) {
    if (error instanceof DecodeError) return error.message;
    throw error;
  }
}
