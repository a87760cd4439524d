/**
 * The request firewall's classifier: pure functions, no I/O, so the attack
 * and benign corpora run as fast unit tests (tests/unit/protection/).
 *
 * A value is first *decoded* the way a browser, a shell or a database driver
 * further down might decode it (percent-decoding repeated up to 3 times,
 * HTML character references, JS escapes, Unicode NFKC, SQL comments removed,
 * whitespace collapsed), then matched against a small rule set. Each rule is
 * written to need the *structure* of an attack, not a keyword: a quote left
 * open and followed by a tautology or a comment, a command name that follows a shell
 * separator and is followed by a shell-shaped argument, a tag or an event
 * handler attribute. That is what keeps "O'Brien", "Drop-in clinic",
 * "123 Main St #4" and "select the best plan for my clients" out of trouble.
 * The rules and their reasoning are listed in docs/firewall.md; keep the two
 * in step. Decision record: docs/decisions/050-request-firewall-rules.md.
 */

export type RuleFamily = "sqli" | "xss" | "traversal" | "cmdi";

export interface FirewallRule {
  /** Stable id, logged on every block and quoted in docs/firewall.md. */
  id: string;
  family: RuleFamily;
  /** Why this shape is an attack and not ordinary input. */
  reason: string;
  test: (forms: DecodedForms) => boolean;
}

/** One value in the shapes the rules look at. */
export interface DecodedForms {
  /** Fully decoded, NFKC, lower-case, original whitespace kept. */
  decoded: string;
  /** `decoded` with whitespace runs collapsed to one space. */
  text: string;
  /** `text` with SQL comments (`/* *\/`, `/*!50000`) turned into spaces. */
  sql: string;
  /** Line breaks kept (a shell runs each line), `${IFS}` as space, quotes
   * inside words dropped (`c'a't` → `cat`), other whitespace collapsed. */
  shell: string;
  /** `decoded` without tabs and line breaks: browsers ignore them inside a URL scheme. */
  url: string;
  /** Whether a NUL byte appeared at any decoding stage. */
  hasNul: boolean;
}

const MAX_DECODE_ROUNDS = 3;

// Overlong UTF-8 encodings of "." and "/" and "\" that old servers accepted;
// a modern decoder turns them into U+FFFD, which would hide the traversal.
const OVERLONG: Record<string, string> = {
  "%c0%ae": ".",
  "%c0%af": "/",
  "%c1%9c": "\\",
  "%c1%1c": "\\",
  "%e0%80%ae": ".",
};

/** Percent-decoding that never throws: invalid sequences stay as they are. */
export function percentDecode(input: string): string {
  if (!input.includes("%")) return input;
  let s = input.replace(/%(?:c0%ae|c0%af|c1%9c|c1%1c|e0%80%ae)/gi, (m) => OVERLONG[m.toLowerCase()] ?? m);
  // %uXXXX (IIS-style) first, then runs of %XX decoded as UTF-8 bytes.
  s = s.replace(/%u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return s.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      // Not valid UTF-8 (e.g. a lone %ff): keep ASCII bytes, drop the rest.
      return run.replace(/%([0-9a-f]{2})/gi, (m, hex: string) => {
        const code = parseInt(hex, 16);
        return code < 0x80 ? String.fromCharCode(code) : m;
      });
    }
  });
}

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

