import {
  CMDLETS,
  PROGRAMS,
  SQL_CATALOGS,
  SQL_FUNCTIONS,
  SQL_WORD_FUNCTIONS,
  SPANISH_WORD_PROGRAMS,
  WORD_PROGRAMS,
} from "./catalogues.generated";

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
// Built on first use, not at start: some 45,000 names take milliseconds the first answer need not
// wait for (the engine's warm-up, after it, builds them; decision 461).
let sets: {
  programs: Set<string>;
  wordPrograms: Set<string>;
  spanishWordPrograms: Set<string>;
  sqlFunctions: Set<string>;
  sqlWordFunctions: Set<string>;
  sqlCatalogs: Set<string>;
  cmdlets: Set<string>;
};
function catalogues(): typeof sets {
  sets ??= {
    programs: new Set(PROGRAMS.split(" ")),
    wordPrograms: new Set(WORD_PROGRAMS.split(" ")),
    spanishWordPrograms: new Set(SPANISH_WORD_PROGRAMS.split(" ")),
    sqlFunctions: new Set(SQL_FUNCTIONS.split(" ")),
    sqlWordFunctions: new Set(SQL_WORD_FUNCTIONS.split(" ")),
    sqlCatalogs: new Set(SQL_CATALOGS.split(" ")),
    cmdlets: new Set(CMDLETS.split(" ")),
  };
  return sets;
}

