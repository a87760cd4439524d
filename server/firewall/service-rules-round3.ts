import type { WafRule } from "./ruleset";

/**
 * Issue 30 item 4, round 3 (docs/decisions/431-433): shapes written from the misses of the public
 * corpora's tuning part (docs/decisions/430), never from their held-out part, and never a public
 * string copied: Windows batch control flow, tools no visitor types, shell grammar (arithmetic
 * expansion, brace expansion in a word, terminal escape sequences, redirection into a system
 * folder), SQL functions and PostgreSQL casts and JSON operators, tags with any event attribute,
 * XML declarations and namespaces, element property access on `document`/`window`, percent
 * escapes no browser sends (a doubled percent, an invalid UTF-8 lead byte), a bare carriage return.
 * None reads free-text fields. service-rules.ts passes its `rule` helper and the separators in.
 */
export type RuleFn = (
  id: string,
  type: string,
  name: string,
  regex: string,
  options?: {
    caseSensitive?: boolean;
    freeText?: boolean;
    structuredOnly?: boolean;
    /** The places read (service-rules.ts `rule`; default the structured values). */
    inputs?: Array<string | { address: string; key_path: string[] }>;
  },
) => WafRule;

export interface ShellGrammar {
  /** The start of the value or a separator (service-rules.ts SEP). */
  sep: string;
  /** A separator actually typed (service-rules.ts SEP_NOT_START). */
  sepNotStart: string;
}

// Tools no visitor of a health-plan marketplace types as a word: configuration management,
// security and audit tools, boot and kernel tools, Windows boot editors.
const TOOLS =
  String.raw`ansible(?:-[a-z]+)?|chef-(?:client|run|shell|solo|apply)|cscli|lastlog|lastb|faillog|sysinfo|aptitude|htop|btop|` +
  String.raw`bcdboot|bcdedit|aa-(?:disable|enforce|complain|status|exec)|visudo|ausearch|auditctl|sestatus|getenforce|setenforce|` +
  String.raw`modprobe|insmod|rmmod|lsattr|ldd|objdump|readelf|gdbserver|nping|hping3|arping|fping|proxychains|torsocks|sshpass|` +
  String.raw`plink|pscp|tclsh|crackmapexec|secretsdump|evil-winrm|xfreerdp|rdesktop|salt-call|rmt|` +
  String.raw`pip3?|jq|vmstat|iostat|mpstat|getfacl|setfacl|7z|7za|dos2unix|nft|ufw|gobuster|ffuf|wfuzz|dirb|nuclei|nikto|hostnamectl|timedatectl|` +
  String.raw`loginctl|busctl|networkctl|resolvectl|localectl|nmcli|disown|dpkg|rpm|zypper|pacman|winget|choco|ssh-keygen|ssh-keyscan|ngrep|xmllint`;
// Windows programs no visitor types (cmd.exe is case-insensitive), after a separator or at the start.
const WINDOWS_TOOLS =
  String.raw`auditpol|diskpart|mountvol|wbadmin|dism|gpresult|gpupdate|secedit|setx|runas|mklink|cmdkey|logman|typeperf|pnputil|` +
  String.raw`extrac32|makecab|esentutl|msbuild|installutil|regasm|regsvcs|odbcconf|pcalua|sdbinst|wsl|certreq|dsquery|dsget|csvde|` +
  String.raw`ldifde|ntdsutil|winrm|winrs|psexec|wevtutil|fsutil|nltest|bcdedit|bcdboot|vssadmin`;
// Tools `which`/`time` are asked about: an interpreter, a compiler, a network tool, a recon command.
const ASKED =
  String.raw`curl|wget|nc|ncat|netcat|socat|telnet|ssh|ftp|tftp|gcc|cc|g\+\+|clang|perl|python[23]?|ruby|php|node|lua|bash|sh|zsh|` +
  String.raw`ifconfig|ipconfig|whoami|uname|nmap|base64|sudo|docker|kubectl|gawk|xxd|busybox|openssl|java|tclsh|powershell|pwsh`;
// SQL functions whose name is no English word a visitor types before a parenthesis.
const SQL_FUNCTIONS =
  String.raw`coalesce|group_concat|make_set|concat_ws|concat|compress|uncompress|unhex|hex|ord|sysdate|lo_get|lo_import|lo_export|` +
  String.raw`find_in_set|unistr|extractvalue|updatexml|load_file|benchmark|ascii|chr|nchar|substr|substring|mid|rtrim|ltrim|` +
  String.raw`xmltype|elt|instr|lpad|rpad|soundex|md5|sha1|json_extract|json_keys|ifnull|isnull|nullif|iif|char|trim|` +
  String.raw`utl_inaddr\.\w+|utl_http\.\w+|dbms_\w+\.\w+|pg_read_file|pg_ls_dir|current_setting|randomblob|zeroblob|sqlite_version`;
// SQL functions no word of prose spells: any argument.
const SQL_ONLY =
  String.raw`lo_get|lo_import|lo_export|pg_read_file|pg_ls_dir|load_file|extractvalue|updatexml|group_concat|concat_ws|make_set|` +
  String.raw`find_in_set|unhex|sysdate|utl_inaddr\.\w+|utl_http\.\w+|dbms_\w+\.\w+|randomblob|json_extract`;
