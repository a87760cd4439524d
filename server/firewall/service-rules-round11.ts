import type { WafRule } from "./ruleset";
import type { RuleFn, ShellGrammar } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 11 (docs/decisions/494): the sections of bash(1) and PowerShell's
 * references that round 10's grammar left out, written before any public string was read and
 * measured with the grammar's third part (tests/fixtures/firewall/shell-grammar.ts). Structured
 * values only; every reading needs a separator actually typed or a shape no prose writes.
 *
 * - svc-cmdi-027, bash's compound commands and the builtins that run a command they are given:
 *   `case … in …) …;;` (or `esac`), `if … ; then … ; fi` and `if [ … ]; then`, and `trap` given a
 *   command and a signal; and a sleep behind a word that runs it ("; builtin sleep 5"). "In case
 *   you move; then call" has no `;;`, no `fi` and no test bracket.
 * - svc-cmdi-028, the rest of HISTORY EXPANSION beyond svc-cmdi-025's "!-1" and "!?word?": after a
 *   separator, "!!", "!$" or "!*" closed by another separator or a quote, "!n" also at the end, and
 *   any event with a word designator or modifier ("!!:p", "!ca:s/a/b/"); at the start of a line,
 *   quick substitution "^old^new^". Prose writes "Great!!", "Yes; !!" (the value ends there),
 *   "Plan A; !new" (a word) and "^_^" (no letter). Only an interactive shell expands history (a
 *   program's `sh -c` does not), so these are the weakest of the round's readings.
 * - svc-cmdi-029, PowerShell's cmdlets: an approved verb (Microsoft's "Approved Verbs for PowerShell
 *   Commands"), a hyphen and a noun written as the cmdlets write theirs (two capitalised parts,
 *   "ChildItem", or one of the nouns of the Management and Utility modules), after a separator, or
 *   at the start when the value ends there or goes on with a parameter. "Stop-Loss", "Add-On" and
 *   "Open-Enrollment" are insurance words, and none of those nouns.
 *
 * A pipeline negated with "!" ("; ! id"), `coproc`, `command -p` and a command given quoted to
 * eval or exec ("; eval 'id'") are read by the rules that read a command after a separator
 * (service-rules.ts, PREFIX).
 */
const VERBS =
  "Add|Clear|Close|Copy|Enter|Exit|Find|Format|Get|Hide|Join|Lock|Move|New|Open|Optimize|Pop|Push|Redo|Remove|Rename|Reset|Resize|Search|Select|Set|Show|Skip|Split|Step|Switch|Undo|Unlock|Watch|" +
  "Connect|Disconnect|Read|Receive|Send|Write|Backup|Checkpoint|Compare|Compress|Convert|ConvertFrom|ConvertTo|Dismount|Edit|Expand|Export|Group|Import|Initialize|Limit|Merge|Mount|Out|Publish|Restore|Save|Sync|Unpublish|Update|" +
  "Approve|Assert|Build|Complete|Confirm|Deny|Deploy|Disable|Enable|Install|Invoke|Register|Request|Restart|Resume|Start|Stop|Submit|Suspend|Uninstall|Unregister|Wait|" +
  "Debug|Measure|Ping|Repair|Resolve|Test|Trace|Block|Grant|Protect|Revoke|Unblock|Unprotect|Use";
// One-word nouns of Microsoft.PowerShell.Management and .Utility cmdlets (Get-Process, Invoke-Expression …).
const NOUNS =
  "Process|Service|Content|Item|Location|Command|Alias|Variable|Expression|Object|Member|Date|Host|Sleep|Acl|Job|Module|History|Clipboard|Credential|Printer|Volume|Partition|Computer|Culture|Random|Unique|Verb|PSDrive|WmiObject|CimInstance";
const CMDLET = String.raw`(?:${VERBS})-(?:[A-Z][a-z]+[A-Z][A-Za-z]*|[A-Z]{2,}[a-z][A-Za-z]*|(?:${NOUNS})\b)`;
// At the start of a value a label can be Verb-Noun ("Format-Date", "Publish-Date", "Copy-Item"):
// there, only the nouns no label uses.
const START_NOUNS =
  "Process|Service|Expression|Object|Alias|Variable|Acl|PSDrive|Clipboard|Credential|WmiObject|CimInstance";