// Words that run the program after them: `;nohup htop`, `;sudo -u x htop`, `;timeout 5 htop`, and
// cmd.exe's `call` and `start` with its switches (`start /b whoami`; decision 501).
const RUNNER_WORD = String.raw`(?:exec|eval|nohup|sudo|doas|command|builtin|env|xargs|busybox|time|nice|strace|ltrace|call|start(?:[ \t]+/[a-z]+)*|timeout[ \t]+-?\d+[smhd]?)`;
const RUNNER = String.raw`(?:${RUNNER_WORD}[ \t]+)*`;
// The program's word: quoted or not, after a path (`/usr/bin/`, `bin/`, `./`, `C:\\Windows\\`).
const PROGRAM = String.raw`['"]?(?:[\w.~:-]*[/\\])*([a-z0-9][\w.+-]*)['"]?`;
// Windows's shell-shaped arguments (decision 485): a share (\\\\host), a drive or its path (c:, c:\\), a
// variable (%TEMP%).
const WINDOWS_ARGUMENT = String.raw`\\\\\w|[a-z]:(?:[\\/]|(?=\s|$))|%\w+%`;
// What follows a program a shell runs: nothing, a shell character, or arguments with one shaped
// like a shell's among the first four (an option, a path, a file name, a variable, a quoted word,
// an address, a Windows argument). "; callback tomorrow." has only words after it: a sentence.
const SHELL_ARGUMENT = String.raw`(?:-{1,2}[\w?]|[/~.$'"]|[\w.-]+/|[\w-]+=|\w+://|[\w-]+\.[a-z][a-z0-9]{0,3}(?![\w.])|${WINDOWS_ARGUMENT})`;
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
  String.raw`^[ \t]*(${RUNNER})${PROGRAM}(?:[ \t]+(?:(-{1,2}[\w?]|[/~$<>|;&]|${WINDOWS_ARGUMENT})|${PROGRAM}(?:\s*$|[ \t]*[;|&<>]))|\s*$)`,
  "i",
);
// After a separator, a program with a Windows switch glued to it, as cmd.exe reads it:
// "&ipconfig/all", "|netstat/an" (decision 488).
const GLUED_SWITCH = /(?:[\r\n;|&\x60]|\$\()[ \t]*([a-z0-9][\w.+-]*)\/[a-z?]/gi;
// After a separator, a program whose name is a word with options of one to three letters, in one case:
// "; ls -la", "; PS -EF". "first; last -2 years" has a number (decision 488).
const WORD_OPTION_AFTER_SEPARATOR = /(?:[\r\n;|&\x60]|\$\()[ \t]*([a-z][\w.+-]*)[ \t]+-([a-z]{1,3})(?![\w-])/gi;
// After a separator, a runner that is no English word, then any program, words included:
// "| timeout 5 sleep 10", ";nohup yes", "& sudo cat x" (decision 488).
const TECHNICAL_RUNNER_AFTER_SEPARATOR = new RegExp(
  String.raw`(?:[\r\n;|&\x60]|\$\()[ \t]*(?:nohup|sudo|doas|strace|ltrace|xargs|busybox|timeout[ \t]+-?\d+[smhd]?)[ \t]+${RUNNER}${PROGRAM}`,
  "gi",
);
// A catalogued program behind a word that runs it, whatever follows: "time nmap localhost",
// "nohup htop now" (decision 488).
const BEHIND_RUNNER = new RegExp(String.raw`^[ \t]*${RUNNER_WORD}[ \t]+${RUNNER}${PROGRAM}`, "i");
// Decision 479 also takes the shell-shaped argument after up to three plain words ("grep root
// /etc/passwd", "ansible all -m ping", "rustc main.rs").
const AT_START_LATER = new RegExp(
  String.raw`^[ \t]*${RUNNER}${PROGRAM}(?:[ \t]+[\w.,:@+-]+){0,3}[ \t]+${SHELL_ARGUMENT}`,
  "i",
);
// A program whose name is a word, typed in lower case at the start of a value, with an option after
// it: one letter alone ("expect -c", "sort -r x") or a long option ending the value, set with "=" or
// followed by another option ("docker --version", "octave --eval=x"). A search's exclusion is a word
// ("gold -hmo"), prose's dash has a space after it, and a phone capitalises a value's first word
// ("Group -A strep") (decision 488).
const WORD_WITH_OPTION = new RegExp(
  String.raw`^[ \t]*${RUNNER}([a-z0-9][a-z0-9.+-]*)[ \t]+(?:-[a-zA-Z](?:[ \t]|$)|--[a-z][\w-]*(?:=|[ \t]*$|[ \t]+-))`,
);
// A program named with Windows's ".exe" at the start of a value, whatever follows: "eventvwr.exe",
// "write.exe", "logger.exe RUN x" (LOLBAS's command lines). A visitor names a program, not its
// executable's file (decision 489).
const EXE_AT_START = /^[ \t]*['"]?(?:[\w.~:-]*[/\\])*([a-z0-9][\w+-]*)\.exe['"]?(?=\s|$)/i;
// A whole value that is a call's opening and nothing more: "char(", "select left(", "(trim (".
// Any catalogued function, words included: no visitor types a word and "(" alone.
const CALL_OPENING = /^\s*(?:select\s+|[(,]\s*)?([a-z_][\w$]*)\s*\(\s*$/i;
// A call: the name not glued to a word, a dot or a dollar before it, then "(" (spaces allowed).
const CALL = /(?:^|[^\w$.])([a-z_][\w$]*)\s*\(/gi;

// A word a shell's quoting disguises: quotes inside it twice or empty ("w'h'o'a'm'i", "wh''oami"),
// a backslash inside it ("ifco\\nfig"), or "$@", "$*" or "${}" (empty expansions) inside it. One
// apostrophe is a contraction or a name ("don't", "O'Brien") and is no disguise. Since decision 489
// also a word opening with a quoted part glued to the rest ('"i"d', "'c'at"; the quotes match, so
// '"I'd' is a quotation) and ANSI-C quoting anywhere in it ("$'who'ami", "wh$'o'ami").
const WORD = /(?:\$\{\}|[^\s;|&\x60<>(){}=,])+/g;
const DISGUISE =
  /\w(?:['"][^'"\s]*['"]|\\|\$[@*]|\$\{\})\w|\w(?:''|"")|(?:''|"")\w|^\$?(?:'[^'\s]+'|"[^"\s]+")\w|\$'[^'\s]*'/;
// A PowerShell cmdlet where a shell runs a command (decision 485): after a separator, a parenthesis,
// a brace, "&", "." or powershell's or pwsh's name and options, or at the start of a value with an
// argument shaped like PowerShell's among the first four (a parameter, a path, a variable, a script
// block, a pipe, a class name such as Win32_Process, an address). Cmdlets are Verb-Noun, which
// prose seldom hyphenates; "get-help" alone or "Copy-item from my letter" may still be a visitor's
// words.
const CMDLET_NAME = String.raw`([a-z]+-[a-z]+)(?![\w-])`;
const CMDLET = new RegExp(
  String.raw`(?:[;|&\r\n({}\x60.]|\$\()[ \t]*${CMDLET_NAME}|\b(?:powershell|pwsh)(?:\.exe)?(?:[ \t]+-\w+)*[ \t]+${CMDLET_NAME}|` +
    String.raw`^[ \t]*([a-z]+-[a-z]+)(?:[ \t]+[\w.,:+-]+){0,3}[ \t]+(?:-[a-z]|[/\\.~$@({|;&'"%]|\w+:|\w+_\w+|\d+(?:\.\d+){1,3}(?![\w.]))`,
  "gi",
);
// cmd.exe's IF comparing two strings or asking whether a variable or a file exists, then the
// command it runs (`if /?`): "if 1==1 hostname", "IF NOT DEFINED FOO netstat -an". The command must
// be one a shell knows: "IF coverage == yes" and "if a==b?" are questions.
const IF_CONDITION = String.raw`(?:"[^"\r\n]*"|[^\s=]+)\s*==\s*(?:"[^"\r\n]*"|[^\s=]+)|(?:defined|exist)\s+(?:"[^"\r\n]*"|\S+)`;
const IF_COMMAND = new RegExp(
  String.raw`(?:^|[&|;(\r\n]|\belse\s)[ \t]*@?if\s+(?:/i\s+)?(?:not\s+)?(?:${IF_CONDITION})\s+(?:\(\s*)?@?['"]?(?:[\w.~:-]*[/\\])*([a-z0-9][\w.+-]*)`,
  "gi",
);
// A value that opens with IF and a comparison written as cmd.exe writes it, "==" with no space on
// either side, then any word: "if a==b foo" (decision 488). Prose and questions space it ("IF
// coverage == yes") or end it ("if a==b?").
const GLUED_IF =
  /^[ \t]*@?if[ \t]+(?:\/i[ \t]+)?(?:not[ \t]+)?[^\s=,;?!]+==[^\s=,;?!]+[ \t]+(?:\([ \t]*)?@?([a-z][\w.-]*)/i;
// IF whose command is left open as a batch file's block opens it or as documentation elides it:
// "IF EXIST x.txt (", "if "%1"=="" ...". Prose ends a question with "?" (decision 488).
const IF_OPEN =
  /^[ \t]*@?if[ \t]+(?:\/i[ \t]+)?(?:not[ \t]+)?(?:(?:defined|exist|errorlevel|cmdextversion)[ \t]+[^\s(]+|[^\s=]+[ \t]*==[ \t]*[^\s=]+)[ \t]+(?:\.\.\.|\()[ \t]*$/i;
// Words a comparison is followed by in a sentence or in pseudo-code, not commands.
const NOT_A_COMMAND = new Set(["then", "else", "elif", "fi", "do", "done", "in", "not", "case", "while", "until"]);
// A table or view a database keeps about itself: an identifier with "_" ("pg_shadow", "tables_priv").
const CATALOG = /(?<![\w$])[a-z_][a-z0-9$]*(?:_[a-z0-9$]*)+(?![\w$])/gi;

/** A program's name as the catalogues hold it: lower case, without Windows's ".exe". */
function programName(word: string): string {
  return word.toLowerCase().replace(/\.exe$/, "");
}

/**
 * Whether a word names a catalogued program, with or without Windows's ".exe", or with a version
 * after it ("python3.10", "gcc10.1"): how a payload names the release it expects to find.
 */
function isProgram(word: string): boolean {
  const { programs } = catalogues();
  const name = programName(word);
  if (programs.has(name)) return true;
  // The name less its trailing digits, dots and hyphens, one at a time: "python3.10" is found as
  // "python3", "gcc-12" as "gcc" (a loop: no regular expression to backtrack).
  for (let end = name.length; end > 3 && /[\d.-]/.test(name[end - 1]!);) {
    end--;
    if (programs.has(name.slice(0, end))) return true;
  }
  return false;
}

/** The word as the shell reads it: quotes, backslashes and empty expansions gone, path dropped. */
function undisguised(word: string): string {
  const plain = word.replace(/\$[@*]|\$\{\}|\$(?=')|['"\\]/g, "").toLowerCase();
  return plain.slice(plain.lastIndexOf("/") + 1);
}

/** Builds the catalogues now (the engine's warm-up), so no visitor's request pays for it. */
export function warmCatalogues(): void {
  catalogues();
}

export interface CatalogueMatch {
  rule: "svc-cmdi-023" | "svc-sqli-013" | "svc-sqli-019";
  type: "command_injection" | "sql_injection";
}

const SHELL_CHARACTERS = /[\r\n;|&\x60]|\$\(/;
// After a separator, a catalogued program typed in lower case with words after it: "&& wget example",
// "| nmap scanme org". A visitor's clause after ";" or "&" opens with a word, a name, an abbreviation
// under three letters or a Spanish word ("Refill; call pharmacy", "Hola; todos los planes"), none of
// them in this catalogue (decision 489).
const AFTER_SEPARATOR_WITH_WORDS = /(?:[\r\n;|&\x60]|\$\()[ \t]*([a-z0-9][\w.+-]*)(?=[ \t]+[a-z0-9])/g;

/** Whether one structured value runs a catalogued program or calls a catalogued SQL function. */
export function catalogueMatch(value: string): CatalogueMatch | undefined {
  if (value.length < 3) return undefined;
  const { cmdlets, wordPrograms, spanishWordPrograms, programs, sqlFunctions, sqlWordFunctions, sqlCatalogs } =
    catalogues();
  // Every reading after a separator, behind one test for a separator.
  if (SHELL_CHARACTERS.test(value)) {
    for (const m of value.matchAll(AFTER_SEPARATOR))
      if (isProgram(m[1]!)) return { rule: "svc-cmdi-023", type: "command_injection" };
    for (const m of value.matchAll(AFTER_SEPARATOR_WITH_WORDS)) {
      const name = programName(m[1]!);
      if (isProgram(name) && !wordPrograms.has(name) && !spanishWordPrograms.has(name))
        return { rule: "svc-cmdi-023", type: "command_injection" };
    }
    for (const m of value.matchAll(GLUED_SWITCH))
      if (isProgram(m[1]!)) return { rule: "svc-cmdi-023", type: "command_injection" };
    for (const m of value.matchAll(WORD_OPTION_AFTER_SEPARATOR)) {
      const [, name, option] = m;
      const oneCase =
        (name === name!.toLowerCase() && option === option!.toLowerCase()) ||
        (name === name!.toUpperCase() && option === option!.toUpperCase());
      if (oneCase && wordPrograms.has(programName(name!))) return { rule: "svc-cmdi-023", type: "command_injection" };
    }
    for (const m of value.matchAll(TECHNICAL_RUNNER_AFTER_SEPARATOR)) {
      const name = programName(m[1]!);
      if (isProgram(name) || wordPrograms.has(name)) return { rule: "svc-cmdi-023", type: "command_injection" };
    }
  }
  const start = AT_START.exec(value);
  if (start && isProgram(start[2]!)) {
    const [, runner, , shellArgument, next] = start;
    if (shellArgument !== undefined || (next !== undefined && isProgram(next)) || (next === undefined && runner !== ""))
      return { rule: "svc-cmdi-023", type: "command_injection" };
  }
  const behindRunner = BEHIND_RUNNER.exec(value);
  if (behindRunner && isProgram(behindRunner[1]!)) return { rule: "svc-cmdi-023", type: "command_injection" };
  const later = AT_START_LATER.exec(value);
  if (later && isProgram(later[1]!)) return { rule: "svc-cmdi-023", type: "command_injection" };
  const exe = /\.exe/i.test(value) ? EXE_AT_START.exec(value) : null;
  if (exe && (isProgram(exe[1]!) || wordPrograms.has(programName(exe[1]!))))
    return { rule: "svc-cmdi-023", type: "command_injection" };
  const withOption = value.includes("-") ? WORD_WITH_OPTION.exec(value) : null;
  if (withOption && (wordPrograms.has(programName(withOption[1]!)) || isProgram(withOption[1]!)))
    return { rule: "svc-cmdi-023", type: "command_injection" };
  if (value.includes("-"))
    for (const m of value.matchAll(CMDLET))
      if (cmdlets.has((m[1] ?? m[2] ?? m[3])!.toLowerCase()))
        return { rule: "svc-cmdi-023", type: "command_injection" };
  if (/==|defined|exist/i.test(value))
    for (const m of value.matchAll(IF_COMMAND)) {
      const command = programName(m[1]!);
      if (isProgram(command) || (wordPrograms.has(command) && !NOT_A_COMMAND.has(command)))
        return { rule: "svc-cmdi-023", type: "command_injection" };
    }
  if (IF_OPEN.test(value)) return { rule: "svc-cmdi-023", type: "command_injection" };
  if (value.includes("==")) {
    const glued = GLUED_IF.exec(value);
    if (glued && !NOT_A_COMMAND.has(glued[1]!.toLowerCase()))
      return { rule: "svc-cmdi-023", type: "command_injection" };
  }
  if (/['"\\$]/.test(value))
    for (const [word] of value.matchAll(WORD))
      if (DISGUISE.test(word)) {
        const program = programName(undisguised(word));
        if (programs.has(program) || wordPrograms.has(program))
          return { rule: "svc-cmdi-023", type: "command_injection" };
      }
  const opening = value.endsWith("(") || /\(\s+$/.test(value) ? CALL_OPENING.exec(value) : null;
  if (opening) {
    const name = opening[1]!.toLowerCase();
    if (sqlFunctions.has(name) || sqlWordFunctions.has(name)) return { rule: "svc-sqli-013", type: "sql_injection" };
  }
  if (value.includes("("))
    for (const m of value.matchAll(CALL))
      if (sqlFunctions.has(m[1]!.toLowerCase())) return { rule: "svc-sqli-013", type: "sql_injection" };
  if (value.includes("_"))
    for (const [name] of value.matchAll(CATALOG))
      if (sqlCatalogs.has(name.toLowerCase())) return { rule: "svc-sqli-013", type: "sql_injection" };
  return undefined;
}

// Free text (decision 530). A note is prose, so the readings above never see it; two SQL shapes no
// sentence has are read there too:
// - a whole value that is the opening of a call to a function only SQL names ("substr(",
//   "GROUP_CONCAT("), the catalogue's non-word functions only: "trim(" and "char(" are words;
// - a statement's or a function's keyword written in alternating case ("sELecT", "UnIoN", "uNhEx"),
//   which only a filter's evasion writes, called with "(", glued to a comment, or followed by
//   another SQL word in alternating or upper case ("UnIoN SeLeCt"). Mocking text ("uPdAtE mE",
//   "FrOm 9 to 5") and names ("DeLeon") are not.
const EVASION_KEYWORDS = new Set(
  (
    "select union insert update delete drop truncate alter create from where having group order limit offset " +
    "exec execute declare waitfor delay sleep benchmark concat unhex hex ascii char substr substring " +
    "information_schema load_file outfile dumpfile procedure analyse"
  ).split(" "),
);
const SQL_KEYWORDS = new Set([
  ...EVASION_KEYWORDS,
  ..."all distinct and or xor not null into values set table by case when then else end like rlike regexp between exists version database user cast convert count".split(
    " ",
  ),
]);
const FREE_TEXT_CALL_OPENING = /^\s*([a-z_][\w$]*)\s*\(\s*$/i;
// A word with a lower-case letter before a capital inside it: the only words alternating case can be
// (one scan of the value; prose has few, and only they are looked up).
const MIXED_CASE_WORD = /(?<![A-Za-z_])[A-Za-z_]*[a-z][A-Z][A-Za-z_]*/g;
// What follows the word: a call's "(", a comment's "/*" or "*/", or the next word (comments skipped).
const AFTER_WORD = /[ \t]*(\(|\/\*|\*\/)|(?:\s|\/\*[^*]{0,40}\*\/)*([A-Za-z_]+)/y;

/**
 * Whether a word's letters change case at least twice ("sELecT", "SeLeCt", "UnIoN"; not "Select",
 * "SELECT", "SELect" or "sELECT"). A word with a lower-case letter before a capital changes case once
 * only when it is lower case then capitals.
 */
function alternatesCase(word: string): boolean {
  return /[a-z][A-Z]/.test(word) && !/^[a-z]+[A-Z_]+$/.test(word);
}

function isSqlWord(word: string): boolean {
  const { sqlFunctions, sqlWordFunctions } = catalogues();
  const lower = word.toLowerCase();
  return SQL_KEYWORDS.has(lower) || sqlFunctions.has(lower) || sqlWordFunctions.has(lower);
}

/** Whether one free-text value holds SQL no sentence has (the two readings above). */
export function freeTextMatch(value: string): CatalogueMatch | undefined {
  if (value.length < 3) return undefined;
  const opening = value.includes("(") ? FREE_TEXT_CALL_OPENING.exec(value) : null;
  if (opening && catalogues().sqlFunctions.has(opening[1]!.toLowerCase()))
    return { rule: "svc-sqli-019", type: "sql_injection" };
  for (const m of value.matchAll(MIXED_CASE_WORD)) {
    const word = m[0];
    if (!EVASION_KEYWORDS.has(word.toLowerCase()) || !alternatesCase(word)) continue;
    AFTER_WORD.lastIndex = m.index + word.length;
    const next = AFTER_WORD.exec(value);
    if (!next) continue;
    const [, punctuation, following] = next;
    if (punctuation !== undefined) return { rule: "svc-sqli-019", type: "sql_injection" };
    if (following && isSqlWord(following) && (alternatesCase(following) || /^[A-Z_]{2,}$/.test(following)))
      return { rule: "svc-sqli-019", type: "sql_injection" };
  }
  return undefined;
}
