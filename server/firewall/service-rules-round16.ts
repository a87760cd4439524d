import type { WafRule } from "./ruleset";
import type { RuleFn, ShellGrammar } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 16 (docs/decisions/532): two readings written from manuals, after the
 * shell grammar's tuning part (tests/fixtures/firewall/shell-grammar.ts) showed history events
 * that svc-cmdi-028 lets through. Structured values only.
 *
 * - svc-cmdi-030, bash(1) HISTORY EXPANSION, Event Designators: "!string" runs the most recent
 *   command starting with string. svc-cmdi-028 leaves "; !new" alone because prose writes "Plan A;
 *   !new"; here the event must be followed by another separator, a comment or a closing quote or
 *   parenthesis (";!ca &", "1)||!ca'", "; !ca#"), which no sentence puts after an exclamation. Any
 *   event glued to "&" or "|" at the end of a value ("foo.pdf||!!", "&!ca") is read too: prose
 *   leaves a space before an exclamation it puts after an ampersand ("Tom & !Jerry" passes).
 *   Quick substitution ("^old^new^") is recognised by bash only as a line's first character
 *   (svc-cmdi-028 reads it there); after ";" it is no expansion and is not read.
 * - svc-crlf-007, RFC 959's FTP commands after a line break, as svc-crlf-001 reads SMTP's, POP3's
 *   and IMAP's: a verb that takes a path given one ("CWD /etc", "STOR shell.php"), a verb that takes
 *   nothing alone on its line ("PASV", "SYST"), EPRT's and PORT's addresses, and SITE with a server
 *   command (EXEC, CHMOD, CPFR, CPTO). Their names are also abbreviations a line may open with
 *   ("RMD distribution", "MKD Medical Group", "Acct 12345", "syst bp 120"): those have no path.
 */
export function round16Rules(rule: RuleFn, shell: ShellGrammar): WafRule[] {
  const { sepNotStart } = shell;
  return [
    rule(
      "svc-cmdi-030",
      "command_injection",
      "bash's history expansion by a command's name closed by another separator, and any history event glued to & or | at the end",
      String.raw`${sepNotStart}[ \t]*!(?:[a-z][\w.-]{0,15}|\?[^?\s]{1,30}\?)[ \t]*(?:[\r\n;|&\x60)#'"])|` +
        String.raw`[&|]!(?:!|[$*]|-?\d+|[a-z][\w.-]{0,15})[ \t]*$`,
      { structuredOnly: true, caseSensitive: true },
    ),
    rule(
      "svc-crlf-007",
      "http_protocol_violation",
      "A line break, then an FTP command (RFC 959): a path verb with a path, a verb alone on its line, an address, SITE with a server command",
      // A verb that takes a path, given one (a "/", "~" or a file name with its extension; RETR is
      // svc-crlf-001's, with any argument); a verb that takes nothing, alone on its line; EPRT's
      // and PORT's addresses; SITE's commands.
      String.raw`[\r\n][\t ]*(?:x?cwd|x?mkd|x?rmd|stor|stou|appe|rnfr|rnto|nlst|mlsd|mlst|mdtm|smnt|size)[\t ]+(?:\S*[/\\~]|[\w-]+\.[a-z][a-z0-9]{0,3}\b)|` +
        String.raw`[\r\n][\t ]*(?:cdup|xcup|pasv|epsv|syst|feat|abor|rein|xpwd|mlsd)[\t ]*(?:[\r\n]|$)|` +
        String.raw`[\r\n][\t ]*(?:eprt[\t ]+\|[12]\||port[\t ]+\d{1,3}(?:,\d{1,3}){5})|` +
        String.raw`[\r\n][\t ]*site[\t ]+(?:exec|chmod|cpfr|cpto|umask|idle)\b`,
      { structuredOnly: true },
    ),
  ];
}