const CMDLET_AT_START = String.raw`(?:${VERBS})-(?:[A-Z][a-z]+[A-Z][A-Za-z]*|[A-Z]{2,}[a-z][A-Za-z]*|(?:${START_NOUNS})\b)`;
// The signals trap is given (bash(1), trap; signal(7)), written as bash lists them.
const SIGNAL = String.raw`(?:EXIT|ERR|DEBUG|RETURN|(?:SIG)?(?:INT|TERM|HUP|QUIT|KILL|USR[12]|ALRM|CHLD|PIPE|CONT|STOP|TSTP)|\d{1,2})`;
// An event designator's word designators and modifiers (":p", ":s/a/b/", ":$", ":gs/x/y/").
const HISTORY_MODIFIER = String.raw`(?::(?:[pqxhtre&$*^\d-]|g?s/[^/\r\n]*/[^/\r\n]*/?))+`;
const TERMINATOR = String.raw`[ \t]*(?:$|[\r\n;|&\x60)#'"])`;

export function round11Rules(rule: RuleFn, shell: ShellGrammar): WafRule[] {
  const { sepNotStart } = shell;
  const lineStart = String.raw`(?:^|[\r\n;|&\x60(])[ \t]*`;
  return [
    rule(
      "svc-cmdi-027",
      "command_injection",
      "bash's compound commands and trap: case … in …) …;;, if …; then …; fi, if [ … ]; then, a sleep behind a runner, trap given a command and a signal",
      String.raw`${lineStart}case[ \t]+\S+[ \t]+in[ \t][^\r\n]*\)[^\r\n]*(?:;;|\besac\b)|` +
        String.raw`${lineStart}if[ \t][^\r\n]*;[ \t]*then[ \t][^\r\n]*;[ \t]*fi\b|` +
        String.raw`${lineStart}(?:if|while|until)[ \t]+(?:![ \t]*)?\[\[?[ \t][^\]\r\n]*\]\]?[ \t]*;[ \t]*(?:then|do)\b|` +
        // A sleep behind a word that runs it ("; builtin sleep 5", "$(eval 'sleep 5')").
        String.raw`${sepNotStart}[ \t]*(?:[({][ \t]*)?(?:(?:!|coproc|exec|eval|builtin|command(?:[ \t]+-p)?|nohup|time|nice|setsid|env)[ \t]+['"]?)+(?:sleep|usleep|timeout)[ \t]+\.?\d+(?:\.\d+)?[smhd]?[ \t]*(?:$|[;|&\x60)}#'"\r\n]|--)|` +
        String.raw`${sepNotStart}[ \t]*trap[ \t]+(?:'[^'\r\n]+'|"[^"\r\n]+"|[^\s'";|&]+(?:[ \t]+[^\s'";|&]+){0,4}?)[ \t]+${SIGNAL}\b`,
      { structuredOnly: true, caseSensitive: true },
    ),
    rule(
      "svc-cmdi-028",
      "command_injection",
      "bash's history expansion after a separator (!!, !n, !$, !*, !word, or any event with a modifier) and quick substitution (^old^new^)",
      String.raw`${sepNotStart}[ \t]*!(?:!|-?\d+|[$*]|\?[^?\s]{1,30}\?)(?:${HISTORY_MODIFIER}${TERMINATOR}|[ \t]*[\r\n;|&\x60)#'"])|${sepNotStart}[ \t]*!(?:\d+|[$*])${TERMINATOR}|` +
        String.raw`(?:^|[\s;|&\x60(])!(?:!|-?\d+|[a-z][\w.-]{0,15})${HISTORY_MODIFIER}${TERMINATOR}|` +
        String.raw`(?:^|[\r\n])\^[A-Za-z0-9][\w./-]*\^[A-Za-z][\w ./-]*\^?${TERMINATOR}`,
      { structuredOnly: true, caseSensitive: true },
    ),
    rule(
      "svc-cmdi-029",
      "command_injection",
      "A PowerShell cmdlet (approved verb, hyphen, cmdlet noun) after a separator, or alone or with a parameter at the start",
      String.raw`${sepNotStart}[ \t]*(?:[&.][ \t]*)?${CMDLET}|^[ \t]*['"]?${CMDLET_AT_START}(?:[ \t]*$|[ \t]+-[A-Z][A-Za-z]+\b|[ \t]+[A-Z][A-Za-z]+[ \t]*$)`,
      { structuredOnly: true, caseSensitive: true },
    ),
  ];
}
