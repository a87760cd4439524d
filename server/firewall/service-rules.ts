import type { WafRule } from "./ruleset";
import { SSRF_INPUTS } from "./rule-inputs";
import { round2Rules } from "./service-rules-round2";
import { round3Rules } from "./service-rules-round3";
import { round4Rules } from "./service-rules-round4";
import { round5ShellRules } from "./service-rules-round5-shell";
import { round5SqliRules } from "./service-rules-round5-sqli";
import { round6SqliRules } from "./service-rules-round6-sqli";
import { round7Rules } from "./service-rules-round7";
import { round11Rules } from "./service-rules-round11";
import { round13SqliRules } from "./service-rules-round13-sqli";
import { round15XssRules } from "./service-rules-round15-xss";
import { round16Rules } from "./service-rules-round16";

/**
 * Service rules: what this service needs blocked that the published rule
 * set does not catch (measured on tests/fixtures/firewall; docs/firewall.md).
 * They run inside the engine like the published rules: RE2 regular
 * expressions (linear time, no backtracking) under the same time budget.
 * Each needs the *structure* of an attack, never a lone word, and command
 * rules are case-sensitive because shell commands are (`| ID` is a list,
 * `| id` is a command). Rules tagged `confidence: "1"` also read free-text
 * fields; the others read only structured values, paths and headers.
 * Decision record: docs/decisions/184-service-rules.md.
 */

const VALUES = [
  "server.request.query",
  "server.request.body",
  "server.request.path_params",
  "server.request.cookies",
  "marketplace.request.headers.text",
];

// Commands a shell injection runs. Everyday words that are also commands need an argument shaped like a shell's.
const COMMANDS =
  "cat|tac|head|tail|more|less|ls|dir|rm|cp|mv|chmod|chown|touch|echo|printf|find|grep|awk|sed|xxd|base64|kill|" +
  "crontab|useradd|passwd|mkfifo|tar|unzip|ps|xargs|nohup|env|printenv|id|whoami|uname|ifconfig|ipconfig|hostname|" +
  "netstat|wget|curl|nc|ncat|netcat|telnet|tftp|ftp|nslookup|ping|dig|socat|ssh|scp|bash|sh|zsh|ksh|dash|python[23]?|" +
  "perl|ruby|php|node|lua|powershell|pwsh|cmd|busybox|certutil|net|sleep|timeout|nmap|systeminfo|set|tee|dd|od|" +
  "strings|chgrp|ln|mkdir|sudo|su|systemctl|gawk|nawk|base32|gzip|bzip2|xz|zcat|openssl|lsof|traceroute|tcpdump|" +
  "iptables|usermod|getent|lsb_release|uptime|pkill|killall|pgrep|tasklist|wmic|reg|bitsadmin|cscript|wscript|mshta|" +
  "rundll32|regsvr32|whoami|cd|source|docker|kubectl|mysql|psql|sqlite3|redis-cli|mongo|mongosh|git|npm|npx|pip3?|" +
  "apt-get|yum|dnf|apk|gcc|cc|javac?|jrunscript|setcap|getcap|screen|tmux|rsync|sftp|smbclient|gdb|strace|ltrace|" +
  "nsenter|unshare|chroot|pkexec|chattr|journalctl|service|masscan|sqlmap|hydra|msfvenom|msfconsole|nikto|whois|ip|ss";
// A file a command line names: one with a program's, a page's or a configuration file's extension.
const FILE_ARG = String.raw`[\w.-]*\.(?:php\d?|phtml|aspx?|jsp|html?|js|py|pl|rb|sh|bat|ps1|exe|dll|so|txt|log|conf|cfg|ini|ya?ml|json|xml|env|sql|db|sqlite3?|bak|key|pem|crt|csv|zip|tar|gz)\b`;
// Commands that reach a host: a host name of any top-level domain after them is an argument.
const NET_COMMANDS =
  "nc|ncat|netcat|telnet|ssh|scp|sftp|ping|nslookup|dig|host|curl|wget|ftp|tftp|whois|traceroute|socat";
// Programs no visitor types as a word (never a search, a name or a drug): after a separator or at
// the start of a value, whatever follows them. Not "id", "ls", "env" (searches, decision 391).
const PROGRAMS =
  "whoami|ifconfig|ipconfig|netstat|uname|printenv|systeminfo|dmesg|lscpu|lsblk|lspci|lsusb|lsmod|umask|kubectl|" +
  "systemctl|journalctl|iptables|nslookup|traceroute|tcpdump|tshark|nmap|masscan|sqlmap|msfvenom|msfconsole|netcat|" +
  "ncat|socat|chmod|chown|chgrp|chattr|setcap|getcap|getent|useradd|usermod|userdel|visudo|crontab|mkfifo|busybox|" +
  "base64|xxd|hexdump|strace|ltrace|nsenter|unshare|pkexec|sudo|smbclient|rpcclient|ldapsearch|hashcat|mimikatz|" +
  "psexec|nohup|xargs|gawk|nawk|psql|mysql|sqlite3|redis-cli|mongosh|apt-get|jrunscript|whois|lsof|pgrep|pkill|killall";
// Windows programs and commands that are not English words (cmd.exe is case-insensitive).
const WINDOWS_TOOLS =
  String.raw`(?:wmic|netsh|fsutil|schtasks|tasklist|taskkill|vssadmin|bcdedit|wevtutil|nltest|klist|qwinsta|quser|` +
  String.raw`driverquery|systeminfo|whoami|ipconfig|certutil|bitsadmin|cscript|wscript|mshta|rundll32|regsvr32|msiexec|` +
  String.raw`powershell|pwsh|attrib|icacls|cacls|takeown|xcopy|robocopy|findstr|forfiles|nbtstat|tracert)`;
