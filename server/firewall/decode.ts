/**
 * A decoded view of a value, for the values that carry escapes: what a
 * browser, a shell or a database driver further down would make of it
 * (percent-encoding up to 3 times, with IIS `%uXXXX` and overlong UTF-8 dots
 * and slashes; HTML character references; JavaScript escapes; Unicode NFKC;
 * form feeds and other odd whitespace as spaces; invisible characters
 * dropped). The engine inspects the view beside the value as sent. Each
 * pattern below is a plain scan with no nested quantifier: linear in the input.
 */

import { bareHost, internalTargets } from "./ssrf";

const MAX_ROUNDS = 3;

const OVERLONG: Record<string, string> = {
  "%c0%ae": ".",
  "%c0%af": "/",
  "%c0%5c": "\\",
  "%c1%9c": "\\",
  "%c1%1c": "\\",
  "%e0%80%ae": ".",
  // IIS's lax hex reading of overlong slashes (the forms crs-930-100 names in the raw URL).
  "%c0%9v": "/",
  "%c0%qf": "/",
  "%bg%qf": "/",
  "%c1%pc": "\\",
  "%c1%8s": "\\",
};

const NAMED_ENTITIES: Record<string, string> = {
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  apos: "'",
  colon: ":",
  semi: ";",
  sol: "/",
  bsol: "\\",
  lpar: "(",
  rpar: ")",
  equals: "=",
  tab: "\t",
  newline: "\n",
  nbsp: " ",
  grave: "`",
  num: "#",
  period: ".",
  comma: ",",
  excl: "!",
  dollar: "$",
  percnt: "%",
  lsqb: "[",
  rsqb: "]",
  lcub: "{",
  rcub: "}",
};

function codePoint(n: number, fallback: string): string {
  return n <= 0x10ffff ? String.fromCodePoint(n) : fallback;
}

/** Percent-decoding that never throws: invalid sequences keep their ASCII bytes. */
export function percentDecode(input: string): string {
  if (!input.includes("%")) return input;
  let s = input.replace(
    /%(?:c0%ae|c0%af|c0%5c|c1%9c|c1%1c|e0%80%ae|c0%9v|c0%qf|bg%qf|c1%pc|c1%8s)/gi,
    (m) => OVERLONG[m.toLowerCase()] ?? m,
  );
  // Any other overlong UTF-8 form of an ASCII character (%c0%XX, %c1%XX, %e0%80%XX, %e0%81%XX):
  // lenient decoders read them as the character; a strict one refuses them.
  // A lenient decoder reads a two-byte lead %c0/%c1 with any second byte by its low six bits
  // (`%c0%ae`, `%c0%ee`, `%c0%6e` are all "."), as IIS's did.
  s = s.replace(/%c([01])%([0-9a-f][0-9a-f])/gi, (_, hi: string, lo: string) =>
    String.fromCharCode(((Number(hi) & 1) << 6) | (parseInt(lo, 16) & 0x3f)),
  );
  s = s.replace(/%e0%8([01])%([89ab][0-9a-f])/gi, (_, hi: string, lo: string) =>
    String.fromCharCode(((Number(hi) & 1) << 6) | (parseInt(lo, 16) & 0x3f)),
  );
  // Four-, five- and six-byte overlong forms (%f0%80%80%ae …), the same way.
  s = s.replace(/%(?:f0|f8%80|fc%80%80)%80%8([01])%([89ab][0-9a-f])/gi, (_, hi: string, lo: string) =>
    String.fromCharCode(((Number(hi) & 1) << 6) | (parseInt(lo, 16) & 0x3f)),
  );
  // A three-byte lead whose middle byte is not a continuation (%e0%40%ae): IIS kept the low bits.
  s = s.replace(/%e0%[0-7][0-9a-f]%([89ab][0-9a-f])/gi, (_, lo: string) =>
    String.fromCharCode(parseInt(lo, 16) & 0x3f),
  );
  // A lead byte left without its continuation (%c0%2e, %c0/, %e0%40%ae): lenient decoders drop it.
  s = s.replace(/%(?:c[01]|e0%[48]0|f0%80%80)(?=%[0-7][0-9a-f]|%[a-f][0-9a-f]|[\x20-\x7e])/gi, "");
  s = s.replace(/%u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return s.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-f]{2})/gi, (m, hex: string) => {
        const code = parseInt(hex, 16);
        // A lone 0xA0 is Latin-1's no-break space, which MySQL reads as a space (round 4).
        return code < 0x80 ? String.fromCharCode(code) : code === 0xa0 ? " " : m;
      });
    }
  });
}

