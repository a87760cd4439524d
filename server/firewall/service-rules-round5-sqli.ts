import type { WafRule } from "./ruleset";
import type { RuleFn } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 5, SQL injection (docs/decisions/470-474): shapes written from the misses
 * of the public tuning lists (sqlmap's detection payloads among them) and from sqlmap's tamper
 * scripts, never from a held-out or fresh string, never a string copied. Three rules read only
 * structured values; svc-sqli-011 also reads free text, with shapes no sentence has.
 */

// A numeric comparison, the heart of a boolean test: `4821=7306`, `(1<>2)`, `NOT 3=3`.
const NUM = String.raw`-?\d+(?:\.\d+)?`;
const CMP = String.raw`(?:=|<>|!=|<=?|>=?)`;
const NUM_CMP = String.raw`\(?\s*${NUM}\s*${CMP}\s*${NUM}\s*\)?`;
// Equality only, where "where 18 < 26" could be a sentence.
const EQ = String.raw`(?:=|<>|!=)`;
const NUM_EQ = String.raw`\(?\s*${NUM}\s*${EQ}\s*${NUM}\s*\)?`;
// Keywords a filter looks for, which tamper scripts split, blank or glue.
const KEYWORDS = String.raw`and|or|xor|not|union|select|from|where|having|insert|update|delete|drop|exec|execute|waitfor|sleep|benchmark|order|group|limit`;
// Blanks only a tamper script puts between words: C0 controls other than tab and line breaks.
const CONTROL = String.raw`[\x00-\x08\x0e-\x1f]`;

// System functions whose names no sentence spells (an underscore inside), read in free text too.
const SYSTEM_FUNCTIONS =
  "httpuritype|db_name|user_name|suser_s?name|is_srvrolemember|has_dbaccess|serverproperty|fn_varbintohexstr|" +
  "fn_xe_file_target_read_file|fn_trace_gettable|sys_context|object_id|col_name";

export function round5SqliRules(rule: RuleFn): WafRule[] {
  return [
    rule(
      "svc-sqli-008",
      "sql_injection",
      "Boolean and error tests built on a numeric comparison: IIF/ELT/IF over one, (n=n)*n, CASE WHEN n=n, ELSE NULL/JSON()/1/0 END, WHERE n=n, OR NOT n=n, a comma before AND n=n, `1`=`1`, IN BOOLEAN MODE)",
      String.raw`\b(?:iif|elt|if|make_set|field|choose|nullif)\s*\(\s*(?:not\s+)?${NUM_CMP}\s*,|\bif\s*\(\s*(?:not\s+)?${NUM_CMP}\s*\)\s*(?:select|begin|waitfor|exec|drop|insert|update|delete)\b|` +
        String.raw`\(\s*${NUM}\s*${EQ}\s*${NUM}\s*\)\s*[*/%&|^+-]\s*\(?\s*-?\d|\d\s*[*/%&|^]\s*\(\s*${NUM}\s*${EQ}\s*${NUM}\s*\)|` +
        String.raw`\bcase\s+when\s+(?:not\s+)?${NUM_CMP}\s*then\b|\belse\s+(?:null|json\s*\([^()]*\)|\d+\s*/\s*0|\(\s*select\b[^()]*\))\s*\)?\s*end\b|` +
        String.raw`(?:^\s*-?\d+|['"\x60)]|\bselect\s+(?:-?\d+|null|'[^']*'))\s*\)*\s*where\s+(?:not\s+)?${NUM_EQ}|\b(?:or|and|xor)\s+not\s+${NUM_EQ}|` +
        String.raw`,\s*(?:and|or|xor|&&|\|\|)\s+(?:not\s+)?${NUM_EQ}|\x60\w*\x60\s*${CMP}\s*\x60|\bin\s+boolean\s+mode\s*\)|` +
        String.raw`(?:^|['"\x60)])\s*(?:or|and|xor)\s+(?:not\s+)?${NUM}\s*${CMP}\s*${NUM}\s*(?:%[01][0-9a-f]|${CONTROL})`,
      { structuredOnly: true },
    ),
    rule(
      "svc-sqli-009",
      "sql_injection",
      "Heavy queries and stacked calls: REGEXP_SUBSTRING, REPEAT over a call, CRYPT_KEY, ;CALL f(, a $$-quoted value then a statement or condition, WAITFOR spelt otherwise, a call compared after a closing quote and OR",
      String.raw`\bregexp_substring\s*\(|\brepeat\s*\(\s*(?:left|right|char|chr|crypt_key|md5|sha[12]?|rand|random|concat|substr|substring|mid|hex|unhex|space|lpad|rpad|version|user|database)\s*\(|\bcrypt_key\s*\(|` +
        String.raw`(?:^|['"\x60)$,])\s*;\s*call\s+[\w.]+\(|(?:^|[\w'])\$\$\s*(?:;\s*(?:call|select|insert|update|delete|drop|create|do|copy|exec)\b|(?:and|or|xor)\s+(?:'[^']*'\s*=|\d+\s*=|\(|not\b))|` +
        String.raw`\b\w+for\s+(?:delay|time)\s*['"]\s*\d{1,2}:\d{1,2}:\d{1,2}|` +
        String.raw`['")]\s*(?:or|and|xor|\|\||&&)\s+[a-z_]\w*\s*\([^()\s]*\)\s*(?:=|<>|!=|<|>)\s*(?:['"\d]|$)`,
      { structuredOnly: true },
    ),
    rule(
      "svc-sqli-010",
      "sql_injection",
      "Tamper-script spellings: a comment inside or before a word, a percent before each letter, control characters or + as blanks around keywords, text written as a hex literal, \\x escapes of quotes, 1DUNION, 9.e.table, UNION DISTINCT SELECT, a quote inside an inline comment, \\N, DIV(n,n), ?| ARRAY[, a sub-select after ASC or a comma, '*1*', ODBC escapes {fn …} {call …}",
      String.raw`[a-z0-9_)'"]/\*[^/\s,;]*\*/[\s(]*[a-z0-9_('"@]|%[a-z]%[a-z]%[a-z]%[a-z]|` +
        String.raw`${CONTROL}(?:${KEYWORDS})\b|\b(?:${KEYWORDS})${CONTROL}|` +
        String.raw`(?:^|['")\d])\+(?:and|or|xor|having|where)\+\(?(?:\d+|'[^']*')\s*(?:=|<>|!=|<|>|\+r?like\+)|\+union\+(?:all\+|distinct\+)?select\+|` +
        String.raw`\b0x(?:[2-7][0-9a-f](?:00)?){8,}|[,(=]\s*0x[0-9a-f]{6,}\s*[,)]|(?:^|[\s=(,;'"])\\(?:x(?:2[2378]|3[bd])|u00(?:2[27]|3d))|` +
        String.raw`\d[df](?:union|select|from)\b|\d\.e\.[a-z_]\w{2,}|\bunion\s+distinct(?:row)?\s+select\b|/\*[^*]*['"][^*]*\*/|` +
        String.raw`\bis\s+(?:not\s+)?\\N\b|\bdiv\s*\(\s*${NUM}\s*,\s*${NUM}\s*\)|(?:\?\||\?&|@>|<@)\s*array\s*\[|\(\s*(?:\|\||&&)\s*\d|\*/\s*=\s*['"\d]|\b(?:${KEYWORDS})\*/\s*[\w(@'"]|` +
        String.raw`\b(?:asc|desc)\s*,\s*\(\s*select\b|,\s*\(\s*select\s+(?:null\b|@@?\w|\*|\w+\s*\()|['"]\s*[*^|&/%]\s*\(?\d+\)?\s*[*^|&/%]\s*['"]|` +
        String.raw`^\s*['"]\s*(?:&&|\|\|)\s*['"]\s*$|\{\s*(?:fn\s+\w+\s*\(|oj\s+\w|\?\s*=\s*call\b|call\s+[\w.]+\s*\(|call\s+[\w.]*[_.][\w.]*\s*\})`,
      { structuredOnly: true },
    ),
    rule(
      "svc-sqli-012",
      "sql_injection",
      "SQL's own literals and statements: COLLATE a collation, @v:= assignment, INTO @v, x'41' and b'1' after an operator, ' XOR ', time registers after OR, INSERT INTO … VALUES(, DROP TABLE x; , UPDATE x SET y='…', 1'or'1; MySQL clauses (WITH ROLLUP, ON DUPLICATE KEY UPDATE, LOCK IN SHARE MODE, LIKE BINARY), joins, SET NAMES, charset introducers, quoted @variables, !< and !>, ' GLOB ', $tag$ quoting",
      String.raw`\bcollate\s+(?:utf8\w*|latin1\w*|ascii\w*|binary|nocase|rtrim|sql_\w+|\w+_(?:ci|cs|bin))\b|@\w+\s*:=\s*[\w'"(@-]|(?:\d|['")])\s*into\s+@\w+\s*(?:,\s*@|$|--|#|;|\bfrom\b)|` +
        String.raw`(?:\b(?:or|and|xor|like)|[=<>])\s*(?:x'[0-9a-f]*\d[0-9a-f]*'|b'[01]+')|['"]\s*xor\s*['"(\d]|\d['"](?:or|and|xor|\|\||&&)['"]\d|` +
        String.raw`\b(?:or|and|xor)\s+(?:utc_(?:time|date|timestamp)|current_(?:timestamp|time|date|user)|localtimestamp|curdate\s*\(|curtime\s*\()|` +
        String.raw`\binsert\s+into\s+[\w.\x60"\[\]]+\s*(?:\([^()]*\)\s*)?values\s*\(|\bdrop\s+(?:table|database|schema|view|user)\s+(?:if\s+exists\s+[\w.\x60"]+|[\w.\x60"]+\s*(?:;|--|#))|` +
        String.raw`\bupdate\s+[\w.\x60"\[\]]+\s+set\s+[\w.\x60"\[\]]+\s*=\s*['"\d(]|` +
        String.raw`\bwith\s+rollup\b|\bon\s+duplicate\s+key\s+update\b|\block\s+in\s+share\s+mode\b|\blike\s+binary\s+['"]|['"]\s*glob\s*['"]|\d\s*![<>]\s*\d|` +
        String.raw`\b(?:cross|natural|(?:left|right|full)\s+outer|inner)\s+join\s+[\w.\x60"\[\]]+|\bjoin\s+[\w.\x60"\[\]]+\s+(?:as\s+\w+\s+)?on\s+[\w.]+\s*=\s*[\w.]+|` +
        String.raw`\bset\s+names\s+(?:utf8\w*|latin1|ascii|binary|gbk|big5|sjis|['"])|^\s*@['"\x60][^'"\x60]*['"\x60]\s*$|\bescape\s+['"](?:\\\\?|[!#^])['"]|` +
        String.raw`\b_(?:latin1|utf8\w*|binary|ascii|ucs2|utf16\w*|utf32|big5|gbk|sjis|cp\d+)\s*['"]|\$[a-z_]\w*\$[^$]*\$[a-z_]\w*\$|` +
        String.raw`['")]\s*;\s*(?:reconfigure\b|create\s+extension\s+\w)|[\w)]"\s*(?:#|--|/\*)\s*$`,
      { structuredOnly: true },
    ),
    // Free text too (a note is stored through SQL as well): shapes no sentence has.
    rule(
      "svc-sqli-011",
      "sql_injection",
      "System variables (@@version), a stored procedure run, n && n=n, CHAR(n)+, a system function inside another, SELECT n FROM DUAL, IN (SELECT @@; MSSQL and Oracle system functions and procedures no sentence spells",
      String.raw`@@(?:version|datadir|hostname|basedir|servername|servicename|spid|tmpdir|global\.\w+|session\.\w+)\b|` +
        String.raw`\bexec(?:ute)?\s+(?:master\.\.)?(?:sp|xp)_\w+|\d+\s*&&\s*\d+\s*=\s*\d+|` +
        String.raw`\b(?:length|len|ascii|ord|hex|substr|substring|mid|left|right)\s*\(\s*(?:(?:database|version|user|current_user|schema|system_user)\s*\(\s*\)|@@\w+)|` +
        String.raw`\b(?:ascii|ord|hex|unicode)\s*\(\s*(?:substr|substring|mid|left|right)\s*\(|\bselect\s+\d+\s+from\s+dual\s*(?:\)|--|#|where\b)|\bin\s*\(\s*select\s+@@|` +
        String.raw`\b(?:${SYSTEM_FUNCTIONS})\s*\(|\b(?:ordsys|ctxsys)\.\w+|\bsp_(?:executesql|oacreate|oamethod|makewebtask|addlogin|addsrvrolemember|configure|linkedservers)\b|` +
        String.raw`\bxp_(?:dirtree|fileexist|regread|regwrite|servicecontrol|subdirs|availablemedia|loginconfig)\b|` +
        String.raw`\b(?:iif|elt|if|make_set|nullif)\s*\(\s*\(?\s*\d+\s*${EQ}\s*\d+\s*\)?\s*,|\bcase\s+when\s+\(?\s*\d+\s*${EQ}\s*\d+\s*\)?\s*then\b|\(\s*\d+\s*${EQ}\s*\d+\s*\)\s*\*\s*\d|` +
        String.raw`\belse\s+\d+\s*/\s*0\s*end\b|\|\|\s*\(\s*select\b|\(\s*select\s+\(\s*case\s+when\b|\b(?:n?char|chr)\s*\(\s*\d+\s*\)\s*(?:\+|\|\|)|\bexp\s*\(\s*~\s*\(|` +
        String.raw`\b(?:raise_error|uuid_to_bin|bin_shl|zeroifnull|to_posixtime|bit_shift|rotateleft|parse_data_size|generate_series|xmltype|regexp_substring|crypt_key|sleepeachrow|fuzzbits|sys_exec|sys_eval|lo_from_bytea|pg_read_binary_file|dblink_exec|dblink_connect)\s*\(|` +
        String.raw`[\w)'"]/\*!?\d*\*/|/\*!?\d*\*/[\w('"]|\(\s*select\s+count\s*\(\s*\*\s*\)\s+from\b|\bjson_[a-z_]+\s*\(\s*['"{\[]|\bst_[a-z]+\s*\(\s*(?:point|geom\w*|polygon|linestring|\d|')|\bdeclare\s+@\w+\s+(?:n?(?:var)?char|int|bigint|varbinary|sysname|table)\b|\bwaitfor\s+delay\s+[@'"]|` +
        String.raw`\bexec(?:ute)?\s*\(\s*(?:@\w+\s*\)|'[^']*'\s*\+)|\belt\s*\(\s*-?\d|\bpg_sleep\s*\(|\bhaving\s+\d+\s*=\s*\d+\s*(?:--|#|;|$)|\b(?:select|print)\s+@@\w+|` +
        String.raw`\bselect\s+(?:session_user|current_user|system_user)\b|\bcreate\s+table\s+[\w.]+\s*\(\s*\w+\s+(?:text|int\w*|varchar|n?char|blob|bigint|serial)\b|` +
        String.raw`\blike\s+(?:n?char|chr)\s*\(\s*\d|\b(?:user|version|database|current_user|schema)\(\s*\)\s*(?:=|<|>|like\b)|\brdb\$\w+|\bsysmaster:|\bsysibm\.\w+`,
    ),
  ];
}
