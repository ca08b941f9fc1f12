/**
 * jsonXsError against the messages JSON::XS 4.04 (Perl 5.36, Debian's libjson-xs-perl, the
 * decoder JSON.pm picked on the real xCAT 2.19 management node) gives for the same bodies,
 * recorded with `JSON->new->decode` on the body's bytes, as xcatws.cgi decodes them
 * (master:3473-3480), location removed.
 */
import { describe, expect, it } from "vitest";
import { jsonXsError } from "../../src/emulator/http/perl-json-xs";

/** [body, JSON::XS message without location, or null when it decodes]. */
const RECORDED: readonly (readonly [string, string | null])[] = [
  [
    '{"usercomment":',
    'malformed JSON string, neither tag, array, object, number, string or atom, at character offset 15 (before "(end of string)")',
  ],
  [
    "abc",
    'malformed JSON string, neither tag, array, object, number, string or atom, at character offset 0 (before "abc")',
  ],
  ['{"a":1,}', '\'"\' expected, at character offset 7 (before "}")'],
  ['{"a":tru}', "'true' expected, at character offset 5 (before \"tru}\")"],
  ['{"groups": "all",', '\'"\' expected, at character offset 17 (before "(end of string)")'],
  [
    '{"name":"root1",,"commands":"rpower"}',
    '\'"\' expected, at character offset 16 (before ","commands":"rpower"...")',
  ],
  [
    "(",
    'malformed JSON string, neither array, object, number, string or atom, at character offset 0 (before "(")',
  ],
  [
    "[(",
    'malformed JSON string, neither array, object, number, string or atom, at character offset 1 (before "(")',
  ],
  [
    "[1,",
    'malformed JSON string, neither tag, array, object, number, string or atom, at character offset 3 (before "(end of string)")',
  ],
  ["[1 2]", ', or ] expected while parsing array, at character offset 3 (before "2]")'],
  ['{"a" 1}', "':' expected, at character offset 5 (before \"1}\")"],
  ['{"a":1 2}', ', or } expected while parsing object/hash, at character offset 7 (before "2}")'],
  ["{", '\'"\' expected, at character offset 1 (before "(end of string)")'],
  [
    "[",
    'malformed JSON string, neither tag, array, object, number, string or atom, at character offset 1 (before "(end of string)")',
  ],
  ["{,}", '\'"\' expected, at character offset 1 (before ",}")'],
  ['"\\x"', 'illegal backslash escape sequence in string, at character offset 1 (before "\\\\x"")'],
  ['"\\ud800"', 'missing low surrogate character in surrogate pair, at character offset 7 (before """)'],
  ['"\\u12"', 'exactly four hexadecimal digits expected, at character offset 3 (before "12"")'],
  ['["\\ud800\\uzz"]', 'exactly four hexadecimal digits expected, at character offset 10 (before "zz"]")'],
  ['"\\udc00"', 'missing high surrogate character in surrogate pair, at character offset 7 (before """)'],
  ['"\\ud800\\u0041"', 'surrogate pair expected, at character offset 13 (before """)'],
  ["-", 'malformed number (no digits after initial minus), at character offset 1 (before "(end of string)")'],
  ["-a", 'malformed number (no digits after initial minus), at character offset 1 (before "a")'],
  [
    "01",
    'malformed number (leading zero must not be followed by another digit), at character offset 1 (before "1")',
  ],
  [
    "1.",
    'malformed number (no digits after decimal point), at character offset 2 (before "(end of string)")',
  ],
  ["1.5e+", 'malformed number (no digits after exp sign), at character offset 5 (before "(end of string)")'],
  [
    '"\u0001"',
    'invalid character encountered while parsing JSON string, at character offset 1 (before "\\x{1}"")',
  ],
  [
    '{"a":"tab\tx"}',
    'invalid character encountered while parsing JSON string, at character offset 9 (before "\\tx"}")',
  ],
  [
    '"a\u0000b"',
    'unexpected end of string while parsing JSON string, at character offset 2 (before "\\x{0}b"")',
  ],
  ['{"a":1} x', 'garbage after JSON object, at character offset 8 (before "x")'],
  ["{1:2}", '\'"\' expected, at character offset 1 (before "1:2}")'],
  [
    '"é',
    'unexpected end of string while parsing JSON string, at character offset 3 (before "(end of string)")',
  ],
  ['{"é":1,}', '\'"\' expected, at character offset 8 (before "}")'],
  ["[1] éé", 'garbage after JSON object, at character offset 4 (before "\\x{c3}\\x{a9}\\x{c3}\\x{a9}")'],
  [
    "",
    'malformed JSON string, neither tag, array, object, number, string or atom, at character offset 0 (before "(end of string)")',
  ],
  [
    " ",
    'malformed JSON string, neither tag, array, object, number, string or atom, at character offset 1 (before "(end of string)")',
  ],
  ["[nul]", "'null' expected, at character offset 1 (before \"nul]\")"],
  ["[fals]", "'false' expected, at character offset 1 (before \"fals]\")"],
  ["0x", 'garbage after JSON object, at character offset 1 (before "x")'],
  ["[1] ]", 'garbage after JSON object, at character offset 4 (before "]")'],
  [
    "[1] abcdefghijklmnopqrst",
    'garbage after JSON object, at character offset 4 (before "abcdefghijklmnopqrst")',
  ],
  [
    "[1] abcdefghijklmnopqrstu",
    'garbage after JSON object, at character offset 4 (before "abcdefghijklmnopqrst...")',
  ],
  [
    "[1] \u001b\b\u0007\u007f\\",
    'garbage after JSON object, at character offset 4 (before "\\e\\b\\a\\x{7f}\\\\")',
  ],
  [
    '["a\\\\\u0001bcdefghijklmnopqrstu',
    'invalid character encountered while parsing JSON string, at character offset 5 (before "\\x{1}bcdefghijklmnop...")',
  ],
  [
    "[".repeat(513),
    'json text or perl structure exceeds maximum nesting level (max_depth set too low?), at character offset 513 (before "(end of string)")',
  ],
  ['{"k":"\\ud83d\\ude00","l":[1,-0.5e-3,true,false,null]}', null],
  ["[1,2]", null],
  ["0", null],
];

describe("jsonXsError (JSON::XS 4.04 messages)", () => {
  it.each(RECORDED)("%j", (body, message) => {
    expect(jsonXsError(body) ?? null).toBe(message);
  });
});