/** Two or more `0x2e`-style bytes in a row (`0x2e0x2e0x2f`) as the ASCII they spell; `0x2e`, `0x2f`, `0x5c` alone too. */
export function decodeHexRuns(input: string): string {
  if (!input.includes("0x")) return input;
  return input
    .replace(/(?:0x[2-7][0-9a-f]){2,}/gi, (run) =>
      run.replace(/0x([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    )
    .replace(/0x(2e|2f|5c)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function decodeEntities(input: string): string {
  if (!input.includes("&")) return input;
  return input
    .replace(/&#x([0-9a-f]{1,6});?/gi, (m, hex: string) => codePoint(parseInt(hex, 16), m))
    .replace(/&#(\d{1,7});?/g, (m, dec: string) => codePoint(parseInt(dec, 10), m))
    .replace(/&([a-z]{2,8});/gi, (m, name: string) => NAMED_ENTITIES[name.toLowerCase()] ?? m);
}

const CONTROL_ESCAPES: Record<string, string> = { r: "\r", n: "\n", t: "\t" };

export function decodeJsEscapes(input: string): string {
  if (!input.includes("\\")) return input;
  return (
    input
      // \r \n \t as a JavaScript or JSON string literal reads them (a header injected through one).
      .replace(/\\([rnt])(?=[\\\w\s-]|$)/g, (_, c: string) => CONTROL_ESCAPES[c]!)
      .replace(/\\u\{([0-9a-f]{1,6})\}/gi, (m, hex: string) => codePoint(parseInt(hex, 16), m))
      .replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\x([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  );
}

// Zero-width, soft hyphen and bidi characters: they let "<scr\u200bipt" slip past a literal match.
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;
// Whitespace other than space, tab and line breaks (form feed, vertical tab, NBSP, ideographic space …).
const ODD_SPACE = /[\v\f\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
// Unicode's line breaks (next line, line and paragraph separators): a line break to the stacks and
// terminals that fold them to LF, so a header or a command after one is read as after a line break.
const UNICODE_BREAK = /[\u0085\u2028\u2029]/g;
// Quotes, backslashes and cmd.exe's caret inside a word, which a shell drops: c''at, w"h"oami, c\at, w^ho^ami.
const SHELL_QUOTES = /([a-z])(?:''|""|['"\\^])(?=[a-z])/gi;
// cmd.exe's caret escapes whatever follows it, a space or a drive's colon included (Invoke-
// DOSfuscation's "n^e^t^ ^u^s^e^r", "d^i^r c^:^\\"): after SHELL_QUOTES has joined the letters, a caret
// after a word's last character, and one before a word's first letter.
const CMD_CARET_AFTER = /([a-z0-9:\\.])\^(?=[ \t:\\./a-z0-9])/gi;
const CMD_CARET_BEFORE = /(?<=[ \t])\^(?=[a-z])/gi;
// Expansions a shell makes empty inside a word: who$()ami, who``ami, w$@hoami, wh${x}oami, wh$1oami.
const SHELL_NOOPS = /([a-z])(?:\$\(\)|\x60\x60|\$@|\$\*|\$\{\w{0,8}\}|\$\d)(?=[a-z])/gi;
// cmd.exe splits a command line into arguments on commas and semicolons as on spaces (the Windows
// Commands reference's cmd page): "|net,user", "&whoami,/priv", "|ping,-n,5,127.0.0.1". At the
// start of a value or after a separator (cmd's |, & and line break, and a POSIX shell's ;), a word
// glued to a comma and more text is read as the word and a space; glued to a semicolon, only after
// cmd's separators, since a POSIX shell's ";" ends the command ("foo.pdf;whoami"). Not "=", also a
// delimiter there: a query string's "&id=5" would read as a command (decision 501).
const CMD_COMMA = /((?:^|[\r\n|&;])[ \t]*[a-z][\w.-]*),+(?=[^\s,;])/gi;
const CMD_SEMICOLON = /([\r\n|&][ \t]*[a-z][\w.-]*);+(?=[^\s,;])/gi;
const CMD_DELIMITED = /(?:^|[\r\n|&;])[ \t]*[a-z][\w.-]*,+[^\s,;]|[\r\n|&][ \t]*[a-z][\w.-]*;+[^\s,;]/i;
const ESCAPES = /[%&\\]|0x/;
// Which values need a view at all: escapes, odd characters, and URL-like text (internal hosts, ssrf.ts).
const NEEDS_VIEW = /[%&\\\v\f\u0080-\uffff'"$^+\x60]|\/\/|0x/;
// A character whose low byte is CR or LF (U+010D, U+560A): HTTP stacks that keep only the low
// byte of each character have turned them into a line break in a header (the "嘊嘍" trick).
const LOW_BYTE_BREAK = /[\u0100-\uffff]/g;

// A whole value in Base64 (standard or URL alphabet, padded to a multiple of four), which an
// application further down may decode before use (issue 30, round 2).
const BASE64 = /^[A-Za-z0-9+/_-]{8,}={0,2}$/;
// A URL scheme that WHATWG parsers accept without its slashes (`http:127.0.0.1`).
const SCHEME_NO_SLASHES = /(?:https?|ftp|wss?|gopher|dict):[/\\]?[^/\\\s]/i;

/**
 * The text a Base64 value stands for, when it is readable (printable ASCII with at least one
 * character that is not a letter or digit): an identifier's random letters decode to binary and
 * are left alone.
 */
export function base64Text(value: string): string | undefined {
  // Short values of letters, digits and `-` (plan ids, ZIP+4 codes) are not read as Base64.
  if (value.length % 4 !== 0 || (value.length < 20 && !/[+/=]/.test(value)) || !BASE64.test(value)) return undefined;
  const text = Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("latin1");
  if (!/^[\x20-\x7e\t\r\n]+$/.test(text) || !/[^A-Za-z0-9 ]/.test(text)) return undefined;
  return text;
}

/** UTF-7's Base64 runs (`+ADw-script+AD4-`): what a browser reading the page as UTF-7 makes of them. */
export function decodeUtf7(input: string): string {
  if (!/\+A[A-Za-z0-9+/]{2}/.test(input)) return input;
  return input.replace(/\+([A-Za-z0-9+/]{3,})-?/g, (m, run: string) => {
    const bytes = Buffer.from(run, "base64");
    let out = "";
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!);
    // eslint-disable-next-line no-control-regex -- a run that decodes to control characters was not UTF-7 text
    return out !== "" && !/[\x00-\x08\x0e-\x1f]/.test(out) ? out : m;
  });
}

// SQL comments: `/*…*/` (and MySQL's `/*!50000 … */`, whose content runs). Between two letters a
// comment was used to split a keyword past a filter (`uni/**/on sel/**/ect`).
const SQL_COMMENT = /\/\*!?\d{0,5}|\*\//g;
const SPLIT_WORD = /\b([a-z]{1,12})\/\*[^*]{0,40}\*\/([a-z]{1,12})\b/gi;
// The words a split keyword makes when joined (`uni/**/on` → union); any other pair is two words.
const SQL_WORDS = new Set(
  "union select insert update delete from where order group having sleep benchmark concat char exec execute declare drop table database information_schema waitfor delay substring ascii limit values into and or".split(
    " ",
  ),
);
// Typographic quotes that MySQL's character-set conversion and some drivers fold to ASCII ones.
const SMART_SINGLE = /[\u2018\u2019\u201a\u201b\u2032]/g;
const SMART_DOUBLE = /[\u201c\u201d\u201e\u201f\u2033]/g;
// `¼script¾`: text read as US-ASCII by a stack that drops the eighth bit (0xBC is `<`, 0xBE `>`).
const EIGHTH_BIT = /[\u00a0-\u00ff]/g;

/** The decoded view, or undefined when it equals the value (the usual case: plain text). */
// An email address with plus tags, made of letters, digits, dots, "_" and "-" only.
const PLUS_ADDRESS = /^[a-z0-9._-]+(?:\+[a-z0-9._-]+)+@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i;

export function decodedView(value: string): string | undefined {
  const b64 = base64Text(value);
  if (
    b64 === undefined &&
    !NEEDS_VIEW.test(value) &&
    !value.includes("/*") &&
    !SCHEME_NO_SLASHES.test(value) &&
    !CMD_DELIMITED.test(value)
  ) {
    // Plain text, unless it starts with a host name (`lvh.me/`): then only its internal target.
    if (bareHost(value) === undefined) return undefined;
    const targets = internalTargets(value);
    return targets.length > 0 ? `${value}\n${targets.join(" ")}` : undefined;
  }
  // A value with no space but plus signs reads as a form encoder wrote it ("|+cat+/etc/passwd"):
  // a form decoder further down makes each plus a space. Not an email address's plus tag
  // ("john+or@var.es", "mary+and@example.com"), which is no SQL "john or@var.es" (docs/decisions/482).
  let s = value.includes("+") ? decodeUtf7(value) : value;
  if (s.includes("+") && !/\s/.test(s) && !PLUS_ADDRESS.test(s)) s = s.replaceAll("+", " ");
  if (b64 !== undefined) s = `${s}\n${b64}`;
  for (let round = 0; round < MAX_ROUNDS && ESCAPES.test(s); round++) {
    const next = decodeHexRuns(decodeJsEscapes(decodeEntities(percentDecode(s))));
    if (next === s) break;
    s = next;
  }
  if (s.includes("\u00bc") && s.includes("\u00be"))
    s = s.replace(EIGHTH_BIT, (c) => String.fromCharCode(c.charCodeAt(0) & 0x7f));
  // eslint-disable-next-line no-control-regex -- plain ASCII needs no NFKC
  if (!/^[\x00-\x7f]*$/.test(s)) s = s.normalize("NFKC").replace(INVISIBLE, "");
  s = s.replace(ODD_SPACE, " ").replace(UNICODE_BREAK, "\n");
  // URLs read before the shell's quote removal (`http:\\localhost\admin` keeps its backslashes).
  const urlText = s;
  // A shell drops quotes and backslashes inside a word (`w\ho\am\i`); a Windows path keeps its
  // backslashes (`windows\system32`): when a backslash sits between letters, both readings.
  let unquoted = s.replace(SHELL_QUOTES, "$1").replace(SHELL_NOOPS, "$1");
  if (unquoted.includes("^")) unquoted = unquoted.replace(CMD_CARET_AFTER, "$1").replace(CMD_CARET_BEFORE, "");
  if (CMD_DELIMITED.test(unquoted)) unquoted = unquoted.replace(CMD_COMMA, "$1 ").replace(CMD_SEMICOLON, "$1 ");
  s = unquoted !== s && /[a-z0-9]\\[a-z]/i.test(s) ? `${unquoted}\n${s}` : unquoted;
  // Division slash and set minus, which NFKC keeps: path separators to IIS-era decoders.
  // U+EFC8 and U+F025 (private use): slashes to IIS's best-fit mapping (dotdotpwn's `..%uEFC8`).
  if (/[\u2215\u2216\u2044\u29f5\uefc8\uf025]/.test(s))
    s = s.replace(/[\u2215\u2044\uefc8]/g, "/").replace(/[\u2216\u29f5\uf025]/g, "\\");
  if (/[\u0100-\uffff]/.test(s))
    s = s.replace(LOW_BYTE_BREAK, (c) => {
      const low = c.charCodeAt(0) & 0xff;
      return low === 0x0a ? "\n" : low === 0x0d ? "\r" : c;
    });
  if (/[\u2018-\u201f\u2032\u2033]/.test(s)) s = s.replace(SMART_SINGLE, "'").replace(SMART_DOUBLE, '"');
  if (s.includes("/*")) {
    // A keyword split by a comment is joined (`sel/**/ect`); any other comment is a space, as SQL reads it.
    s = s
      .replace(SPLIT_WORD, (m, a: string, b: string) =>
        SQL_WORDS.has(`${a}${b}`.toLowerCase()) ? `${a}${b}` : `${a} ${b}`,
      )
      .replace(SQL_COMMENT, " ");
  }
  // Every spelling of an internal address in a URL, in one canonical form (ssrf.ts).
  // The value as sent too, when it has a user name: a parser that keeps `%2F` in one reads the host after the `@`.
  const asSent = value !== urlText && value.includes("@") ? internalTargets(value) : [];
  const targets = [...new Set([...internalTargets(urlText), ...internalTargets(s), ...asSent])];
  if (targets.length > 0) s = `${s}\n${targets.join(" ")}`;
  return s === value ? undefined : s;
}
