import type { WafRule } from "./ruleset";
import type { RuleFn } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 7 (docs/decisions/486): readings written from protocol and shell
 * references, not from corpus strings. Structured values only.
 *
 * - svc-crlf-006: a line break, then a mail command that svc-crlf-001's list lacked. The verbs are
 *   the whole command sets of SMTP (RFC 5321, with STARTTLS RFC 3207, AUTH RFC 4954, BDAT RFC 3030,
 *   ETRN RFC 1985, ATRN RFC 2645), POP3 (RFC 1939, with CAPA RFC 2449, STLS RFC 2595) and IMAP
 *   (RFC 9051 and the extensions the IANA registry lists: MOVE, ENABLE, NAMESPACE, QUOTA, ACL, SORT,
 *   THREAD, METADATA, COMPRESS, NOTIFY). A verb alone on its line is read in capitals only ("help"
 *   on a line of an address is a word); an IMAP command needs its tag with a digit ("a1 CHECK").
 * - svc-cmdi-025: bash's history expansion (bash(1), HISTORY EXPANSION): "!-1" re-runs the command
 *   before, "!?word?" the last one holding it. "!!" is left alone: prose writes it.
 * - svc-cmdi-026 (decision 488): a path whose bracket expression holds a slash ("/[e//]tc", which
 *   bash leaves as written and some globbing reads as "/etc"; svc-cmdi-007 reads brackets without
 *   one), and a path under bash's tilde prefixes for the working directories ("~+/x", "~-/.ssh",
 *   "~+2/": TILDE EXPANSION), which no address or name writes. "~+/- 5%" is a tolerance and "cd ~-"
 *   alone is in the round 5 benign list: both pass. In any case, since cmd.exe and a shell on a
 *   case-insensitive file system read capitals: cd into a path or a standard top directory followed
 *   by a separator ("CD /;CD ETC;…"; "CD rates; savings" passes), and a network command at an IPv4
 *   address after a separator. Then two of bash's EXPANSION forms whatever words they hold: brace
 *   expansion with a path, a variable or an option among its words ("{x,/etc/hosts}", "{foo,-l}";
 *   "{red,green}" is in the round 4 benign list and passes; a word has no quote or colon, so a JSON
 *   object is none), and parameter expansion of a name
 *   written as the environment writes one, a special parameter, or with an operator ("${PATH}",
 *   "${#x}", "${x:0:1}"; "${amount}" is in the first benign list and passes).
 */
const BARE_MAIL_VERB =
  "STARTTLS|STLS|CAPA|UIDL|HELP|TURN|EXPUNGE|CHECK|CLOSE|UNSELECT|NAMESPACE|LOGOUT|CAPABILITY|NOOP|RSET|AUTH|ATRN|IDLE|DONE";
// IMAP commands after a tag with a digit ("a1"): alone on their line, on a message sequence set, or
// with their argument.
const IMAP_ALONE = "check|close|expunge|unselect|namespace|unauthenticate|xlist";
const IMAP_ON_SET = "move|copy|sort|thread|esearch|replace|fetch|store";
const IMAP_WITH_ARGUMENT =
  "enable|getquota|getquotaroot|setquota|getacl|setacl|deleteacl|listrights|myrights|getmetadata|setmetadata|notify|compress";
const TAG = String.raw`[a-z]*\d[a-z0-9.]{0,9}[\t ]+`;
const LINE_END = String.raw`[\t ]*(?:[\r\n]|$)`;

// The top directories of the Filesystem Hierarchy Standard 3.0: "cd etc;" names a directory.
const FHS_DIRECTORY = "(?:etc|tmp|var|usr|bin|sbin|lib|opt|root|home|dev|proc|sys|srv|boot|mnt|media|run)";
// Files a user's programs keep secrets or start-up commands in, named by each program's manual: bash(1)
// and zsh's start-up files and histories, OpenSSH's (ssh(1), sshd(8)), Git's, PostgreSQL's (psql),
// MySQL's, netrc(5), vim's, less's, mail forwarding, X's, npm's, pip's, Apache's per-directory files
// (decision 488). svc-lfi-001 names the ones seen in the tuning corpora (.env, .git, .ssh …).
const DOTFILE =
  "bashrc|bash_profile|bash_login|bash_logout|profile|inputrc|zshrc|zprofile|zshenv|zlogin|zsh_history|" +
  "rhosts|shosts|netrc|pgpass|psql_history|my\\.cnf|mysql_history|gitconfig|git-credentials|viminfo|vimrc|lesshst|" +
  "forward|Xauthority|xinitrc|xsession|pypirc|htdigest|user\\.ini|DS_Store|python_history|node_repl_history|sqlite_history|rediscli_history";
