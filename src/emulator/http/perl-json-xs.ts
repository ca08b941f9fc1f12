/**
 * The error message Perl's JSON::XS gives for a body it cannot decode, as the CGI returns it in a
 * 400. JSON.pm (the only JSON module xCAT requires: xCAT-server/debian/control:11, xcatws.cgi
 * master:3528 `JSON->new()`) hands decoding to JSON::XS when it is installed, as on the Debian
 * management node the emulator was compared with (JSON::XS 4.04, Perl 5.36); JSON::PP's wording
 * is in perl-json.ts.
 *
 * A reimplementation of the error paths of JSON::XS 4.04's decoder (XS.xs decode_sv, decode_hv,
 * decode_av, _decode_str, decode_4hex, decode_num, decode_json) with JSON->new's defaults: the
 * message, the character offset of the decoder's position and the text after it as Perl's
 * pv_uni_display shows it, 20 characters at most. The CGI decodes the body's bytes as a character
 * string (xcatws.cgi master:3473), so every byte is one character: a byte above 0x7f is never
 * malformed inside a string, and offsets count bytes. Checked against JSON::XS 4.04 on the bodies
 * in test/unit/perl-json-xs.test.ts.
 */

const NEITHER = "malformed JSON string, neither tag, array, object, number, string or atom";
/** What decode_sv says of `(` when tags are not allowed (JSON->new does not allow them). */
const NEITHER_NO_TAG = "malformed JSON string, neither array, object, number, string or atom";
const MAX_DEPTH = 512;

class DecodeError extends Error {
  constructor(
    readonly reason: string,
    readonly at: number,
  ) {
    super(reason);
  }
}

/** How Perl's pv_uni_display (UNI_DISPLAY_QQ) shows one character below 256. */
function displayChar(c: number): string {
  const mnemonic: Record<number, string> = {
    7: "\\a",
    8: "\\b",
    9: "\\t",
    10: "\\n",
    12: "\\f",
    13: "\\r",
    27: "\\e",
    92: "\\\\",
  };
  return mnemonic[c] ?? (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : `\\x{${c.toString(16)}}`);
}

/** The message JSON::XS's decode dies with for `text`, without location; undefined if it decodes. */
export function jsonXsError(text: string): string | undefined {
  const bytes = new TextEncoder().encode(text);
  const end = bytes.length;
  // Perl strings end in a NUL byte, which the decoder reads as the end everywhere it looks.
  const at = (i: number): number => (i < end ? (bytes[i] ?? 0) : 0);
  const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
  let cur = 0;
  let depth = 0;
  const fail = (reason: string, position = cur): never => {
    throw new DecodeError(reason, position);
  };

  const ws = () => {
    for (;;) {
      const c = at(cur);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      cur++;
    }
  };
  const expect = (c: string) => {
    if (at(cur) !== c.charCodeAt(0)) fail(`'${c}' expected`);
    cur++;
  };
  const hex4 = () => {
    for (let i = 0; i < 4; i++) {
      if (!/[0-9a-fA-F]/.test(String.fromCharCode(at(cur + i))))
        fail("exactly four hexadecimal digits expected");
    }
    const value = Number.parseInt(String.fromCharCode(...bytes.subarray(cur, cur + 4)), 16);
    cur += 4;
    return value;
  };

  /** After the opening quote; leaves `cur` after the closing one. */
  const string = () => {
    for (;;) {
      const c = at(cur++);
      if (c === 0x22) return;
      if (c === 0x5c) {
        const escaped = String.fromCharCode(at(cur));
        if ('\\/"bfnrt'.includes(escaped)) {
          cur++;
          continue;
        }
        if (escaped !== "u") fail("illegal backslash escape sequence in string", cur - 1);
        cur++;
        const hi = hex4();
        if (hi >= 0xd800 && hi < 0xdc00) {
          if (at(cur) !== 0x5c || at(cur + 1) !== 0x75)
            fail("missing low surrogate character in surrogate pair");
          cur += 2;
          const lo = hex4();
          if (lo < 0xdc00 || lo >= 0xe000) fail("surrogate pair expected");
        } else if (hi >= 0xdc00 && hi < 0xe000) fail("missing high surrogate character in surrogate pair");
        continue;
      }
      if (c >= 0x20) continue; // 0x80 and above: one whole character of the upgraded string
      fail(
        c === 0
          ? "unexpected end of string while parsing JSON string"
          : "invalid character encountered while parsing JSON string",
        cur - 1,
      );
    }
  };

  const number = () => {
    if (at(cur) === 0x2d) cur++;
    if (at(cur) === 0x30) {
      cur++;
      if (isDigit(at(cur))) fail("malformed number (leading zero must not be followed by another digit)");
    } else if (!isDigit(at(cur))) fail("malformed number (no digits after initial minus)");
    else while (isDigit(at(cur))) cur++;
    if (at(cur) === 0x2e) {
      cur++;
      if (!isDigit(at(cur))) fail("malformed number (no digits after decimal point)");
      while (isDigit(at(cur))) cur++;
    }
    if (at(cur) === 0x65 || at(cur) === 0x45) {
      cur++;
      if (at(cur) === 0x2d || at(cur) === 0x2b) cur++;
      if (!isDigit(at(cur))) fail("malformed number (no digits after exp sign)");
      while (isDigit(at(cur))) cur++;
    }
  };

  const container = (close: number, what: string) => {
    if (++depth > MAX_DEPTH)
      fail("json text or perl structure exceeds maximum nesting level (max_depth set too low?)");
    const isObject = close === 0x7d;
    ws();
    if (at(cur) === close) {
      cur++;
    } else {
      for (;;) {
        if (isObject) {
          expect('"');
          string();
          ws();
          expect(":");
          ws();
        }
        value();
        ws();
        if (at(cur) === close) {
          cur++;
          break;
        }
        if (at(cur) !== 0x2c) fail(`, or ${String.fromCharCode(close)} expected while parsing ${what}`);
        cur++;
        ws();
      }
    }
    depth--;
  };

  const literal = (word: string) => {
    if (new TextDecoder().decode(bytes.subarray(cur, cur + word.length)) !== word) fail(`'${word}' expected`);
    cur += word.length;
  };

  const value = (): void => {
    const c = at(cur);
    if (c === 0x22) {
      cur++;
      string();
    } else if (c === 0x5b) {
      cur++;
      container(0x5d, "array");
    } else if (c === 0x7b) {
      cur++;
      container(0x7d, "object/hash");
    } else if (c === 0x28) fail(NEITHER_NO_TAG);
    else if (c === 0x2d || isDigit(c)) number();
    else if (c === 0x74) literal("true");
    else if (c === 0x66) literal("false");
    else if (c === 0x6e) literal("null");
    else fail(NEITHER);
  };

  try {
    ws();
    value();
    ws();
    if (cur !== end) fail("garbage after JSON object");
    return undefined;
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    let shown = "";
    let i = error.at;
    for (; i < end && shown.length < 20; i++) shown += displayChar(bytes[i] ?? 0);
    if (i < end) shown += "...";
    return `${error.reason}, at character offset ${error.at} (before "${error.at < end ? shown : "(end of string)"}")`;
  }
}