// Windows commands that are also words or abbreviations people type at the start of a search ("CMD
// coverage", "vol 2", "net start date", "query user guide"): after a typed separator they are
// commands; at the start of a value only with `.exe` or a /switch.
const WINDOWS_WORDS =
  String.raw`(?:cmd|cls|vol|reg[ \t]+(?:add|query|delete|save|export|import|load|unload|copy|compare)|sc[ \t]+(?:query|stop|start|config|create|delete|qc)|` +
  String.raw`route[ \t]+(?:print|add|delete)|query[ \t]+(?:user|session|process)|` +
  String.raw`net[ \t]+(?:user|localgroup|group|share|view|use|stop|start|session|accounts|config|statistics|time|file))`;
const WINDOWS_PROGRAMS = String.raw`(?:${WINDOWS_TOOLS}|${WINDOWS_WORDS})(?:\.exe)?`;
// An argument only a command line has: an option, a path, a dot file, a variable, a drive, a host or an address.
const SHELL_ARG =
  String.raw`(?:-{1,2}[a-zA-Z0-9]|/[\w.~*?-]*|~(?:/|$)|\.\.?/|\.[a-z]\w*|\$[a-zA-Z_{(]|[a-zA-Z]:[\\/]|%[a-zA-Z_]+%|https?://|` +
  String.raw`\d{1,3}(?:\.\d{1,3}){3}|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|me|sh|xyz|example|ru|cn|site|online)\b|'[^']*'|"[^"]*")`;
// The same at the start of a value, where a path of one name followed by a word is a visitor's
// "head /neck cancer" or "cat / dog allergy": such a path must go on ("/etc/", "/[e]tc"), end the
// value, or be followed by an option, a path, a number, a quote or a shell character (decision 489).
const SHELL_ARG_AT_START = SHELL_ARG.replace(
  String.raw`/[\w.~*?-]*|`,
  () => String.raw`/[\w.~*?-]*(?:$|[/[\]{}()=\\'"$;|&<>\x60]|[ \t]+(?:$|[-/\d'"$;|&<>\x60~.[{(]))|`,
);
// The start of the value (after a quote, cmd.exe's caret or an input redirection) or a separator.
const SEP = String.raw`(?:^[ \t]*[\^<'"]?|[\r\n;|&\x60]|[$<>]\()`;
// A separator actually typed: a value that is only "id", "ls" or "env" is a search, not a command;
// "^id" and "<id" are not.
const SEP_NOT_START = String.raw`(?:[\r\n;|&\x60]|[$<>]\(|^[ \t]*[\^<])`;
const SPACE = String.raw`(?:[ \t]+|\$\{IFS\}|\$IFS\b(?:\$\d)?|<)`;
// A subshell or group opened after the separator: `;(id)`, `|{ id; }`.
const OPEN = String.raw`(?:[({][ \t]*)?`;
// A command (after an optional path) and up to three numbers, options or modes before its argument.
const COMMAND_THEN_OPTIONS = String.raw`(?:[\w/]{0,30}/)?(?:${COMMANDS})${SPACE}(?:(?:\d+|-{1,2}[\w-]+|\+[rwxXst]{1,4})${SPACE}){0,3}`;
// Words that run the command after them: `;exec id`, `;timeout 5 id`, `;nohup sh -c id`; a pipeline
// negated with "!" and `coproc` (bash(1), Pipelines and Coprocesses); eval and exec may be given the
// command quoted (`;eval 'id'`: the quote then ends it).
const PREFIX = String.raw`(?:(?:exec|eval)[ \t]+['"]?|(?:!|coproc|nohup|sudo|doas|command(?:[ \t]+-p)?|builtin|env|xargs|busybox|setsid|time(?:[ \t]+-p)?|nice(?:[ \t]+-n?[ \t]*-?\d+)?|timeout[ \t]+-?\d+[smhd]?)[ \t]+)*`;
// Commands that need no argument to do harm, after a separator actually typed.
const BARE =
  String.raw`(?:id|whoami|uname|ifconfig|ipconfig|printenv|env|hostname|netstat|ls|pwd|set|dir|systeminfo|ver|uptime|reboot|halt|poweroff|` +
  String.raw`shutdown(?:[ \t]+-[a-zA-Z]+)*(?:[ \t]+now)?|init[ \t]+[06]|su(?:[ \t]+-)?(?:[ \t]+root)?|(?:killall|pkill)(?:[ \t]+-\w+)*[ \t]+[\w.-]+)`;

function rule(
  id: string,
  type: string,
  name: string,
  regex: string,
  options: {
    caseSensitive?: boolean;
    freeText?: boolean;
    /** Never free text, whatever the type (SQL injection rules otherwise read it, ruleset.ts). */
    structuredOnly?: boolean;
    inputs?: Array<string | { address: string; key_path: string[] }>;
    transformers?: string[];
  } = {},
): WafRule {
  return {
    id,
    name,
    tags: {
      type,
      category: "attack_attempt",
      module: "waf",
      ...(options.freeText ? { confidence: "1" } : {}),
      ...(options.structuredOnly ? { scope: "structured" } : {}),
    },
    conditions: [
      {
        operator: "match_regex",
        parameters: {
          inputs: (options.inputs ?? VALUES).map((input) => (typeof input === "string" ? { address: input } : input)),
          regex,
          options: { case_sensitive: options.caseSensitive ?? false, min_length: 2 },
        },
      },
    ],
    transformers: options.transformers ?? [],
  };
}