const SQL_NILADIC = String.raw`user|version|database|schema|current_user|system_user|session_user|sysdate|now|rand|uuid|connection_id|last_insert_id|found_rows|pi`;

export function round3Rules(rule: RuleFn, shell: ShellGrammar): WafRule[] {
  const { sep, sepNotStart } = shell;
  return [
    // cmd.exe is case-insensitive: FOR and IF as a batch line writes them.
    rule(
      "svc-cmdi-013",
      "command_injection",
      "Windows programs no visitor types; batch control flow: FOR … IN (…) DO, IF EXIST / DEFINED / ERRORLEVEL / comparison; sh -c in any case",
      String.raw`(?:^|[&|;\r\n])\s*(?:${WINDOWS_TOOLS})(?:\.exe)?(?:\s|$|[&|;])|(?:^|[&|;\r\n])\s*cipher\s+/[a-z]|\b(?:ba|z|da|k)?sh\s+-c\s+\S|(?:^|[&|;(\r\n])\s*@?for\s+(?:/[a-z]\s+(?:"[^"]*"\s+)?)*%%?[^\s%]+%?\s+in\s*\(|` +
        String.raw`(?:^|[&|;(\r\n])\s*@?if\s*/i\s*(?:not\s+)?[^\s=]+\s*==|(?:^|[&|;(\r\n])\s*@?if\s*(?:/i\s*)?(?:not\s+)?(?:exist\s+\S|errorlevel\s+\d|cmdextversion\s+\d|defined\s+%?[\w]+%?\s+(?:\(|echo\b|goto\b|call\b|set\b|exit\b|cmd\b)|` +
        String.raw`(?:["'\[{(%][^\s=]*|[^\s=]+%)\s*==|[^\s=]+\s*===?\s*[^\s=]+\s+(?:echo|goto|call|set|exit|cmd|start|del|copy|type)\b|\(?\S+\s+(?:equ|neq|lss|leq|gtr|geq)\s+\S)`,
    ),
    rule(
      "svc-cmdi-014",
      "command_injection",
      "Tools no visitor types; a command asked about with which/time; a quoted command after a separator; arithmetic and brace expansion, alias with options, terminal escapes, redirection into a system folder",
      String.raw`${sep}[ \t]*['"]?(?:[\w/]*/)?(?:${TOOLS})(?:['"]|[ \t]+\S)|${sepNotStart}[ \t]*['"]?(?:[\w/]*/)?(?:${TOOLS})[ \t]*(?:$|[;|&\x60)}#>'"/\r\n])|` +
        String.raw`(?:^|${sepNotStart})[ \t]*['"]?[ \t]*(?:time|which|whereis|type[ \t]+-[pPat])[ \t]+(?:${ASKED})[ \t]*(?:$|[;|&\x60\r\n'"]|[ \t]+-)|` +
        String.raw`${sepNotStart}[ \t]*['"](?:${ASKED})['"](?:[ \t]|$|[;|&'"])|\$\([ \t]*(?:${ASKED})\b|\$\{IFS\}|\$IFS\b|` +
        String.raw`${sepNotStart}[ \t]*(?:snap|brew|cargo|gem|make|npm|npx|yarn|pnpm|apt|apk|dnf|yum|conda|scoop)[ \t]+(?:install|i|add|remove|uninstall|list|run|build|exec|update|upgrade|search)\b|` +
        String.raw`^\s*(?:usr/(?:local/)?)?s?bin/[a-z]|\b(?:python|perl|ruby|php|node|lua)\d(?:\.\d+)*[ \t]+\S|\b(?:gcc|g\+\+|clang|c99|c89|tcc)[ \t]+-[a-zA-Z]|` +
        String.raw`\$\(\(|[a-z]\{[a-z0-9]*,[a-z0-9,]*\}|\{[a-z0-9]*,[a-z0-9,]*\}[a-z]|(?:^|[;|&\r\n])\s*alias\s+(?:-\w+\s+)+[\w-]+=|` +
        String.raw`\\(?:033|x1b|e|u001b)\[|\x1b\[|[<>][ \t]*/(?:tmp|etc|var|dev|proc|root|usr|bin|sbin|opt)/`,
      { caseSensitive: true },
    ),
    rule(
      "svc-sqli-006",
      "sql_injection",
      "SQL functions and niladic calls, PostgreSQL casts and JSON operators, ORDER BY a column number, a quoted comparison; SELECT with an expression list FROM, CREATE FUNCTION, DECLARE @",
      String.raw`^\s*[,(]?\s*(?:${SQL_FUNCTIONS})\s*\(\s*$|\b(?:${SQL_FUNCTIONS})\((?:['"@]|0x|[\w.]+\s*,|\s*select\b)|\b(?:${SQL_NILADIC})\s*\(\s*\)|\b(?:${SQL_ONLY})\s*\(|\)\s*(?:r?like|regexp)\s*\(|\bas\s+["\x60\[]\w+["\x60\]]\s+from\b|` +
        String.raw`::\s*(?:jsonb?|bool(?:ean)?|int[248]?|integer|bigint|text|varchar|regclass|oid|numeric|float[48]?|inet|bytea)\b|` +
        String.raw`['"]\s*(?:->>?|#>>?|<@|@>|\?\||\?&|\?)\s*['"]|['"]\s*(?:r?like|regexp|sounds\s+like|<=>|<>|!=|<=|>=|=|<|>)\s*['"]|` +
        String.raw`['"]\s*[&|^*/%+-]\s*\+?\d+\s*[=<>]|(?:^|['")]|\d)\s*order\s+by\s+\d+\s*(?:--|#|;|\)|$)|\bsp_password\b|^\s*-?\d+\s+(?:xor|r?like|regexp|div)\s+-?\d+\s*$|\$\$[^$]*\b(?:or|and)\b[^$]*\$\$|` +
        String.raw`(?:^|['")])\s*(?:or|and|\|\||&&)\s+(?:not\s+)?(?:true|false|null)\s*(?:--|#|;|\)|$)|` +
        String.raw`\bselect\s+\*\s+from\b|\bselect\s+[^\n]*(?:\w\(|@@?\w|\x60)[^\n]*\bfrom\s+[\w\x60"\[]|\bselect\s+(?:if|case|char|concat|count|sleep|benchmark|substring|ascii)\s*\(|` +
        String.raw`\bcreate\s+(?:or\s+replace\s+)?(?:function|procedure|trigger)\s+[\w.]+|\bdeclare\s+@\w|^\s*case\s+when\s.+\sthen\s|` +
        String.raw`\x60\s*as\s*\x60|\bas\s+\x60\w+\x60\s+from\b|^[^'"\s]+['"]\s*;\s*(?:$|--|#)|\bunion\s+(?:all\s+)?select\s*[\r\n]`,
      { structuredOnly: true },
    ),
    rule(
      "svc-xss-006",
      "xss",
      "An event attribute of any name in a tag; an attribute after a quote; XML declarations, entities and namespaces; document and window properties; a dialog called with code",
      String.raw`<\s*[a-z][\w:-]*[^<>]*?[\s/'"]on[a-z]{3,}\s*=|<\s*['"]\s*on[a-z]{3,}\s*=|['"]\s*(?:on[a-z]{3,}|formaction|srcdoc)\s*=|` +
        String.raw`&#(?:0*60|x0*3c);?|^\s*&lt;\s*$|<\?xml|<!(?:attlist|entity|doctype|element)\b|\bxmlns(?::[\w-]+)?\s*=|<!--|\battributeName\s*=|` +
        String.raw`<\s*/?\s*(?:xsl|xs|xi|svg|html|t|v|o):[a-z]|<\s*/?\s*(?:html|body|head)\b|<\s*[a-z][\w-]*\s*:\s*(?:script|svg|img|iframe|style|template)\b|` +
        String.raw`<\s*(?:input|form|button|select|option|keygen|isindex|video|audio|source|track)\b[^<>]*\s[\w-]+\s*=|` +
        String.raw`\b(?:document|window|top|self|parent|frames|globalThis)\s*(?:/\*[^*]*\*/\s*)?\)?\s*\[\s*['"\x60]|` +
        String.raw`\bdocument\s*\.\s*(?:cookie|domain|location|write(?:ln)?|body|forms|querySelector(?:All)?|getElementById|getElementsBy\w+|createElement)\b|` +
        String.raw`(?:^|[;,\s(])[\w$]+\s*=\s*(?:alert|prompt|confirm|eval)\s*[,;)]|\b(?:setInterval|setTimeout)\s*\(\s*[\w'"\x60]|` +
        String.raw`\b(?:alert|prompt|confirm|eval|call|apply)\s*\x60|\$\{\s*(?:alert|prompt|confirm|eval)\s*\}|` +
        String.raw`\b(?:javascript|vbscript|livescript)\s*:[^\s]|` +
        // JavaScript is case-sensitive: `alert(1)` runs, "Confirm (2 copies)" is a word.
        String.raw`(?-i:\b(?:alert|prompt|confirm|print)\((?:\)|['"\x60\d]|document\b|window\b))`,
    ),
    rule(
      "svc-lfi-006",
      "lfi",
      "A PHP or Java stream wrapper; percent escapes no browser sends: a doubled percent before an escape, an invalid or overlong UTF-8 lead byte",
      String.raw`\b(?:php|phar|zip|data|expect|input|glob|compress\.\w+|netdoc|jar)://|%%[0-9a-f]{2}|%(?:25)?c[01](?:%|\.)|%(?:25)?e0%(?:25)?[89][0-9a-f]|%(?:25)?f0%(?:25)?8[0-9a-f]%`,
    ),
    rule(
      "svc-crlf-003",
      "http_protocol_violation",
      "A carriage return not followed by a line feed",
      String.raw`\r[^\n]`,
      { caseSensitive: true },
    ),
  ];
}
