/**
 * perlJsonError against the messages JSON::PP 4.07 (Perl 5.36) gives for the same bodies, recorded
 * with `JSON::PP->new->decode` on this body as bytes, as the CGI decodes it (xcatws.cgi:3473-3480).
 */
import { describe, expect, it } from "vitest";
import { perlJsonError } from "../../src/emulator/http/perl-json";

/** [body, JSON::PP message without location, or null when it decodes]. */
const RECORDED: readonly (readonly [string, string | null])[] = [
  [
    '{"a":1,,"b":2}',
    'unexpected end of string while parsing JSON string, at character offset 8 (before ""b":2}")',
  ],
  [
    '{"a":1,}',
    'unexpected end of string while parsing JSON string, at character offset 8 (before "(end of string)")',
  ],
  ["{,}", 'unexpected end of string while parsing JSON string, at character offset 2 (before "}")'],
  ["{", ', or } expected while parsing object/hash, at character offset 1 (before "(end of string)")'],
  ["[", ', or ] expected while parsing array, at character offset 1 (before "(end of string)")'],
  [
    "[1,]",
    'malformed JSON string, neither array, object, number, string or atom, at character offset 3 (before "]")',
  ],
  ["[1 2]", ', or ] expected while parsing array, at character offset 3 (before "2]")'],
  ['{"a":tru}', "'true' expected, at character offset 5 (before \"tru}\")"],
  ['{"a":nul}', "'null' expected, at character offset 5 (before \"nul}\")"],
  ['{"a":fals}', "'false' expected, at character offset 8 (before \"s}\")"],
  ['{"a":falsey}', ', or } expected while parsing object/hash, at character offset 10 (before "y}")'],
  [
    '{"a":01}',
    'malformed number (leading zero must not be followed by another digit), at character offset 6 (before "1}")',
  ],
  [
    '{"a":1.}',
    'malformed number (no digits after decimal point), at character offset 8 (before "(end of string)")',
  ],
  [
    '{"a":-}',
    'malformed number (no digits after initial minus), at character offset 7 (before "(end of string)")',
  ],
  [
    '{"a":1e}',
    'malformed number (no digits after exp sign), at character offset 8 (before "(end of string)")',
  ],
  [
    '{"a":1.5e+}',
    'malformed number (no digits after exp sign), at character offset 11 (before "(end of string)")',
  ],
  ['{"a":"\\q"}', 'illegal backslash escape sequence in string, at character offset 6 (before "\\\\q"}")'],
  [
    '{"a":"\\u12"}',
    'unexpected end of string while parsing JSON string, at character offset 11 (before "}")',
  ],
  [
    '{"a":"\\ud800"}',
    'missing low surrogate character in surrogate pair, at character offset 14 (before "(end of string)")',
  ],
  [
    '{"a":"\\udc00"}',
    'missing high surrogate character in surrogate pair, at character offset 12 (before ""}")',
  ],
  [
    '{"a":"x',
    'unexpected end of string while parsing JSON string, at character offset 7 (before "(end of string)")',
  ],
  ['{"a":1}x', 'garbage after JSON object, at character offset 8 (before "(end of string)")'],
  [
    "x",
    'malformed JSON string, neither array, object, number, string or atom, at character offset 0 (before "x")',
  ],
  [
    " ",
    'malformed JSON string, neither array, object, number, string or atom, at character offset 1 (before "(end of string)")',
  ],
  [
    '{"a":[1,{"b":}]}',
    'malformed JSON string, neither array, object, number, string or atom, at character offset 13 (before "}]}")',
  ],
  ["{a:1}", 'unexpected end of string while parsing JSON string, at character offset 2 (before ":1}")'],
  ["{'a':1}", 'unexpected end of string while parsing JSON string, at character offset 2 (before "a\':1}")'],
  ['{"a":1 "b":2}', ', or } expected while parsing object/hash, at character offset 7 (before ""b":2}")'],
  [
    '{"a":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'unexpected end of string while parsing JSON string, at character offset 47 (before "(end of string)")',
  ],
  ['{"a":1}}', 'garbage after JSON object, at character offset 8 (before "(end of string)")'],
  ["[]]", 'garbage after JSON object, at character offset 3 (before "(end of string)")'],
  [
    '{"a":"é',
    'unexpected end of string while parsing JSON string, at character offset 10 (before "(end of string)")',
  ],
  ['{"é":1,,}', 'unexpected end of string while parsing JSON string, at character offset 11 (before "}")'],
  [
    '{"a":true',
    ', or } expected while parsing object/hash, at character offset 9 (before "(end of string)")',
  ],
  ['{"a":nulll}', ', or } expected while parsing object/hash, at character offset 9 (before "l}")'],
  ['{"a":-a}', 'malformed number (no digits after initial minus), at character offset 7 (before "}")'],
  ["nul", "'null' expected, at character offset 0 (before \"nul\")"],
  ['{"a"', '\':\' expected, at character offset 3 (before """)'],
  ['{"a" ', "':' expected, at character offset 4 (before \" \")"],
  ['{"a":', ', or } expected while parsing object/hash, at character offset 5 (before "(end of string)")'],
  ['{"a":1', ', or } expected while parsing object/hash, at character offset 6 (before "(end of string)")'],
  ['{"a":1,', ', or } expected while parsing object/hash, at character offset 7 (before "(end of string)")'],
  ['{"a":1, "b"', '\':\' expected, at character offset 10 (before """)'],
  [
    '{"a":(1)}',
    'malformed JSON string, neither array, object, number, string or atom, at character offset 6 (before "1)}")',
  ],
  [
    '{"a":"tab\tx"}',
    'invalid character encountered while parsing JSON string, at character offset 9 (before "\\tx"}")',
  ],
  ['{"a":1}\tx', 'garbage after JSON object, at character offset 9 (before "(end of string)")'],
  ['{"a":"back\\', 'illegal backslash escape sequence in string, at character offset 9 (before "k\\\\")'],
  ['{"k":"v"} {"k":2}', 'garbage after JSON object, at character offset 11 (before ""k":2}")'],
];

describe("perlJsonError (JSON::PP 4.07 messages)", () => {
  it.each(RECORDED)("%j", (body, message) => {
    expect(perlJsonError(body) ?? null).toBe(message);
  });
});