/** HTML character references, including the semicolon-less numeric form browsers accept. */
export function decodeEntities(input: string): string {
  if (!input.includes("&")) return input;
  return input
    .replace(/&#x([0-9a-f]{1,6});?/gi, (m, hex: string) => codePoint(parseInt(hex, 16), m))
    .replace(/&#(\d{1,7});?/g, (m, dec: string) => codePoint(parseInt(dec, 10), m))
    .replace(/&([a-z]{2,8});/gi, (m, name: string) => NAMED_ENTITIES[name.toLowerCase()] ?? m);
}

function codePoint(n: number, fallback: string): string {
  return n <= 0x10ffff ? String.fromCodePoint(n) : fallback;
}

/** `\u003c`, `\x3c` escapes as a JavaScript or JSON string would read them. */
export function decodeJsEscapes(input: string): string {
  if (!input.includes("\\")) return input;
  return input
    .replace(/\\u\{([0-9a-f]{1,6})\}/gi, (m, hex: string) => codePoint(parseInt(hex, 16), m))
    .replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\x([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// Zero-width and bidi characters, and C0 controls other than tab/CR/LF, are
// dropped: they let "<scr\u200bipt" slip past a literal match.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;

export function decodeForms(value: string): DecodedForms {
  let s = value;
  let hasNul = s.includes("\u0000");
  // Nothing to decode without an escape character (the usual case).
  for (let round = 0; round < MAX_DECODE_ROUNDS && /[%&\\]/.test(s); round++) {
    const next = decodeJsEscapes(decodeEntities(percentDecode(s)));
    if (next.includes("\u0000")) hasNul = true;
    if (next === s) break;
    s = next;
  }
  // NFKC changes nothing in plain ASCII: skip it there.
  // eslint-disable-next-line no-control-regex
  const decoded = (/^[\x00-\x7f]*$/.test(s) ? s : s.normalize("NFKC")).replace(INVISIBLE, "").toLowerCase();
  const text = decoded.replace(/\s+/g, " ");
  const sql = text
    .replace(/\/\*!\d*/g, " ")
    .replace(/\/\*.*?\*\//g, " ")
    .replace(/\*\//g, " ")
    .replace(/\s+/g, " ");
  const shell = decoded
    .replace(/[\r\n]+/g, "\n")
    .replace(/\$\{ifs\}|\$ifs(?:\$\d)?/g, " ")
    .replace(/([a-z])(?:['"\\]|''|"")(?=[a-z])/g, "$1")
    .replace(/[^\S\n]+/g, " ");
  const url = decoded.replace(/[\t\r\n]/g, "");
  return { decoded, text, sql, shell, url, hasNul };
}

// ---------------------------------------------------------------- the rules

// SQL identifiers as an injected statement writes them: users, `users`, [dbo].users
const IDENT = String.raw`[\w.\`"\[\]]+`;

// Commands grouped by how much context they need before they are an attack.
// Words that are also everyday English ("type", "more", "sleep", "cat", "id")
// are only an attack with a shell-shaped argument after them.
const RECON = "id|whoami|uname|ifconfig|ipconfig|systeminfo|printenv|hostname|netstat|getuid|ver";
const NETWORK = "wget|curl|nc|ncat|netcat|telnet|tftp|ftp|nslookup|ping|dig|socat|ssh|scp";
const INTERPRETERS =
  "bash|sh|zsh|ksh|csh|dash|python[23]?|perl|ruby|php|node|lua|powershell|pwsh|cmd|cmd\\.exe|busybox|certutil|bitsadmin";
const FILE_TOOLS =
  "cat|tac|more|less|head|tail|type|ls|dir|rm|cp|mv|chmod|chown|touch|echo|find|grep|awk|sed|xxd|base64|sleep|kill|killall|pkill|crontab|useradd|passwd|mkfifo|tar|unzip|chattr|net|reg|del|copy|ps|printf|xargs|nohup|timeout|env";
const ALL_COMMANDS = `${RECON}|${NETWORK}|${INTERPRETERS}|${FILE_TOOLS}`;
// A shell argument that only a command line has: an option, an absolute or
// home or relative path, a variable, a Windows drive or %VAR%, a redirection.
const SHELL_ARG = String.raw`(?:-{1,2}[a-z0-9]|/[\w.~-]|~/|\.\.?/|\$[a-z_{(]|[a-z]:\\|%[a-z_]+%|[<>|])`;
const HOST_ARG = String.raw`(?:https?://|ftp://|\d{1,3}(?:\.\d{1,3}){3}\b|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}\b)`;
// Separators: `;`, pipes, `&`, a backtick, `$(`, and a line break (a shell runs
// each line). STRICT leaves out the start of the value, for bare commands.
const SEP = String.raw`(?:^|[\n;|&\`]|\$\()`;
// An optional directory before a command: /bin/cat, /usr/bin/id.
const BIN = String.raw`(?:[\w/]{0,30}/)?`;
const SEP_STRICT = String.raw`(?:[\n;|&\`]|\$\()`;
// Without the line break: "Skills:\nPython" is a list, not a command.
const SEP_INLINE = String.raw`(?:[;|&\`]|\$\()`;
// What ends a bare command: the value's end or another separator, but not a
// line break, so a list with "ID" on its own line stays text.
const BARE_END = String.raw`[ \t]*(?:$|[;|&\`)>#])`;

const STATEMENT =
  String.raw`drop\s+(?:table|database|schema|view|procedure|function|trigger|user|index)\s+(?:if\s+exists\s+)?${IDENT}` +
  String.raw`|truncate\s+(?:table\s+)?${IDENT}\s*(?:;|--|#|$)` +
  String.raw`|delete\s+from\s+${IDENT}\s*(?:where\b|;|--|#|$)` +
  String.raw`|insert\s+into\s+${IDENT}\s*(?:\(|values\b|select\b)` +
  String.raw`|update\s+${IDENT}\s+set\s+${IDENT}\s*=` +
  String.raw`|alter\s+(?:table|user|database|login)\s+${IDENT}` +
  String.raw`|create\s+(?:table|database|procedure|function|trigger|login)\s+${IDENT}` +
  String.raw`|exec(?:ute)?\s*\(?\s*(?:xp_|sp_|master\b|@)` +
  String.raw`|declare\s+@|shutdown\s*(?:with\b|;|--|#|$)|grant\s+all\b`;

const globalVersions = new WeakMap<RegExp, RegExp>();
function globalVersion(pattern: RegExp): RegExp {
  let g = globalVersions.get(pattern);
  if (!g) globalVersions.set(pattern, (g = new RegExp(pattern.source, "g")));
  return g;
}

/**
 * A match whose quote (group 1) *opens* in the value: an even number of the
 * same quote stands before it. An injected quote closes the application's
 * string literal, so from the value's point of view it is an opening one;
 * in prose the quote before "or"/"--" is usually the closing half of a
 * quoted word ("low deductible" and ..., "yes"-- then ...).
 */
function openingQuoteMatch(value: string, pattern: RegExp): boolean {
  if (!/['"`]/.test(value)) return false;
  const global = globalVersion(pattern);
  global.lastIndex = 0;
  // Matches come in order: count each quote character once, left to right.
  const seen: Record<string, { at: number; count: number }> = {};
  for (const m of value.matchAll(global)) {
    const quote = m[1];
    const state = (seen[quote] ??= { at: 0, count: 0 });
    for (let i = value.indexOf(quote, state.at); i !== -1 && i < m.index; i = value.indexOf(quote, i + 1)) {
      state.count++;
      state.at = i + 1;
    }
    if (state.count % 2 === 0) return true;
  }
  return false;
}

// Every pattern is compiled once; all quantifiers are bounded or anchored on
// distinct characters so a 100 KB field cannot make them backtrack for long.
const P = {
  // SQL injection
  quoteCompare:
    /(['"`])\s*\)*\s*(?:or|and|xor|\|\||&&)\s+\(*\s*(?:[\w'"`]+|'[^']*'|"[^"]*")\s*(?:=|<>|!=|<=?|>=?|\blike\b|\bregexp\b|\brlike\b|\bbetween\b|\bis\b|\bin\s*\()/,
  quoteBoolean: /(['"`])\s*\)*\s*(?:or|and)\s+(?:true|false|not\b|\d+\s*(?:--|#|;|$))/,
  sameNumber: /\b(?:or|and)\s+(\d+)\s*=\s*\1\b/,
  numberCompareEnd: /\b(?:or|and)\s+\d+\s*(?:=|<>|!=)\s*\d+\s*(?:$|--|#|;|\)|\b(?:and|or)\b)/,
  digitOrTrue: /\d\s*\)*\s+(?:or|and)\s+(?:true|false)\s*(?:$|--|#|;)/,
  sameString: /\b(?:or|and)\s+(['"])([^'"]*)\1\s*=\s*\1\2/,
  quoteComment: /(['"`])\)*(?:--|#|\/\*)(?:[\s\-+]|$)/,
  quoteCommentEnd: /(['"`])\s*\)*\s*(?:--|#)\s*-?\s*$/,
  quoteSemicolonComment: /(['"`])\s*\)*\s*;\s*(?:--|#)/,
  unionSelect: /\bunion\b(?:\s+(?:all|distinct))?\s*\(*\s*select\b/,
  stackedAfterSeparator: new RegExp(String.raw`(?:;|['"\`)])\s*(?:${STATEMENT})`),
  stackedAtStart: new RegExp(String.raw`^\s*(?:${STATEMENT})\s*(?:;|--|#)`),
  stackedSelect:
    /;\s*select\s+(?:\*|@@|null\b|\d+\s*(?:,|from\b|--|#|$)|count\s*\(|version\s*\(|user\s*\(|database\s*\(|pg_sleep|sleep\s*\(|load_file|benchmark|char\s*\()/,
  timeDelay:
    /\bsleep\(\s*[\d.]+\s*\)|\bpg_sleep\s*\(\s*[\d.]+\s*\)|\bbenchmark\s*\(\s*\d+\s*,|\bwaitfor\s+(?:delay|time)\s+['"\d]|\bdbms_(?:lock\.sleep|pipe\.receive_message)\b|\brandomblob\s*\(\s*\d{6,}/,
  catalog:
    /@@(?:version|datadir|hostname|servername|basedir|identity|spid|language|user)\b|\b(?:information_schema|sysobjects|syscolumns|sys\.(?:objects|tables|columns|databases)|pg_catalog|pg_shadow|pg_user|sqlite_master|sqlite_schema|mysql\.user|all_tab_columns|dba_users|msysobjects)\b/,
  dangerousFunction:
    /\b(?:xp_cmdshell|xp_regread|xp_dirtree|sp_executesql|sp_oacreate|sp_makewebtask|utl_http|utl_inaddr)\b|\bload_file\s*\(|\binto\s+(?:out|dump)file\b|\b(?:extractvalue|updatexml)\s*\(|\bexp\s*\(\s*~|\bconvert\s*\(\s*int\s*,|\bgroup_concat\s*\(/,
  encodedLiteral:
    /\b(?:char|chr|nchar)\s*\(\s*\d+\s*(?:,\s*\d+\s*)+\)|\b(?:concat|concat_ws|unhex|hex|cast)\s*\(\s*(?:0x[0-9a-f]+|@@|\(?\s*select\b|version\s*\()/,
  blindProbe:
    /\b(?:ascii|ord)\s*\(\s*(?:substr|substring|mid)\s*\(|\b(?:substr|substring|mid)\s*\(\s*(?:@@|user\s*\(|database\s*\(|version\s*\(|\(\s*select\b)|\border\s+by\s+\d+\s*(?:--|#|;)|\bhaving\s+\d+\s*=\s*\d+/,
  subSelect:
    /['"`]\s*\)*\s*(?:and|or)\s*\(+\s*select\b|\(\s*select\b[^)]{0,100}\)\s*(?:=|<>|!=|<|>)|(?:=|<>|!=|<|>)\s*\(\s*select\b|['"`]\s*\|\|\s*\(?\s*select\b|\bselect\s+(?:\*\s+from\b|@@\w|null\s*,|count\s*\(\s*\*\s*\)\s+from\b|(?:user|database|version|current_user|system_user)\s*\(\s*\))/,

  // Script injection
  scriptTag: /<\s*\/?\s*script\b/,
  activeTag:
    /<\s*\/?\s*(?:iframe|frame|frameset|object|embed|applet|svg|math|isindex|xmp|noembed|noframes|xss|portal)\b/,
  urlTag:
    /<\s*meta\b[^>]{0,200}http-equiv|<\s*style\b[^>]{0,200}>|<\s*link\b[^>]{0,200}\brel\s*=|<\s*base\b[^>]{0,200}\bhref\s*=|<\s*form\b[^>]{0,200}\baction\s*=|\b(?:formaction|srcdoc|xlink:href)\s*=/,
  eventHandler:
    /(?:^|[\s"'`/;<>])on(?:abort|activate|afterprint|animation(?:end|iteration|start|cancel)|auxclick|before(?:copy|cut|input|paste|print|toggle|unload)|begin|blur|bounce|canplay(?:through)?|change|click|close|contextmenu|copy|cuechange|cut|dblclick|drag(?:end|enter|leave|over|start)?|drop|durationchange|end|ended|error|finish|focus(?:in|out)?|formdata|fullscreenchange|hashchange|input|invalid|key(?:down|press|up)|load(?:eddata|edmetadata|start|end)?|message|mouse(?:down|enter|leave|move|out|over|up|wheel)|page(?:hide|show)|paste|pause|play(?:ing)?|pointer(?:down|enter|leave|move|out|over|up|rawupdate|cancel)|popstate|progress|ratechange|readystatechange|repeat|reset|resize|scroll(?:end)?|search|seek(?:ed|ing)|select(?:start|ionchange)?|show|start|storage|submit|suspend|timeupdate|toggle|touch(?:start|end|move|cancel)|transition(?:end|run|start|cancel)|unload|volumechange|waiting|wheel)\s*=/,
  // javascript: followed directly by code, or after spaces by a call/member/comment.
  scriptUrl: /\b(?:java|vb|live)script\s*:(?:[^\s]|\s+(?:\/\/|void\b|[\w$.]+[(`]|[\w$]+\.[\w$]+))/,
  htmlDataUrl:
    /\bdata\s*:\s*(?:text\/html|image\/svg\+xml|application\/(?:x-)?(?:xhtml\+xml|javascript|ecmascript)|text\/(?:java|ecma)script)\s*[,;]/,
  domSecret:
    /\bdocument\s*\.\s*(?:cookie|domain|write(?:ln)?\s*\(|location\s*=)|\bwindow\s*\.\s*location\s*=|\blocation\s*\.\s*href\s*=\s*['"`]?(?:javascript|\/\/|https?:)/,
  stringEval:
    /\b(?:eval|settimeout|setinterval|function)\s*\(\s*(?:atob|unescape|decodeuri(?:component)?|string\.fromcharcode)\b|\bstring\s*\.\s*fromcharcode\s*\(|\bconstructor\s*\.\s*constructor\s*\(|\bimport\s*\(\s*['"`]?(?:https?:|\/\/|data:)/,
  jsBreakout:
    /['"`]\s*[-+*/;,)\]}]+\s*(?:alert|prompt|confirm|eval|print)(?:`|\(\s*(?:\d|['"`/]|document|window|string|atob|this|top|self|parent))|^\s*(?:alert|prompt|confirm)\s*\(\s*(?:\d+|['"`][^'"`]*['"`]|document\.\w+)\s*\)\s*;?\s*$/,
  cssScript:
    /(?:style\s*=\s*['"]?|[{;]\s*[\w-]+\s*:\s*)[^;'"]{0,100}expression\s*\(|-moz-binding\s*:|behavior\s*:\s*url\s*\(/,

  // Path traversal
  // Not after a third dot: "Wait.../what" (and "…", which NFKC turns into
  // "...") is punctuation; "....//" is the filter-evasion form of "../".
  dotDot: /(?<!\.)\.\.;?[\\/]|\.{4,}[\\/]{2}|[\\/]\.\.(?:$|[?#;\s])/,
  unixFile:
    /\/etc\/(?:passwd|shadow|group|hosts|issue|hostname|crontab|sudoers|motd|mysql|ssh|nginx|apache2|httpd)\b|\/proc\/(?:self|\d+)\/|\/var\/log\/|\/root\/|\/home\/[\w-]+\/\.(?:ssh|bash_history)|\/\.ssh\/(?:id_rsa|authorized_keys)/,
  windowsFile:
    /[a-z]:[\\/]+(?:(?:windows|winnt|inetpub)(?:[\\/]|$)|boot\.ini)|\b(?:win|system|boot)\.ini\b|\bsystem32[\\/]/,
  secretFile:
    /(?:^|[\\/])\.(?:env|git|svn|hg|htaccess|htpasswd|aws|docker|npmrc)(?:[\\/]|$|\.)|\bweb-inf[\\/]|\bwp-config\.php\b/,
  wrapper: /\b(?:file|php|phar|expect|gopher|dict|jar|netdoc|zip|glob|compress\.zlib):\/\//,

  // Command injection
  bareRecon: new RegExp(String.raw`${SEP_STRICT}\s*${BIN}(?:${RECON}|ls|dir)${BARE_END}`),
  reconWithOption: new RegExp(String.raw`${SEP}\s*${BIN}(?:${RECON})\s+-{1,2}[a-z]`),
  network: new RegExp(String.raw`${SEP}\s*${BIN}(?:${NETWORK})\s+(?:-{1,2}[a-z0-9]|${HOST_ARG})`),
  bareInterpreter: new RegExp(String.raw`${SEP_INLINE}\s*${BIN}(?:${INTERPRETERS})(?:${BARE_END}|[ \t]*<)`),
  interpreterWithArg: new RegExp(String.raw`${SEP}\s*${BIN}(?:${INTERPRETERS})\s+(?:-{1,2}[a-z]|/[\w.~]|${HOST_ARG})`),
  fileTool: new RegExp(String.raw`${SEP}\s*${BIN}(?:${FILE_TOOLS})\s+${SHELL_ARG}`),
  fileToolSpecial: new RegExp(
    String.raw`${SEP}\s*${BIN}(?:chmod\s+(?:[0-7]{3,4}|[ugoa]*[+=-][rwxst]+)\s|chown\s+\w+:\w*\s|find\s+\S+\s+-(?:name|iname|type|perm|exec|user|newer)\b)`,
  ),
  windowsAdmin: new RegExp(
    String.raw`${SEP_STRICT}\s*(?:sleep\s+\d+${BARE_END}|net\s+(?:user|localgroup|view|use|share)\b|reg\s+(?:add|query|delete|save)\b)`,
  ),
  dollarParen: new RegExp(String.raw`\$\(\s*${BIN}(?:${ALL_COMMANDS})\b`),
  // `id`, `whoami` alone, or any command with an argument: `cat /etc/passwd`.
  // A lone everyday word in backticks (`type`) is markdown, not a command.
  backtick: new RegExp(String.raw`\`\s*${BIN}(?:(?:${RECON}|ls)\s*|(?:${ALL_COMMANDS})\s+[^\`\s][^\`]{0,200})\``),
  ifs: /\$\{\s*ifs\s*\}|\$ifs\$\d/,
  lookup:
    /\$\{[^}]{0,40}?(?:jndi\s*:|\$\{|(?:env|sys|java|lower|upper|date|ctx|main|bundle|sd|k8s|docker|log4j|spring|base64|script)\s*:|::-)/,
  shellPath:
    /(?:^|[\s;|&`'"(=<>])\/(?:usr\/)?s?bin\/(?:ba|z|k|da|c)?sh\b|\/dev\/(?:tcp|udp)\/|[0-9]?>&\s*\/dev\/|\b0>&1\b|\bnc(?:at)?\s+(?:-\w+\s+){0,4}-[ec]\s|\bmkfifo\s+\/tmp\//,
  shellshock: /\(\s*\)\s*\{\s*:?\s*;?\s*\}\s*;/,
  downloadAndRun:
    /\b(?:curl|wget)\s+[^|;&]{1,200}\|\s*(?:ba|z|k)?sh\b|\bpowershell(?:\.exe)?\s+-(?:e|enc|encodedcommand|nop|w|c|command)\b|\bcmd(?:\.exe)?\s+\/[ck]\s/,
} as const;

export const RULES: readonly FirewallRule[] = [
  // ------------------------------------------------------------ SQL injection
  {
    id: "sqli-quote-tautology",
    family: "sqli",
    reason:
      "A quote closes a string literal and OR/AND adds a comparison: ' OR 1=1, ') or ('a'='a, \" or \"\"=\", ' or true. Only when that quote opens in the value (an even number of the same quote before it), so 'Wants \"low deductible\" and budget = 300' passes.",
    test: (f) => openingQuoteMatch(f.sql, P.quoteCompare) || openingQuoteMatch(f.sql, P.quoteBoolean),
  },
  {
    id: "sqli-numeric-tautology",
    family: "sqli",
    reason:
      "OR/AND with a comparison that is always true (1=1, 'a'='a'), or a numeric comparison that ends the value or is followed by SQL: 1 AND 1=2 --. A sentence goes on with words.",
    test: (f) =>
      P.sameNumber.test(f.sql) ||
      P.numberCompareEnd.test(f.sql) ||
      P.sameString.test(f.sql) ||
      P.digitOrTrue.test(f.sql),
  },
  {
    id: "sqli-comment-after-quote",
    family: "sqli",
    reason:
      "An opening quote (or a bracket after one) followed by --, # or /* cuts the rest of the query off: admin'--, 1')#, x'/*. A quoted word in prose closes its quote; '123 Main St #4' has no quote.",
    test: (f) =>
      openingQuoteMatch(f.sql, P.quoteComment) ||
      openingQuoteMatch(f.sql, P.quoteCommentEnd) ||
      openingQuoteMatch(f.sql, P.quoteSemicolonComment),
  },
  {
    id: "sqli-union-select",
    family: "sqli",
    reason:
      "UNION [ALL] SELECT appends a second query; 'union members' and 'select the best plan' never have the pair.",
    test: (f) => P.unionSelect.test(f.sql),
  },
  {
    id: "sqli-stacked-statement",
    family: "sqli",
    reason:
      "A statement separator or closing quote followed by a statement with its SQL grammar: ; DROP TABLE x, '; DELETE FROM x WHERE, ; INSERT INTO x VALUES, ; UPDATE x SET y=, ; EXEC xp_…, ; SELECT * …. At the start of a value only with a terminator after it, so 'Drop-in clinic' and 'drop table talk' pass.",
    test: (f) => P.stackedAfterSeparator.test(f.sql) || P.stackedAtStart.test(f.sql) || P.stackedSelect.test(f.sql),
  },
  {
    id: "sqli-time-delay",
    family: "sqli",
    reason:
      "Time-based blind probes: SLEEP(5), pg_sleep(5), BENCHMARK(n,…), WAITFOR DELAY '0:0:5', dbms_lock.sleep, randomblob(1e8). 'sleep (apnea)' has no number in the brackets.",
    test: (f) => P.timeDelay.test(f.sql),
  },
  {
    id: "sqli-catalog-and-functions",
    family: "sqli",
    reason:
      "Names only an injected query uses: @@version, information_schema, sysobjects, sqlite_master, xp_cmdshell, LOAD_FILE(, INTO OUTFILE, CHAR(83,81,76), CONCAT(0x…, EXTRACTVALUE(, CONVERT(int,, ASCII(SUBSTRING(, ORDER BY 9--, ' AND (SELECT, SELECT * FROM.",
    test: (f) =>
      P.catalog.test(f.sql) ||
      P.dangerousFunction.test(f.sql) ||
      P.encodedLiteral.test(f.sql) ||
      P.blindProbe.test(f.sql) ||
      P.subSelect.test(f.sql),
  },

  // ------------------------------------------------------------ script injection (XSS)
  {
    id: "xss-script-tag",
    family: "xss",
    reason: "A <script> or </script> tag, however spaced, cased or encoded.",
    test: (f) => P.scriptTag.test(f.text),
  },
  {
    id: "xss-dangerous-tag",
    family: "xss",
    reason:
      "Tags that load or run active content (iframe, frame, object, embed, applet, svg, math, portal), and meta refresh, style blocks, link rel=, base href=, form action=, formaction=/srcdoc=. '<b>bold</b>' and 'I <3 this' pass.",
    test: (f) => P.activeTag.test(f.text) || P.urlTag.test(f.url),
  },
  {
    id: "xss-event-handler",
    family: "xss",
    reason:
      "An HTML event-handler attribute (onerror=, onload=, onmouseover=, …, from the list of real handler names) after a tag, quote, slash or space: <img src=x onerror=…>, <svg/onload=…>, \" autofocus onfocus=\". 'onboarding=1' is not a handler.",
    test: (f) => P.eventHandler.test(f.text),
  },
  {
    id: "xss-script-url",
    family: "xss",
    reason:
      "A javascript:/vbscript: URL with code after it (javascript:alert(1), java&#x09;script:…, javascript://%0a…), or an HTML, SVG or script data: URL. 'Skills: JavaScript: advanced' has no code after the colon.",
    test: (f) => P.scriptUrl.test(f.url) || P.htmlDataUrl.test(f.url),
  },
  {
    id: "xss-dom-sink",
    family: "xss",
    reason:
      "Script that steals or runs strings: document.cookie, document.write(, location=, eval(atob(, String.fromCharCode(, constructor.constructor(, a quote breaking out of a JS string into alert(/eval(, a value that is just alert(1), CSS expression(.",
    test: (f) =>
      P.domSecret.test(f.text) || P.stringEval.test(f.text) || P.jsBreakout.test(f.text) || P.cssScript.test(f.text),
  },

  // ------------------------------------------------------------ command injection
  {
    id: "cmdi-separator-command",
    family: "cmdi",
    reason:
      "A shell separator (; | || & && ` $( or a line break) then a command with a shell-shaped argument (an option, a path, a variable, a host): ; cat /etc/passwd, | nc 10.0.0.1 4444, && wget http://…, ; ls -la; or a bare recon command ending the value: | id, ;whoami. 'Tylenol; type 2 diabetes' or '; sleep apnea' has no such argument.",
    test: (f) =>
      P.bareRecon.test(f.shell) ||
      P.reconWithOption.test(f.shell) ||
      P.network.test(f.shell) ||
      P.bareInterpreter.test(f.shell) ||
      P.interpreterWithArg.test(f.shell) ||
      P.fileTool.test(f.shell) ||
      P.fileToolSpecial.test(f.shell) ||
      P.windowsAdmin.test(f.shell),
  },
  {
    id: "cmdi-substitution",
    family: "cmdi",
    reason:
      "Substitution that runs a command: $(id), $(cat /etc/passwd), `whoami`, ${IFS}, and Log4Shell-style ${jndi:…} / ${${lower:j}ndi…} lookups.",
    test: (f) =>
      P.dollarParen.test(f.shell) || P.backtick.test(f.shell) || P.ifs.test(f.decoded) || P.lookup.test(f.decoded),
  },
  {
    id: "cmdi-shell-payload",
    family: "cmdi",
    reason:
      "Pieces only a shell payload has: /bin/sh, /dev/tcp/…, reverse-shell redirections (>& /dev/, 0>&1), nc -e, mkfifo /tmp/, Shellshock '() { :; };', a download piped into a shell (curl … | sh), powershell -enc, cmd /c.",
    test: (f) => P.shellPath.test(f.shell) || P.shellshock.test(f.decoded) || P.downloadAndRun.test(f.shell),
  },
  // ------------------------------------------------------------ path traversal
  {
    id: "traversal-dot-dot",
    family: "traversal",
    reason:
      "../ or ..\\ (also as %2e%2e%2f, ..%252f, overlong %c0%ae) walks out of a directory; so does /.. at the end of a path.",
    test: (f) => P.dotDot.test(f.decoded),
  },
  {
    id: "traversal-sensitive-file",
    family: "traversal",
    reason:
      "Paths only a file-disclosure probe names: /etc/passwd, /etc/shadow, /proc/self/…, /var/log/, c:\\windows\\, win.ini, boot.ini, /.env, /.git/, /.htaccess, WEB-INF/, wp-config.php.",
    test: (f) => P.unixFile.test(f.decoded) || P.windowsFile.test(f.decoded) || P.secretFile.test(f.decoded),
  },
  {
    id: "traversal-null-byte",
    family: "traversal",
    reason:
      "A NUL byte (%00, \\0, \\u0000) truncates a file name in C-backed code: file.pdf%00.php. Typed text never contains one.",
    test: (f) => f.hasNul,
  },
  {
    id: "traversal-file-wrapper",
    family: "traversal",
    reason:
      "Stream wrappers that read local files or pivot to internal services: file://, php://filter, phar://, expect://, gopher://, dict://, jar://, netdoc://.",
    test: (f) => P.wrapper.test(f.url),
  },
];

export interface Verdict {
  blocked: boolean;
  rule?: string;
  family?: RuleFamily;
}

// Verdicts for short values seen recently: the same User-Agent, cookies,
// ZIPs and plan ids arrive on request after request. Bounded; oldest out first.
const CACHE_MAX_ENTRIES = 2_000;
const CACHE_MAX_VALUE_LENGTH = 1_024;
const verdictCache = new Map<string, Verdict>();
const PASS: Verdict = Object.freeze({ blocked: false }) as Verdict;

/** Classify one value (a query parameter, a header, a body field, a key). */
export function classifyValue(value: string): Verdict {
  const cacheable = value.length <= CACHE_MAX_VALUE_LENGTH;
  if (cacheable) {
    const cached = verdictCache.get(value);
    if (cached) return { ...cached };
  }
  const verdict = judge(value);
  if (cacheable) {
    if (verdictCache.size >= CACHE_MAX_ENTRIES) verdictCache.delete(verdictCache.keys().next().value as string);
    verdictCache.set(value, verdict);
  }
  return { ...verdict };
}

function judge(value: string): Verdict {
  const forms = decodeForms(value);
  for (const rule of RULES) {
    if (rule.test(forms)) return { blocked: true, rule: rule.id, family: rule.family };
  }
  return PASS;
}

// ---------------------------------------------------------------- request parts

/**
 * Headers the firewall reads: the ones an application, a log viewer or an
 * analytics pipeline treats as free text. Structured headers (Accept*,
 * Content-Type, Content-Length, Host, Connection, Sec-*, If-*, Range,
 * Authorization) are left to their own parsers.
 */
export function isInspectedHeader(name: string): boolean {
  const n = name.toLowerCase();
  return n === "user-agent" || n === "referer" || n === "cookie" || n.startsWith("x-");
}

export interface RequestParts {
  /** Path as on the wire, still percent-encoded, without the query. */
  path?: string;
  /** Raw query string without the leading "?". */
  query?: string;
  headers?: Record<string, string | string[] | undefined>;
  /** A parsed JSON body. */
  json?: unknown;
  /** A raw application/x-www-form-urlencoded body. */
  form?: string;
  /** A text/plain body, or a JSON body that did not parse. */
  text?: string;
}

export interface Classification {
  blocked: boolean;
  rule?: string;
  family?: RuleFamily;
  /** Where the match was: "path", "query:<name>", "header:<name>", "body:<field.path>", "body". */
  where?: string;
}

const SAFE_NAME = /^[\w.[\]-]{1,64}$/;

/** A location for the log: parameter names only when they are plain names (never an email or a payload). */
function location(prefix: string, name: string): string {
  return SAFE_NAME.test(name) ? `${prefix}:${name}` : prefix;
}

function splitPairs(raw: string, separator: RegExp): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const piece of raw.split(separator)) {
    if (!piece) continue;
    const eq = piece.indexOf("=");
    const key = eq === -1 ? piece : piece.slice(0, eq);
    const value = eq === -1 ? "" : piece.slice(eq + 1);
    pairs.push([key, value]);
  }
  return pairs;
}

/** `+` means space in a query or form; percent escapes are left to decodeForms. */
const plusAsSpace = (s: string) => s.replace(/\+/g, " ");

function checkPairs(raw: string, prefix: string): Classification | undefined {
  for (const [rawKey, rawValue] of splitPairs(raw, /&/)) {
    const key = plusAsSpace(rawKey);
    const value = plusAsSpace(rawValue);
    const name = safeDecode(key);
    for (const candidate of [key, value]) {
      const verdict = classifyValue(candidate);
      if (verdict.blocked) return { ...verdict, where: location(prefix, name) };
    }
  }
  return undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function checkJson(value: unknown): Classification | undefined {
  // Iterative walk: a 100 KB body can nest thousands deep.
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: "" }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === "string") {
      const verdict = classifyValue(v);
      if (verdict.blocked) return { ...verdict, where: path ? location("body", path) : "body" };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: path ? `${path}.${i}` : String(i) });
    } else if (v && typeof v === "object") {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
        const childPath = path ? `${path}.${k}` : k;
        const keyVerdict = classifyValue(k);
        if (keyVerdict.blocked) return { ...keyVerdict, where: path ? location("body", path) : "body" };
        stack.push({ value: child, path: childPath });
      }
    }
  }
  return undefined;
}

/**
 * Classify the parts of a request. Pure: the middleware gathers the parts,
 * this decides. Order: path, query, headers, body; the first match wins.
 */
export function classifyRequestParts(parts: RequestParts): Classification {
  if (parts.path !== undefined) {
    const verdict = classifyValue(parts.path);
    if (verdict.blocked) return { ...verdict, where: "path" };
  }
  if (parts.query) {
    const hit = checkPairs(parts.query, "query");
    if (hit) return hit;
  }
  for (const [name, raw] of Object.entries(parts.headers ?? {})) {
    if (raw === undefined || !isInspectedHeader(name)) continue;
    const where = `header:${name.toLowerCase()}`;
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      // A Cookie header is a list: judge each cookie alone so the "; " between
      // them is not read as a shell separator.
      const pieces = name.toLowerCase() === "cookie" ? splitPairs(value, /;\s*/).flat() : [value];
      for (const piece of pieces) {
        const verdict = classifyValue(piece);
        if (verdict.blocked) return { ...verdict, where };
      }
    }
  }
  if (parts.json !== undefined) {
    const hit = checkJson(parts.json);
    if (hit) return hit;
  }
  if (parts.form) {
    const hit = checkPairs(parts.form, "body");
    if (hit) return hit;
  }
  if (parts.text) {
    const verdict = classifyValue(parts.text);
    if (verdict.blocked) return { ...verdict, where: "body" };
  }
  return { blocked: false };
}
