import type { WafRule } from "./ruleset";
import type { RuleFn, ShellGrammar } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 4 (docs/decisions/433-434): shapes written from known evasion techniques,
 * not from any corpus string: SQL's number-glued keywords (`1.e(`, `1e0union`, `\Nunion`),
 * bracket and backtick identifiers, MySQL's `<=>`, a stacked SELECT after a number, ORDER BY a
 * column number with a direction; Windows programs started after `&` and batch words in upper
 * case, a sleep, timeout or ping after a line break or other typed separator, the shell's own
 * name `$0` run as a command. None reads free-text fields.
 */
// "explorer" and "control" are English words ("Command & Control", "Plan | Explorer"): read in
// lower case only, as a command line types them.
const WIN_APPS = "calc|notepad|mspaint|(?-i:explorer|control)|taskmgr|regedit|mstsc|waitfor";

export function round4Rules(rule: RuleFn, shell: ShellGrammar): WafRule[] {
  const { sepNotStart } = shell;
  return [
    rule(
      "svc-sqli-007",
      "sql_injection",
      "Keywords glued to a number (scientific notation, \\N), bracket or backtick identifiers, <=>, a stacked SELECT, ORDER BY a column number with a direction; a lone operator between quotes; REGEXP_ functions; CASE WHEN (condition), ELSE 1/0",
      String.raw`\d(?:\.\d*)?e\d*\s*(?:\(|(?:union|select|from)\b)|\d\.(?:union|select|from)\b|(?:\d|\\N)(?:union|select)\b|['"\d]\.e\s*\(|` +
        String.raw`\bselect\s*[\[\x60][\w$ ]+[\]\x60]\s*(?:,|from\b)|[\]\x60]\s*from\s*[\[\x60]\w|\bfrom\s*\[\w+\]\s*\.\.?\s*\[|\bselect\s+0x[0-9a-f]{2,}|` +
        String.raw`[\w'")]\s*<=>\s*[\w'"(]|(?:^|['")])\s*-?\d*\s*;\s*select\s+(?:-?\d|null\b|@@|\w+\s*\()|(?:^|['")]|\d)\s*order\s+by\s+\d+\s+(?:asc|desc)\s*(?:--|#|;|\)|$)|` +
        String.raw`^\s*'\s*[-&^*|+ ]\s*'\s*$|^\s*"\s*[-&^*|+ ]\s*"\s*$|'\s*(?:or|and)\s*''\s*[-&^*|+ ]\s*'|\bregexp_(?:like|substr|instr|replace|count)\s*\(|` +
        String.raw`\bcase\s+when\s*\(\s*[\w'"]+\s*(?:=|<>|!=|<=?|>=?)|\belse\s+\d+\s*/\s*0\s+end\b`,
      { structuredOnly: true },
    ),
    rule(
      "svc-cmdi-016",
      "command_injection",
      "Windows programs after & or |; batch words in capitals; waitfor; a sleep, timeout or ping after a typed separator; $0 run",
      String.raw`[&|][ \t]*(?:${WIN_APPS})(?:\.exe)?[ \t]*(?:$|[&|]|[ \t]/[a-z])|^[ \t]*(?:${WIN_APPS})(?:\.exe)?[ \t]+/[a-z]|` +
        String.raw`(?-i:&[ \t]*(?:SET|VER|VOL|DIR|PATH|CLS)[ \t]*(?:$|[&|]))|(?-i:${sepNotStart}[ \t]*(?:sleep|timeout|ping)(?:[ \t]+-[a-zA-Z]+)?[ \t]+(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:e\d+)?[smhd]?)[ \t]*(?:$|[;|&\x60)#\r\n'"]|--[ \t]*$))|` +
        String.raw`(?-i:\$\{[@*]\}[a-z]|${sepNotStart}[ \t]*(?:ls|cd|dir)[ \t]+\.\.?[ \t]*(?:$|[/\\;|&]))|` +
        String.raw`(?-i:${sepNotStart}[ \t]*\$\{?0\}?(?:[ \t]+-[a-z]|[ \t]*(?:$|[;|&\x60)])))`,
    ),
    rule(
      "svc-ssrf-003",
      "ssrf",
      "A Unix socket as a fetch target (Docker's API, curl's and requests' unix: forms)",
      String.raw`\bunix:[/\\]|(?:^|[\s:=/])/(?:var/)?run/[\w./-]*\.sock\b|%2fvar%2frun%2f`,
    ),
  ];
}