const RULES: WafRule[] = [
  // ---- command injection
  rule(
    "svc-cmdi-001",
    "command_injection",
    "Shell separator, then a command with a shell-shaped argument",
    String.raw`^[ \t]*['"]?\s*${OPEN}${COMMAND_THEN_OPTIONS}${SHELL_ARG_AT_START}|${SEP_NOT_START}\s*${OPEN}${COMMAND_THEN_OPTIONS}${SHELL_ARG}|` +
      String.raw`${SEP_NOT_START}\s*${OPEN}${PREFIX}(?:[\w/]{0,30}/)?(?:${COMMANDS})(?:${SPACE}[\w.:@=+-]+){0,3}${SPACE}(?:${SHELL_ARG}|${FILE_ARG})|` +
      String.raw`${SEP_NOT_START}\s*${OPEN}${PREFIX}(?:${NET_COMMANDS})(?:${SPACE}-{1,2}\w+(?:${SPACE}\d+)?)*${SPACE}(?:[\w.-]+@)?[a-z0-9-]+(?:\.[a-z0-9-]+)+\b|` +
      String.raw`${SEP_NOT_START}\s*kill(?:${SPACE}-\w+)?${SPACE}-?\d+\b|${SEP_NOT_START}\s*net${SPACE}(?:user|localgroup|group|share|view|use|stop|start)\b`,
    { caseSensitive: true },
  ),
  rule(
    "svc-cmdi-002",
    "command_injection",
    "Shell separator, then a bare command ending the value or the statement",
    String.raw`${SEP_NOT_START}\s*${OPEN}${PREFIX}(?:[\w/]{0,30}/)?${BARE}\s*(?:$|[;|&\x60)}#'"]|--[ \t]*$)|${SEP_NOT_START}\s*(?:ps|w|who|last|df|free|mount|history|alias|crontab|tasklist|ipconfig)(?:\s+-{1,2}[a-zA-Z]{1,4}|\s+(?:aux|axu|ef|eaf))?\s*(?:$|[;|&\x60)#'"])|${SEP}\s*(?:export|alias|unset|declare)\s+[A-Za-z_]\w*=|` +
      String.raw`${SEP}[ \t]*${OPEN}${PREFIX}(?:[\w/]{0,30}/)?(?:${PROGRAMS})[ \t]+\S|${SEP_NOT_START}[ \t]*${OPEN}${PREFIX}(?:[\w/]{0,30}/)?(?:${PROGRAMS})[ \t]*(?:$|[;|&\x60)}#>])|` +
      String.raw`${SEP_NOT_START}[ \t]*${OPEN}(?:groups|dmesg|umask|cd|cls|vol|klist|hash[ \t]+-r|history[ \t]+-c|ip[ \t]+(?:a|addr|address|r|route|link|neigh)|` +
      String.raw`(?:which|whereis|whois|nslookup|unset|locate|getent)[ \t]+[\w.-]+)[ \t]*(?:$|[;|&\x60)}#])|` +
      // A program run by its path from here, above, or a home directory ("./x.sh", "~/x.sh", "~root/x"; decision 501).
      String.raw`${SEP_NOT_START}[ \t]*(?:(?:\.{1,2}|~(?:[a-z_][\w-]*)?)/[\w.-]|\.[ \t]+[/~])`,
    { caseSensitive: true },
  ),
  rule(
    "svc-cmdi-003",
    "command_injection",
    "Command substitution, brace expansion, variable concatenation or globbed paths",
    String.raw`\$\((?:${COMMANDS})\b|\x60\s*(?:[\w/]{0,30}/)?(?:${COMMANDS})(?:${SPACE}(?:${SHELL_ARG}|\d+)[^\x60]*)?\s*\x60|${SEP_NOT_START}\s*\x60\s*(?:[\w/]{0,30}/)?(?:${COMMANDS})(?:[ \t][^\x60]*)?\x60|\{(?:${COMMANDS}),[^}]*\}|\$\{?[a-zA-Z_]\w*\}?\$\{?[a-zA-Z_]|/\?{2,}/|(?:^[ \t]*[\^<'"]?|[;|&])\s*${PREFIX}(?:sleep|timeout|ping\s+-[cn])\s+\d+\s*(?:$|[;|&#)'"])`,
    { caseSensitive: true },
  ),
  rule(
    "svc-cmdi-004",
    "command_injection",
    "Shell payloads: reverse shells, download-and-run, encoded PowerShell, cmd /c",
    String.raw`/bin/(?:ba|z|da|k)?sh\b|/dev/(?:tcp|udp)/|>&\s*/dev/|\bnc(?:at)?\s+(?:-\w+\s+)*-[a-z]*e\b|\bmkfifo\s|\(\)\s*\{\s*:;\s*\};|\b(?:curl|wget)\b[^|\n]{0,200}\|\s*(?:ba|z|da)?sh\b|\b(?:powershell|pwsh)(?:\.exe)?\s+-[a-z]\w*|\bcmd(?:\.exe)?\s+/c\b|\bpython[23]?\s+-c\s|\bperl\s+-e\s`,
    { freeText: true },
  ),
  // ---- path traversal and file access
  rule(
    "svc-lfi-001",
    "lfi",
    "A dot-dot path segment",
    String.raw`(?:^|[/\\])\.\.(?:[/\\;]|$)|\.{3,4}[/\\]{1,2}\.{0,4}[/\\]`,
  ),
  rule(
    "svc-lfi-002",
    "lfi",
    "System and secret files",
    String.raw`/(?:etc/(?:passwd|shadow|hosts|group|issue|hostname|crontab)|proc/(?:self|version|cpuinfo|meminfo|environ|\d+/)|var/run/secrets|root/|home/\w+/\.)|(?:^|[/\\])\.(?:env|git|htaccess|htpasswd|aws|ssh|bash_history|npmrc|docker)\b|[a-z]:[\\/](?:(?:windows|winnt|inetpub)[\\/]|boot\.ini)|\b(?:win|boot|system)\.ini\b|web-inf[/\\]|wp-config\.php|id_rsa\b`,
    { freeText: true },
  ),
  rule("svc-lfi-003", "lfi", "A NUL byte (typed text never has one)", String.raw`\x00`, { freeText: true }),
  // crs-930-110 less its `/...` at the end of the URL: three dots are an ordinary segment on
  // POSIX and in a URL ("..." typed into a plan search that lands in a path); `/.../` and `/..`
  // still match, and so does every dot-dot segment through svc-lfi-001 (docs/decisions/280).
  rule(
    "svc-lfi-004",
    "lfi",
    "A dot-dot segment in the raw URL or a header (crs-930-110 without a trailing /...)",
    String.raw`(?:^|[\x5c/])\.{2,3}[\x5c/]|[\x5c/]\.{2}(?:[\x5c/]|$)`,
    {
      caseSensitive: true,
      freeText: false,
      inputs: ["server.request.uri.raw", "server.request.headers.no_cookies"],
      transformers: ["removeNulls"],
    },
  ),
  rule(
    "svc-rfi-001",
    "rfi",
    "File and protocol wrappers",
    String.raw`\b(?:file|phar|gopher|dict|netdoc|expect|php|zip|ldap|tftp)://|\bjar:(?:file|https?):`,
    { freeText: true },
  ),
  // ---- SQL injection the libinjection and CRS rules let through (SQLite's dialect among them)
  rule(
    "svc-sqli-001",
    "sql_injection",
    "SQLite and MSSQL statements and functions after a quote or separator; catalog tables",
    String.raw`['";)]\s*;?\s*(?:attach|detach)\s+database\b|['";)]\s*;\s*pragma\s+\w|\bsqlite_(?:master|schema|version|temp_master)\b|\bglob\s*\(\s*'|\brandomblob\s*\(\s*\d|\bwaitfor\s+delay\s*'|\bbenchmark\s*\(\s*\d+\s*,|\bchar\s*\(\s*\d+\s*(?:,\s*\d+\s*){2,}\)|\bselect\s+\*\s+from\s+\w|\bselect\s[^;]{1,80}\sfrom\s+[\w.]+\s+where\s+[\w.]+\s*(?:=|<|>|\blike\b|\bin\b)`,
  ),
  rule(
    "svc-sqli-002",
    "sql_injection",
    "Quote tautologies and comments libinjection misses",
    String.raw`"\s*or\s*"[^"]*"\s*=\s*"|'\s*(?:or|and)\s+[\w.]+\s+(?:like|glob|regexp|between|in)\s|^\s*\d+\s+or\s+true\b|[\w)]'\s*(?:#|--|/\*)\s*$|^\s*\d+\s*\|\|\s*\d+\s*=\s*\d+|\w'\s+(?:or|and)\s+'\w*$`,
  ),
  // ---- script injection
  rule(
    "svc-xss-001",
    "xss",
    "A script URL with code after it",
    String.raw`(?:java|vb)script\s*:\s*(?:[\w$.]+[(\x60=]|//|/\*|\\n|\[|name\s*(?:$|["'>;)]))`,
    { freeText: true },
  ),
  rule(
    "svc-xss-002",
    "xss",
    "Dialog and eval calls with code-shaped arguments; a quote breaking out into script",
    String.raw`\b(?:alert|prompt|confirm|eval|setTimeout|Function)(?:\(\s*(?:\d|['"\x60]|document|window|this|top|self|/|atob|String)|\s*\x60)|\b(?:alert|prompt|confirm|eval|setTimeout|Function)\s+\(\s*(?:['"\x60]|document|window|this|top|self|/|atob|String)|['"]\s*[;,+\-*/|&]+\s*(?:top|self|window|parent|frames|globalThis|document|this)\s*[\[.]|-moz-binding\s*:|<\s*portal\b|data:\s*(?:text/html|image/svg\+xml|application/(?:x-)?javascript)\s*[;,]`,
    { freeText: true },
  ),
  // From crs-941-170 (replaced: its `javascript:` branch matches prose): a CSS @import of a
  // string or url(), spaced or commented out as the published rule allows.
  rule(
    "svc-xss-003",
    "xss",
    "A CSS @import of a URL or a string",
    String.raw`@\W*?i\W*?m\W*?p\W*?o\W*?r\W*?t\W*?(?:/\*[^*]*\*/\W*?)?(?:["']|u\W*?r\W*?l\W*?\()`,
    { freeText: true, transformers: ["removeNulls", "urlDecodeUni"] },
  ),
  // ---- issue 30: SSRF to internal addresses, NoSQL operators, CRLF (header) injection
  // decode.ts appends every URL's internal host in canonical form (ssrf.ts: decimal, octal, hex,
  // IPv6-mapped, user@host), so this one pattern reads every spelling. Not free text: a note may
  // mention a router's address, and nothing fetches it.
  rule(
    "svc-ssrf-001",
    "ssrf",
    "A URL whose host is a loopback, private, link-local, metadata or internal address",
    String.raw`//(?:(?:127|10|0)(?:\.\d{1,3}){3}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|192\.168(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])(?:\.\d{1,3}){2}|192\.0\.0\.\d{1,3}|\[(?:0:){7}[01]\]|\[f[cd][0-9a-f]{0,2}:[0-9a-f:]*\]|\[fe[89ab][0-9a-f]:[0-9a-f:]*\]|(?:[a-z0-9-]+\.)*(?:localhost|internal|svc|cluster\.local|localdomain|home\.arpa)|ip6-(?:localhost|loopback)|168\.63\.129\.16|(?:rancher-)?metadata(?:\.goog|\.azure\.com|\.tencentyun\.com|\.packet\.net|\.platformequinix\.com)?|instance-data|kubernetes|\[::ffff:[\d.]+\])(?:[/:?#\\]|$)`,
    // Not Referer or Origin: a browser sends the site's own address there, which is a loopback
    // one when the service runs on loopback (tests, a copy on a laptop).
    { inputs: SSRF_INPUTS },
  ),
  // MongoDB query and update operators as a key (`{"$ne": …}`, `search[$ne]=`), never a word:
  // "$where to apply?" and "Budget: $ne 300" pass.
  rule(
    "svc-nosql-001",
    "nosql_injection",
    "A MongoDB operator used as a key",
    String.raw`(?:^|[{,\[]|\[\s*)\s*["']?\$(?:ne|eq|gt|gte|lt|lte|in|nin|regex|options|where|exists|expr|or|and|not|nor|type|elemMatch|all|size|mod|text|jsonSchema|function|accumulator|lookup|comment|slice|natural|set|unset|inc|push|rename|merge|out|graphLookup|unionWith)(?:["']?\s*[:\]]|$)`,
    { caseSensitive: true },
  ),
  rule(
    "svc-nosql-002",
    "nosql_injection",
    "A quote breaking out into server-side JavaScript ($where, mapReduce) or a shell call on db",
    String.raw`['"]\s*(?:;|\|\||&&)\s*(?:return\b|this\.|sleep\s*\(|while\s*\(|for\s*\(|db\.|['"][^'"]{0,20}['"]\s*[=!]==?|\d+\s*[=!]==?\s*\d)|\bdb\.(?:[a-zA-Z_]\w*\.)?(?:find|findOne|insert|insertOne|update|remove|drop|dropDatabase|aggregate|mapReduce|getCollectionNames|getCollection|getSiblingDB|eval|runCommand|adminCommand)\s*\(|\bthis\.[a-zA-Z_]\w*\.(?:match|length|charAt|startsWith)\b`,
    { freeText: false },
  ),
  // A line break followed by a header or a request or status line: response splitting, header
  // injection, request smuggling. After decoding (percent, entities, \r\n escapes, the low-byte
  // characters); not free text, where a note has lines like "Location: Brooklyn".
  rule(
    "svc-crlf-001",
    "http_protocol_violation",
    "A line break, then an HTTP header, request line or status line",
    String.raw`[\r\n][\t ]*[\r\n]+[\t ]*(?:<|http/)|[\r\n][\t ]*(?:[a-z][a-z0-9-]{1,40}[\t ]*:|(?:get|post|put|head|delete|options|patch|connect|trace)[\t ]+\S+[\t ]+http/|http/\d(?:\.\d)?[\t ]+\d{3}\b|(?:rcpt[\t ]+to|mail[\t ]+from)[\t ]*:|(?:helo|ehlo|vrfy|expn|auth)[\t ]+\S|(?:data|quit|rset|stat|list|noop)[\t ]*(?:[\r\n]|$)|` +
      String.raw`(?:user|pass|retr|dele|uidl|top|apop)[\t ]+\S|` +
      String.raw`[a-z0-9]{1,10}[\t ]+(?:login|select|examine|fetch|store|copy|create|delete|rename|list|lsub|status|append|search|capability|logout|authenticate|starttls|uid|idle|noop|subscribe)\b)`,
  ),
  rule(
    "svc-cmdi-005",
    "command_injection",
    "Shell obfuscation inside a word, Windows variables, PowerShell download-and-run, SSI exec, PHP shell calls",
    String.raw`\b[a-z]{1,8}(?:''|""|\$\(\)|\$@|\$\{\})[a-z]{1,8}\b|%[A-Z_]{4,20}%[\\/ ]|\b(?:iex|invoke-expression|invoke-webrequest|invoke-restmethod|start-process|downloadstring|downloadfile|frombase64string)\b|\bnew-object\s+(?:system\.)?net\.webclient\b|<!--\s*#\s*(?:exec|include)\b|\b(?:system|passthru|shell_exec|exec|popen|proc_open|pcntl_exec)\s*\(\s*['"$]|(?:^|[^\w.-])/(?:usr/(?:local/)?)?s?bin/[a-z][\w.-]*|[<>]\(\s*(?:[\w/]{0,30}/)?(?:${COMMANDS})\b|[a-z](?:['"\\][a-z]){3,}|(?:^|[\r\n;])\s*\.(?:system|shell|import|output|once|load|read|open|save|backup|restore)\s+\S|(?:^|[\r\n;])\s*\.(?:dump|tables|schema|databases)\s*(?:$|[\r\n;])`,
  ),
  rule(
    "svc-sqli-003",
    "sql_injection",
    "Tautologies that start a value, ORDER BY probes, error-based functions, catalog and procedure names",
    String.raw`^\s*(?:and|or|xor|\|\||&&)\s+\(?\s*(?:\d+|'[^']{0,20}'|"[^"]{0,20}"|true|false|null)\s*(?:=|<>|!=|<=>|\blike\b|--|#)|\b(?:and|or|xor)\s+\(?\s*(?:\d+|'[^']{0,20}'|"[^"]{0,20}")\s*(?:=|<>|!=|<=>|\blike\b)\s*\(?\s*(?:\d+|'[^']{0,20}'?|"[^"]{0,20}"?)\s*\)?\s*(?:--|#|/\*|;|$|\b(?:and|or|limit|order|union|group|having)\b)|['")]\s*order\s+by\s+\d+|\border\s+by\s+\d+\s*(?:--|#|/\*|;|,\s*\d)|\b(?:extractvalue|updatexml|gtid_subset|gtid_subtract|json_keys|name_const|st_latfromgeohash|st_pointfromgeohash)\s*\(|\bprocedure\s+analyse\b|\b(?:information_schema|pg_catalog|pg_shadow|sysobjects|syscolumns|all_tables|user_tables|mysql\.user|sys\.databases|v\$version)\b|\bxp_cmdshell\b|\bexec(?:ute)?\s+master\.|\binto\s+(?:out|dump)file\b|\bload_file\s*\(|\b(?:dbms_pipe|dbms_lock|utl_inaddr|utl_http)\.|/\*!\d{0,5}`,
  ),
  rule(
    "svc-xss-004",
    "xss",
    "A meta element that refreshes, sets a cookie or links a resource",
    String.raw`<\s*meta\b[^>]{0,200}\bhttp-equiv\s*=\s*["']?\s*(?:refresh|set-cookie|link|content-security-policy)\b`,
    { freeText: true },
  ),
  // Any lower-case command word typed after a separator, when an option, an absolute path of
  // two segments or more, a variable, a drive or a URL follows: the shape of a command line
  // whatever the command (GTFOBins has hundreds). Case-sensitive; not free text.
  rule(
    "svc-cmdi-006",
    "command_injection",
    "Separator, any command word, then an option, a path, a variable or a URL",
    String.raw`${SEP_NOT_START}\s*[a-z][a-z0-9_.+-]{1,24}${SPACE}(?:(?:\d+|-{1,2}[\w-]+)${SPACE}){0,2}(?:-{1,2}[a-zA-Z]|/[\w.~*?-]+/[\w.~*?-]|\$[a-zA-Z_{(]|[a-zA-Z]:\\|https?://)`,
    { caseSensitive: true },
  ),
  // Shell grammar no prose has (issue 30, written from the attack classes): a here-string or
  // here-document, ANSI-C quoting, parameter expansion with an operator, a variable run as the
  // command, glob and bracket paths, a pipe into a shell, descriptor duplication, an output
  // redirection after a typed separator and a command word. Case-sensitive; not free text.
  rule(
    "svc-cmdi-007",
    "command_injection",
    "Here-strings, ANSI-C quoting, parameter expansion, globbed paths, pipes into a shell, redirection",
    String.raw`[\w)'"][ \t]*<<<[ \t]*\S|\$'\\(?:x[0-9a-fA-F]|[0-7]{3}|u[0-9a-fA-F]{4})|\$\{[A-Za-z_]\w*:-?\d+(?::-?\d+)?\}|\$\{![A-Za-z_]|\$\{[A-Za-z_]\w*(?:%%?|##?|/{1,2}|:[-=?+]|\^{1,2}|,{1,2})[^}\s]{0,20}\}|[A-Za-z_]\w*=\$['"\\]|` +
      String.raw`${SEP}[ \t]*["']?\$\{?[A-Za-z_]\w*\}?["']?[ \t]+-{1,2}[a-zA-Z]|(?:^|[\s;|&=(\x60])/[\w.]*[?*][\w.?*]*/[\w.?*]+|(?:^|[\s;|&=])/(?:[\w.?*]*/)*[\w.]*\[[!^]?[\w-]{1,10}\][\w.?*]*|` +
      String.raw`\|[ \t]*(?:/(?:usr/)?bin/)?(?:ba|z|da|k|c|tc)?sh(?:$|[^\w.-])|\b(?:ba|z|da|k)?sh[ \t]*<<-?[ \t]*['"]?[A-Za-z_]\w*|\bcat[ \t]*<<-?[ \t]*['"]?[A-Za-z_]\w*|[<>]&[ \t]*\d\b|[;|&\r\n\x60][ \t]*\$\{?[A-Za-z_]\w*\}?[ \t]*(?:$|[;|&)\x60#'"]|--[ \t]*$)|[;|&\x60\r\n][ \t]*\$[A-Za-z_]\w*['"][a-z]|` +
      String.raw`${SEP_NOT_START}[ \t]*${OPEN}[a-z][\w.-]*(?:[ \t]+[^\s;|&<>]+){0,3}[ \t]*\d?>{1,2}[ \t]*(?:/|~/|&\d\b)`,
    { caseSensitive: true },
  ),
  // A command line that is the whole value: a known command with a redirection, a recon command
  // with a short option, a file with a program's extension, a pipe into another command, a
  // program name quoted or in a subshell or followed by a separator or a comment, an option with
  // a path (argument injection). Each anchored at the start, so cheap on long lists of values.
  rule(
    "svc-cmdi-011",
    "command_injection",
    "A command line as the whole value",
    String.raw`^[ \t]*(?:${COMMANDS})(?:[ \t]+[^\s;|&<>]+){0,3}[ \t]*\d?>{1,2}[ \t]*(?:/|~/|&\d\b)|` +
      String.raw`^[ \t]*(?:${PROGRAMS}|${BARE})[ \t]*[;|\x60]|` +
      String.raw`^[ \t]*(?:'(?:${PROGRAMS}|id|ls|pwd)'|"(?:${PROGRAMS}|id|ls|pwd)")[ \t]*$|^[ \t]*(?:${PROGRAMS})[ \t]+#|` +
      String.raw`^[ \t]*\([ \t]*(?:(?:${PROGRAMS})(?:[ \t]+[^()]+)?|id|ls|pwd)[ \t]*\)|` +
      String.raw`^[ \t]*(?:ps|df|du|free|who|w|last|lastlog|top|htop|mount|uptime|lsblk|lspci|arp|route|ss|su|id|uname|hostname|netstat|history|env|set|dmesg|pstree|vmstat|iostat|tree)[ \t]+(?:-{1,2}[a-zA-Z]{1,4}(?:[ \t]|$)|-$|(?:aux|axu|-?ef)\b|/[a-z](?:[ \t]|$))|` +
      String.raw`^[ \t]*(?:ip[ \t]+(?:a|addr|address|r|route|link|neigh)|find[ \t]+[./~]\S*[ \t]+-[a-z]{2,})\b|` +
      String.raw`^[ \t]*(?:cat|tac|head|tail|less|more|nl|strings|xxd|base64|rm|touch|chmod|cp|mv)[ \t]+${FILE_ARG}|` +
      String.raw`^[ \t]*(?:${COMMANDS}|history|ps|df)\b[^|;&\r\n]*\|[ \t]*(?:${COMMANDS})\b|` +
      String.raw`^[ \t]*-{1,2}[a-zA-Z][\w-]*(?:=|[ \t]+)(?:/[\w.]|~/|\$\(|\x60)`,
    { caseSensitive: true },
  ),
  // PowerShell cmdlets given a parameter, a drive or a URL; a program started by its .exe name
  // with a switch; cmd.exe's start of a program.
  rule(
    "svc-cmdi-012",
    "command_injection",
    "PowerShell cmdlets with a parameter, .exe programs with a switch, start of a program",
    String.raw`(?:^|[ \t;|&])(?:Get|Set|New|Remove|Invoke|Start|Stop|Test|Write|Read|Import|Export|ConvertTo|ConvertFrom|Register|Copy|Move|Clear|Format|Out)-[A-Z][A-Za-z]{2,30}[ \t]+(?:-[A-Z][A-Za-z]+|[a-zA-Z]:\\|\$[A-Za-z]|['"]?https?://)|` +
      String.raw`(?:^|[\s;|&])[\w-]{1,30}\.exe[ \t]+[-/][a-zA-Z]|(?:^|[;|&\x60\r\n])[ \t]*start[ \t]+(?:/[a-z]+[ \t]+)*(?:calc|cmd|powershell|pwsh|notepad|mspaint|explorer|wscript|cscript|mshta)\b`,
    { caseSensitive: true },
  ),
  // Windows forms (cmd.exe is case-insensitive): variables and their substrings, PowerShell's
  // environment, .NET static calls, programs run by file name, and commands given a /switch, each
  // after a separator actually typed. Verb-Noun cmdlets after a separator are read by name from
  // PowerShell's own list (catalogue.ts, svc-cmdi-023) and by shape (svc-cmdi-029): any approved
  // verb with any word here refused "Kaiser; Stop-Loss" and "In-Patient; Out-Patient" (decision 496).
  rule(
    "svc-cmdi-008",
    "command_injection",
    "Windows variables, PowerShell's environment and .NET calls, programs and /switches after a separator",
    String.raw`%[a-z][\w]{2,20}(?::~-?\d+(?:,-?\d+)?)?%(?:[\\/\s&|;]|$)|%(?:cd|date|time|random|errorlevel|cmdcmdline)%|\$env:[a-z_]\w*|(?:^|[ \t])(?:env|hklm|hkcu|hkcr|cert|variable|function|wsman):(?:\\|$)|\[[a-z][\w.]{2,60}\]::[a-z]\w*|` +
      String.raw`${SEP_NOT_START}[ \t]*${OPEN}(?:[a-z]:)?(?:[\w.-]*[\\/])*[a-z][\w-]*\.(?:exe|bat|ps1|vbs|hta|sh)\b|${SEP_NOT_START}[^;|&\r\n]*\.(?:exe|bat|ps1|vbs|hta|msi|scr)\b|>[ \t]*[a-z]:\\|` +
      String.raw`${SEP_NOT_START}[ \t]*${OPEN}(?:dir|ver|hostname|cls|vol)(?:\.exe)?[ \t]*(?:$|[;|&)])|` +
      String.raw`${SEP_NOT_START}[ \t]*${OPEN}${WINDOWS_PROGRAMS}(?:[ \t]+\S|[ \t]*(?:$|[;|&)]))|` +
      String.raw`^[ \t]*['"]?${OPEN}(?:${WINDOWS_TOOLS}(?:\.exe)?(?:[ \t]+\S|[ \t]*(?:$|[;|&)]))|${WINDOWS_WORDS}(?:\.exe\b|(?:[ \t]+[^\s;|&/-][^\s;|&/]*){0,3}[ \t]+[-/][a-z?]))|` +
      String.raw`${SEP}[ \t]*${OPEN}(?:dir|type|del|erase|copy|xcopy|robocopy|move|cd|chdir|more|rd|rmdir|md|mkdir|tree|attrib|icacls|findstr)(?:\.exe)?(?:[ \t]+[^\s;|&]+){0,3}?[ \t]+[a-z]:(?:[\\/]|$)|` +
      String.raw`${SEP_NOT_START}[ \t]*${OPEN}(?:schtasks|tasklist|taskkill|del|erase|rd|rmdir|copy|xcopy|robocopy|move|ren|type|attrib|icacls|cacls|takeown|netsh|sc|reg|wmic|vssadmin|bcdedit|shutdown|format|findstr|where|whoami|systeminfo|ipconfig|tracert|arp|route|start|runas|at|certutil|bitsadmin|cmd|cscript|wscript|mshta|rundll32|regsvr32|msiexec|forfiles|expand|esentutl|diskpart|fsutil|qwinsta|quser|klist|nltest|dsquery|setx|timeout|ping|dir|net|find|sort|more|tree)(?:\.exe)?(?:[ \t]+[^\s;|&/]+){0,3}[ \t]+/[a-z?]{1,12}(?:[ \t:]|$)`,
  ),
  // Shell and batch control structures and function definitions, which no field's text has: loops
  // (`for … ; do`, `while …; do`, `for /f`), tests (`if [ -f …`, `[ -e … ]`, `if exist`),
  // function bodies (Shellshock's `() { …; };`, the fork bomb `:(){ :|:& };:`, `%0|%0`), and
  // package managers and containers given a subcommand (`docker run`, `git clone`).
  rule(
    "svc-cmdi-010",
    "command_injection",
    "Shell and batch control structures, function bodies, package managers with a subcommand",
    String.raw`\bfor[ \t]+[A-Za-z_]\w*[ \t]+in[ \t]+[^;\r\n]+;[ \t]*do\b|\b(?:while|until)[ \t]+(?::|true|false|\[|\(\(|read\b)[^;\r\n]*;[ \t]*do\b|\bdo\b[^;\r\n]+;[ \t]*done\b|\bif[ \t]+!?[ \t]*\[\[?[ \t]+(?:-[a-zA-Z][ \t]|\$)|\[\[?[ \t]+-[a-zA-Z][ \t]+\S+[ \t]+\]|\bthen[ \t]+[^;]+;[ \t]*fi\b|` +
      String.raw`\bfor[ \t]+/[fdrlFDRL]\b|\bfor[ \t]+%%?[a-zA-Z][ \t]+in[ \t]*\(|\bif[ \t]+(?:not[ \t]+)?(?:exist|defined|errorlevel)[ \t]|(?:^|[^\w.-])/?(?:usr/(?:local/)?)?s?bin/(?:ba|z|da|k|c|tc)?sh\b|[;|&]/?(?:usr/(?:local/)?)?s?bin/[a-z]|%0[ \t]*\|[ \t]*%0|` +
      String.raw`\(\)[ \t]*\{[^}]*\}[ \t]*;|\(\)[ \t]*\{[ \t]*[\w:.]+[ \t]*\|[ \t]*[\w:.]+[ \t]*&[ \t]*\}|\bfunction[ \t]+\w+[ \t]*(?:\(\))?[ \t]*\{[^}]*;[ \t]*\}|` +
      String.raw`${SEP}[ \t]*(?:docker|podman|kubectl|helm|git|npm|npx|yarn|pip3?|gem|cargo|yum|dnf|apk|apt|apt-get|brew|systemctl|service)[ \t]+(?:run|exec|clone|pull|push|install|add|get|apply|build|remote|fetch|init|config|start|stop|restart|enable|disable|cp|create|delete)[ \t]+\S`,
    { caseSensitive: true },
  ),
  // Process calls of script languages and runtimes: Python's os/subprocess, Node's child_process,
  // Java's Runtime and ProcessBuilder, Ruby's Kernel/IO/Open3 (a value evaluated as code).
  rule(
    "svc-cmdi-009",
    "command_injection",
    "A script language's process call",
    String.raw`\b(?:subprocess|os|child_process|Runtime|ProcessBuilder|Kernel|IO|Open3|pty|commands)\.(?:call|run|Popen|check_output|check_call|getoutput|getstatusoutput|system|popen[23]?|exec[lv]?p?e?|execSync|execFile(?:Sync)?|spawn(?:Sync)?|fork|getRuntime|capture[23]e?)\s*\(|\b__import__\s*\(\s*['"](?:os|subprocess|pty|commands)['"]|\brequire\s*\(\s*['"](?:child_process|node:child_process)['"]|\bnew\s+ProcessBuilder\s*\(`,
    { caseSensitive: true, freeText: true },
  ),
  // Response splitting with the line break spelled out: a percent-encoded (once or more), %u,
  // overlong, entity, hex or escaped CR or LF in a structured value. The URL's own escapes have
  // been decoded once already, so what is left was encoded on purpose; no search, id, email or
  // address typed by a visitor holds one (a note's line breaks are free text, not read here).
  rule(
    "svc-crlf-002",
    "http_protocol_violation",
    "An encoded line break",
    String.raw`%(?:25){0,3}(?:0[ad]|u000[ad]|c0%8[ad]|e5%98%8[ad]|c4%8[ad]|e2%80%a[89]|c2%85|5cr%5cn)|&#(?:x0{0,4}[ad]|0{0,4}1[03]);?|\\u000[ad]|\\x0[ad]|\\r\\n|0x0d0x0a`,
  ),
  ...round2Rules(rule),
  ...round3Rules(rule, { sep: SEP, sepNotStart: SEP_NOT_START }),
  ...round4Rules(rule, { sep: SEP, sepNotStart: SEP_NOT_START }),
  ...round5SqliRules(rule),
  ...round6SqliRules(rule),
  ...round13SqliRules(rule),
  ...round15XssRules(rule),
  ...round5ShellRules(rule, { sep: SEP, sepNotStart: SEP_NOT_START }),
  ...round7Rules(rule),
  ...round11Rules(rule, { sep: SEP, sepNotStart: SEP_NOT_START }),
  ...round16Rules(rule, { sep: SEP, sepNotStart: SEP_NOT_START }),
];