// Programs that reach an address (svc-cmdi-001's network commands that are no words).
const NET = "nc|ncat|netcat|telnet|ping|nslookup|traceroute|tracert|socat";

export function round7Rules(rule: RuleFn): WafRule[] {
  return [
    rule(
      "svc-crlf-006",
      "http_protocol_violation",
      "A line break, then an SMTP, POP3 or IMAP command svc-crlf-001 does not name",
      String.raw`[\r\n][\t ]*(?:(?:${BARE_MAIL_VERB}|LIST[\t ]+\d+)${LINE_END}|(?i:(?:etrn|atrn)[\t ]+[\w.@-]+${LINE_END}|bdat[\t ]+\d+\b|` +
        String.raw`${TAG}(?:${IMAP_ALONE})${LINE_END}|${TAG}(?:uid[\t ]+)?(?:${IMAP_ON_SET})[\t ]+(?:[\d:*,]+|\()|${TAG}(?:${IMAP_WITH_ARGUMENT})[\t ]+\S))`,
      { structuredOnly: true, caseSensitive: true },
    ),
    rule(
      "svc-cmdi-025",
      "command_injection",
      "bash's history expansion: !-n or !?word?",
      String.raw`(?:^|[\s;|&\x60(])!(?:-\d+|\?[^?\s]+\??)(?:[\s:!;|&)]|$)`,
      { structuredOnly: true },
    ),
    rule(
      "svc-cmdi-026",
      "command_injection",
      "A path's bracket expression holding a slash; a path under ~+ or ~-; in any case, a chain of cd and a network command at an address after a separator; brace expansion with a path, variable or option; an environment variable's or an operator's parameter expansion",
      String.raw`(?:^|[\s;|&=])/(?:[\w.?*]*/)*[\w.]*\[[!^]?[\w/?*-]{0,4}/[\w/?*-]{0,4}\][\w.?*]*|` +
        String.raw`(?:^|[\s;|&=(\x60])~[+-]\d*/(?:[^\s+\-]|$)|` +
        // cmd.exe and shells read commands in any case: a chain of directory changes, and a network
        // command at an address after a separator ("CD /;CD ETC;…", "| NC 10.0.0.1 4444").
        String.raw`(?i:^[\t ]*cd[\t ]+(?:[/~.\\][^\s;|&]*|${FHS_DIRECTORY})[\t ]*[;|&]|[;|&\r\n][\t ]*cd[\t ]+(?:[\w.~-]*[/\\][\w./\\~-]*|${FHS_DIRECTORY})[\t ]*[;|&]|` +
        String.raw`[;|&\x60\r\n][\t ]*(?:${NET})[\t ]+(?:-[a-z]+[\t ]+(?:\d+[\t ]+)?)*\d{1,3}(?:\.\d{1,3}){3}\b)|` +
        // Shell expansions whatever words they hold: brace expansion with a path, a variable or an
        // option in it, and a variable named as the environment names them or with an operator.
        String.raw`\{[\w./~$*?@+=-]*,[\w./~$*?@+=-]*[/~$][\w./~$*?@+=-]*\}|\{[\w./~$*?@+=-]*[/~$][\w./~$*?@+=-]*,[\w./~$*?@+=-]*\}|\{[\w./~$*?@+=-]*,-[\w./~$*?@+=-]*\}|\{-[\w./~$*?@+=-]*,[\w./~$*?@+=-]*\}|\$\{(?:[A-Z_][A-Z0-9_]*|\d+|[@*#?$!-]|[#!]\w+)\}|\$\{[#!]?\w+(?:\[[^\]]*\])?[:#%/^,@-][^}\r\n]{0,40}\}`,
      { structuredOnly: true, caseSensitive: true },
    ),
    rule(
      "svc-lfi-007",
      "lfi",
      "A user's start-up, history or credentials file named alone or at the end of a path",
      String.raw`(?:^|[\s/\\=;|&])\.(?:${DOTFILE})(?:$|[\s;|&])`,
      { structuredOnly: true, caseSensitive: true },
    ),
  ];
}
