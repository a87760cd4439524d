import type { WafRule } from "./ruleset";
import type { RuleFn } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 2 (docs/decisions/415-419): SQL injection, script injection, traversal
 * and NoSQL shapes written from the attack classes and from the public tuning lists (fuzzdb,
 * payloadbox; never from a measured public corpus). Each needs the structure of an attack: an
 * operator after a quote or at the start of a value, a statement after a quote and a semicolon, a
 * tag with a resource attribute, an absolute path from a system root. None reads free-text fields
 * (agents' notes have quotes, semicolons and "or"), except where a pattern no prose has is noted.
 * service-rules.ts passes its `rule` helper in (one definition of how a rule is built).
 */

// Where an injected condition starts: the start of the value, or after a quote or a parenthesis.
const OPENING = String.raw`(?:^|['"\x60)])\s*\)*\s*`;
// A literal operand of a condition: a number, a quoted string (doubled quotes too), a variable.
const OPERAND = String.raw`(?:\d+|'+[^']*'+|"+[^"]*"+|@@?\w+)`;
// A comparison with its right-hand side: a literal, a variable, or a column that ends the value or the condition.
const COMPARE = String.raw`(?:(?:=|<>|!=|<=>|>=?|<=?|\blike\b|\bregexp\b|\brlike\b)\s*(?:\d|['"(@]|[a-z_]\w*\s*(?:--|#|;|\)|$))|\bbetween\s+\S|\bin\s*\(|\bis\s+(?:not\s+)?null\b)`;
const STATEMENT =
  String.raw`(?:select\s+(?:@@?\w+|top\s+\d|\*\s*$|(?:\*|[\w.,\s()]+)\s+from\b)|insert\s+into\b|update\s+[\w.\[\]"\x60]+\s+set\b|delete\s+from\b|` +
  String.raw`(?:drop|truncate|alter)\s+(?:table|database|user|view|procedure|function)\b|exec(?:ute)?\s*[\s(@]|declare\s+@|shutdown\b|waitfor\s|` +
  String.raw`(?:desc|describe)\s+\w+\s*(?:;|--|#|$)|create\s+(?:table|database|user|login|procedure|function|trigger|view)\b|` +
  String.raw`backup\s+(?:database|log)\b|begin\s+declare\b|set\s+@\w+\s*=)`;

export function round2Rules(rule: RuleFn): WafRule[] {
  return [
    rule(
      "svc-sqli-004",
      "sql_injection",
      "A condition injected after a quote or at the start; a statement after a quote or semicolon; comments closing a quote",
      String.raw`${OPENING}(?:or|and|xor|\|\||&&)\s+\(?\s*(?:not\s+)?${OPERAND}\s*${COMPARE}|` +
        String.raw`${OPENING}(?:or|and|xor|\|\||&&)\s+\(?\s*(?:not\s+)?[a-z_]\w*\s*(?:=|<>|!=|>=?|<=?|\blike\b)\s*(?:\d+|'[^']*'?|"[^"]*"?|[a-z_]\w*)\s*(?:--|#|;|\)|$|\b(?:and|or)\b)|${OPENING}(?:or|and)\s+\(?\s*(?:not\s+)?exists\b|` +
        String.raw`${OPENING}(?:or|and)\s+\d+\s*(?:--|#|/\*)|${OPENING}(?:or|and)\s+\d+\s+between\s+\d+\s+and\s+\d+|(?:^|\s)(?:or|and)\s+([a-z])\s*=\s*[a-z]\s*(?:--|#|;|\)|$)|` +
        String.raw`(?:['"\x60)]|^\s*[\w@]*)\s*;\s*${STATEMENT}|['"]\s*\)*\s*;\s*(?:--|#)|^\s*['"]\s*\)*\s*(?:--|#)|^\s*\)*\s*;\s*(?:--|#)|` +
        String.raw`['"]\s*\|\|\s*['"(\w]|^\s*\|\|\s*['"]`,
      { structuredOnly: true },
    ),
    rule(
      "svc-sqli-005",
      "sql_injection",
      "SQL Server and DB2 variables, procedures and catalogs; sub-selects; sleeps; grants; LDAP filters",
      String.raw`\bdeclare\s+@\w+\s+(?:n?(?:var)?char|int|bigint|table|cursor|sysname|(?:var)?binary)\b|\bexec(?:ute)?\s*\(\s*@|\bexec(?:ute)?\s+(?:xp|sp)(?:_\w*|\s*$)|` +
        String.raw`@@[a-z]\w{3,}|\bselect\s+(?:@@?\w+|(?:current_user|session_user|system_user|user|database|version|schema)\b\s*(?:\(\s*\))?\s*(?:;|$|from\b|--|#))|` +
        String.raw`\bsysibm\.|\bsysdummy1\b|\(\s*select\s+(?:top\s+\d+|@@?\w+|\*|distinct\b|count\s*\(|[\w.]+(?:\s*,\s*[\w.]+)*\s+from\b)|\bin\s*\(\s*select\s|` +
        String.raw`\bpg_sleep\s*\(|(?:\b(?:or|and|xor|select|if|then|case)\s+|[-'"(=,;|&+*])\s*sleep\(\s*\d|\bhaving\s+\d+\s*=\s*\d+|` +
        String.raw`\b(?:grant|revoke)\s+(?:(?:select|insert|update|delete|execute|usage|all(?:\s+privileges)?)(?:\s*,\s*\w+)*\s+on\s+[\w.*]+\s+(?:to|from)\b|(?:connect|resource|dba)\s+(?:to|from)\s+\w)|` +
        String.raw`\bcreate\s+(?:temporary\s+)?table\s+[\w.\[\]"\x60]+\s*\(|\bbackup\s+(?:database|log)\s+\w+\s+to\b|` +
        String.raw`\(\s*[|&!]\s*\(\s*[\w.-]+\s*[~<>]?=|\*\s*\)\s*\(\s*[|&]|^\s*\*\s*\(\s*[|&]|\)\s*\(\s*[|&]\s*\)`,
      { structuredOnly: true },
    ),
    rule(
      "svc-xss-005",
      "xss",
      "A tag with a resource attribute; raw-text elements closed or opened; dialog functions aliased or called indirectly",
      String.raw`<\s*[a-z][a-z0-9:-]*[^<>]*?[\s/"'](?:src|href|data|action|formaction|background|dynsrc|lowsrc|xlink:href|srcdoc|poster|codebase|classid|datasrc|srcset)\s*=|` +
        String.raw`<\s*/?\s*(?:script|iframe|frame|frameset|object|embed|applet|svg|math|base|link|style|meta|xml|layer|ilayer|bgsound|isindex|xss|portal|template|noscript|noembed|xmp|plaintext|textarea|title|marquee|details|dialog)(?:[\s/>]|$)|` +
        String.raw`['"\x60]\s*[;,]\s*[\w$]+\s*=\s*(?:alert|prompt|confirm|eval|Function|setTimeout|setInterval)\b|` +
        String.raw`\b(?:setTimeout|setInterval|eval|Function|execScript)\s*\(\s*(?:location|document|window|name|top|self|atob|decodeURI|unescape|String\.fromCharCode)\b|` +
        String.raw`\b(?:alert|prompt|confirm|eval)\s*\)?\s*(?:\?\.\s*\(|\.\s*(?:call|apply|bind)\s*\()|\[\s*['"\x60]?\s*(?:alert|prompt|confirm|eval)\s*['"\x60]?\s*\]\s*\(|` +
        String.raw`\(\s*(?:alert|prompt|confirm|eval)\s*\)\s*\(|\.\s*(?:find|map|forEach|some|every|filter|call)\s*\(\s*(?:alert|prompt|confirm|eval)\b|` +
        String.raw`['"\x60]\s*/?\s*>\s*<\s*[a-z!/?]|<\s*[a-z][a-z0-9]*\s[^<>]*>[^<>]*<\s*/\s*[a-z]|<\s*[a-z][a-z0-9]*\s[^<>]*\bstyle\s*=|\{\{[^{}]+\}\}|<%=?[^%]*%>|` +
        String.raw`\bconstructor\s*\.\s*constructor\s*\(|\{\{[^}]*\b(?:constructor|\$eval|\$on|\$emit|alert)\b|\$\{\s*(?:alert|prompt|confirm|eval)\s*\(`,
    ),
    rule(
      "svc-lfi-005",
      "lfi",
      "An absolute path from a system root, a drive or backslash path, dot-dot with its percent lost, a server file named alone",
      String.raw`\.\.(?:2f|5c)|^\s*/(?:etc|var|usr|proc|sys|boot|root|opt|s?bin|lib(?:32|64)?|dev|tmp|srv|home|private|system|library|windows|winnt|inetpub|xampp|wamp|apache\d?|php\d?|program files|mysql|appserv)(?:[/\\]|$)|` +
        String.raw`^\s*/\.[a-z][\w.-]*$|(?:^|[\s'"=(;,|/])[a-z]:(?:\\|/[\w .-]+[\\/]|[\\/]?(?:(?:windows|winnt|program files|inetpub|system32)[\\/]|boot\.ini\b))|` +
        String.raw`\w\\[\w.-]+\\[\w.-]|\\(?:windows|winnt|system32|inetsrv|inetpub|php\d?|apache\d?|xampp|wamp)\b|\\[\w.-]+\.(?:ini|conf|log|xml|dat|dll|exe|sys|bat|cfg|mdb)\b|` +
        String.raw`^\s*/?(?:[\w.-]+/)*[\w.-]+\.(?:php\d?|phtml|asp|aspx|jsp|jspx|cgi|inc|ini|config|htaccess|htpasswd|mdb|myd|dat)\s*$|(?:^|[/\\])[\w.-]*\.?passwd\b`,
    ),
    // Not free text: a note may quote an address; nothing fetches it.
    rule(
      "svc-ssrf-002",
      "ssrf",
      "A cloud metadata address written bare, in any common spelling; a scheme only a fetcher or a PHP stream uses",
      String.raw`\b169\.254\.169\.254\b|\b169\.254\.170\.2\b|\b100\.100\.100\.200\b|\b192\.0\.0\.192\b|\bfd00:ec2::254\b|\bmetadata\.google\.internal\b|\b2852039166\b|\b0xa9fea9fe\b|` +
        String.raw`\b(?:sftp|ldaps|smb|telnet|tftp|ssh2\.(?:shell|exec|tunnel|sftp|scp)|glob|rar|ogg|compress\.(?:zlib|bzip2)|zlib)://`,
    ),
    rule(
      "svc-nosql-003",
      "nosql_injection",
      "JavaScript comparisons after || or &&, a JavaScript statement after a quote, a MongoDB operator with a value anywhere",
      String.raw`(?:\|\||&&)\s*(?:\d+|'[^']*'|"[^"]*"|true|this\.\w+)\s*(?:[=!]==?|[<>]=?)\s*(?:\d+|'[^']*'|"[^"]*"|true)|'\w*'\s*===?\s*'|"\w*"\s*===?\s*"|` +
        String.raw`(?:['"]|^\s*\d+)\s*;\s*(?:[\w$]+\s*=\s*new\s+\w|var\s+\w|let\s+\w|const\s+\w|function\s*\w*\s*\(|if\s*\(|do\s*\{|while\s*\(|for\s*\(|throw\b|return\s+(?:true|false|\d|this\b|[\w$.]+\s*[=!<>(])|sleep\s*\(|this\.)|` +
        String.raw`\bdo\s*\{[^}]*\}\s*while\s*\(|\$(?:ne|eq|gt|gte|lt|lte|in|nin|regex|where|exists|expr|or|and|not|nor|elemMatch|all|size|type|function|accumulator)["']?\s*:\s*(?:["'{\[/]|\d|true\b|false\b|null\b)`,
      { caseSensitive: true },
    ),
  ];
}