/**
 * The regular expression's top-level alternatives (`a|b|(c|d)` → `a`, `b`, `(c|d)`): brackets,
 * groups and escapes are followed, nothing else is parsed.
 */
export function topLevelAlternatives(regex: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let current = "";
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i]!;
    if (c === "\\") {
      current += c + (regex[i + 1] ?? "");
      i++;
      continue;
    }
    if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  out.push(current);
  return out;
}

/**
 * Rules whose pattern is long are run as several rules (`svc-cmdi-001`, `svc-cmdi-001-2`, …), their
 * top-level alternatives packed into groups of up to SPLIT_OVER_CHARS characters: RE2 builds one
 * automaton per expression within a memory bound, and the command rules' alternatives together
 * outgrew it (a body of 2,000 plan ids took 13 ms of engine time instead of 2.5 ms). Measured on
 * that body: 400 characters 3.7 ms (64 rules), 2,000 2.9 ms, 3,000 4.6 ms, unsplit 6.9 ms. Same
 * matches, same family, same places read.
 */
const SPLIT_OVER_CHARS = 2_000;

export const SERVICE_RULES: WafRule[] = RULES.flatMap((r) => {
  const regex = r.conditions[0]!.parameters.regex as string;
  if (regex.length <= SPLIT_OVER_CHARS) return [r];
  // Alternatives packed into groups of up to SPLIT_OVER_CHARS characters (a longer one alone).
  const groups: string[] = [];
  for (const alternative of topLevelAlternatives(regex)) {
    const last = groups.length - 1;
    if (last >= 0 && groups[last]!.length + alternative.length + 1 <= SPLIT_OVER_CHARS)
      groups[last] = `${groups[last]}|${alternative}`;
    else groups.push(alternative);
  }
  return groups.map((alternative, i) => {
    const copy = structuredClone(r);
    copy.id = i === 0 ? r.id : `${r.id}-${i + 1}`;
    copy.conditions[0]!.parameters.regex = alternative;
    return copy;
  });
});
