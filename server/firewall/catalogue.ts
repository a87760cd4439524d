import { PROGRAMS, SQL_FUNCTIONS } from "./catalogues.generated";

/**
 * Readings by catalogue (docs/decisions/481): a program Debian ships run after a shell separator,
 * and a function PostgreSQL, MariaDB or SQLite defines called with "(". The hand-written rules
 * name the programs and functions attacks were seen to use; a catalogue names all of them, so a
 * payload built on one nobody listed is still read. English words and names are not in either
 * catalogue (scripts/firewall-catalogues.ts), and this runs only on structured values, never on
 * free text.
 *
 * The lists hold tens of thousands of names: too many for one of libddwaf's expressions, so the
 * engine asks here, by set lookup, after libddwaf found nothing (engine.ts).
 */
const programs = new Set(PROGRAMS.split(" "));
const sqlFunctions = new Set(SQL_FUNCTIONS.split(" "));

// Words that run the program after them: `;nohup htop`, `;sudo -u x htop`, `;timeout 5 htop`.
const RUNNER = String.raw`(?:(?:exec|eval|nohup|sudo|doas|command|builtin|env|xargs|busybox|time|nice|strace|ltrace|timeout[ \t]+-?\d+[smhd]?)[ \t]+)*`;
// The program's word: quoted or not, after a path (`/usr/bin/`, `bin/`, `./`).
const PROGRAM = String.raw`['"]?(?:[\w.~-]*/)*([a-z0-9][\w.+-]*)['"]?`;
// What follows a program a shell runs: nothing, a shell character, or arguments with one shaped
// like a shell's among the first four (an option, a path, a variable, a quoted word, an address).
// "; callback tomorrow." has only words after it: a sentence.
const SHELL_ARGUMENT = String.raw`(?:-{1,2}[\w?]|[/~.$'"]|[\w.-]+/|[\w-]+=|\w+://)`;
const SHELL_TAIL = String.raw`(?=\s*$|[ \t]*[;|&\x60)}#<>'"$]|(?:[ \t]+[\w.,:@+-]+){0,3}[ \t]+${SHELL_ARGUMENT})`;
// After a separator actually typed (`;`, `|`, `&`, a backtick, `$(` or a line break).
const AFTER_SEPARATOR = new RegExp(
  String.raw`(?:[\r\n;|&\x60]|\$\()[ \t]*(?:[({][ \t]*)?${RUNNER}${PROGRAM}${SHELL_TAIL}`,
  "gi",
);
// At the start of a value a program needs a shell-shaped argument, a program after it, or a word
// that runs it before it: "strace ifconfig", "nohup htop" and "htop -d 5" are command lines;
// "ssh", "nano clinic" and "wget help" are searches (docs/decisions/479).
const AT_START = new RegExp(
  String.raw`^[ \t]*(${RUNNER})${PROGRAM}(?:[ \t]+(?:(-{1,2}[\w?]|[/~$<>|;&])|${PROGRAM}(?:\s*$|[ \t]*[;|&<>]))|\s*$)`,
  "i",
);
// A call: the name not glued to a word, a dot or a dollar before it, then "(" (spaces allowed).
const CALL = /(?:^|[^\w$.])([a-z_][\w$]*)\s*\(/gi;

export interface CatalogueMatch {
  rule: "svc-cmdi-023" | "svc-sqli-013";
  type: "command_injection" | "sql_injection";
}

const SHELL_CHARACTERS = /[\r\n;|&\x60]|\$\(/;

/** Whether one structured value runs a catalogued program or calls a catalogued SQL function. */
export function catalogueMatch(value: string): CatalogueMatch | undefined {
  if (value.length < 3) return undefined;
  if (SHELL_CHARACTERS.test(value))
    for (const m of value.matchAll(AFTER_SEPARATOR))
      if (programs.has(m[1]!.toLowerCase())) return { rule: "svc-cmdi-023", type: "command_injection" };
  const start = AT_START.exec(value);
  if (start && programs.has(start[2]!.toLowerCase())) {
    const [, runner, , shellArgument, next] = start;
    if (
      shellArgument !== undefined ||
      (next !== undefined && programs.has(next.toLowerCase())) ||
      (next === undefined && runner !== "")
    )
      return { rule: "svc-cmdi-023", type: "command_injection" };
  }
  if (value.includes("("))
    for (const m of value.matchAll(CALL))
      if (sqlFunctions.has(m[1]!.toLowerCase())) return { rule: "svc-sqli-013", type: "sql_injection" };
  return undefined;
}
