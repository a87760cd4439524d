// Writes server/firewall/catalogues.generated.ts: the names of the programs Debian ships and of
// the functions PostgreSQL, MariaDB and SQLite define, less every English word and name
// (docs/decisions/481). Run by hand, on a Debian bookworm machine with the network:
//
//   apt-get install -y apt-file wamerican wamerican-insane wspanish && apt-file update
//   npx tsx scripts/firewall-catalogues.ts
//
// It needs: apt-file's Contents index (every file of every package in bookworm main), the
// postgresql-15 package's postgres.bki (pg_proc's rows), MariaDB's help tables (fetched with
// `apt-get download mariadb-server-core`, never installed), better-sqlite3's SQLite, and the
// wamerican word list. Since round 7 (docs/decisions/485) also bash (`compgen`), binutils'
// `strings`, Wine's cmd.exe (`apt-get download libwine`, about 100 MB, never installed) and a
// snapshot of PowerShell's repository at the pinned commit (POWERSHELL_REPO); since decision 488
// snapshots of GTFOBins and LOLBAS at pinned commits (GTFOBINS_REPO, LOLBAS_REPO) and the names of
// Microsoft's Windows Commands reference (catalogue-sources/windows-commands.txt). The firewall itself
// reads only the generated file.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

const OUT = path.join(import.meta.dirname, "..", "server", "firewall", "catalogues.generated.ts");
const WORDS = "/usr/share/dict/american-english-insane";
const COMMON_WORDS = "/usr/share/dict/american-english";
// The marketplace's own words: CMS's reference data and rules ("PCP", "CSR", "PUF"). Not the service's
// code, whose identifiers ("coalesce", "group_concat") are no visitor's words.
const DOMAIN = path.join(import.meta.dirname, "..", "..", "shared", "reference");
const BKI = "/usr/share/postgresql/15/postgres.bki";

function run(cmd: string, args: string[], cwd?: string): string {
  return execFileSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 30, cwd });
}

// Words a visitor types, in lower case, so no catalogue keeps them. Programs: every word and name
// of the largest word list (wamerican-insane: places, names, acronyms such as "PCP"). A function's
// name is read only before "(", which prose seldom writes straight after a word, so the smaller
// list (wamerican) is enough there and "substring(" or "coalesce(" stay in. Both: every word of the
// marketplace's own ("CSR", "PUF").
function wordList(file: string): Set<string> {
  return new Set(
    readFileSync(file, "utf8")
      .split("\n")
      .map((w) => w.toLowerCase().replace(/'s$/, "")),
  );
}
const everyWord = wordList(WORDS);
const commonWords = wordList(COMMON_WORDS);
const domainWords = new Set<string>();
function isWord(name: string, dictionary: Set<string>): boolean {
  if (dictionary.has(name) || domainWords.has(name)) return true;
  // Plurals and verb forms the list leaves out: "jobs", "tailed".
  for (const suffix of ["s", "es", "ed", "ing", "er"])
    if (name.endsWith(suffix) && dictionary.has(name.slice(0, -suffix.length))) return true;
  return false;
}
function addDomainWords(file: string): void {
  const stat = statSync(file);
  if (stat.isDirectory()) for (const entry of readdirSync(file)) addDomainWords(path.join(file, entry));
  else if (/\.(?:csv|json|md|txt|yaml)$/.test(file) && stat.size < 50_000_000)
    for (const word of readFileSync(file, "utf8")
      .toLowerCase()
      .match(/[a-z0-9][a-z0-9._+-]*/g) ?? [])
      domainWords.add(word);
}
addDomainWords(DOMAIN);
const work = mkdtempSync(path.join(tmpdir(), "catalogues-"));
// ---- programs: every file directly in /bin, /sbin, /usr/bin or /usr/sbin of any package in bookworm main
const programs = new Set<string>();
// The programs whose names are words ("cat", "who", "curl"): read only in a word a shell's quoting
// disguises ("c'a't", "wh\\o"), which no visitor types.
const wordPrograms = new Set<string>();
for (const line of run("apt-file", ["search", "--regexp", "^/(usr/)?s?bin/[^/]+$"]).split("\n")) {
  const file = line.split(": ")[1]?.trim();
  if (!file) continue;
  const name = file.slice(file.lastIndexOf("/") + 1).toLowerCase();
  // A name a shell word can spell, and not only digits and dots.
  if (name.length < 2 || !/^[a-z0-9][a-z0-9._+-]*$/.test(name) || /^[\d.]+$/.test(name)) continue;
  // Three characters at least (shorter ones are read by the rules of service-rules.ts with context).
  if (isWord(name, everyWord) || name.length < 3) wordPrograms.add(name);
  else programs.add(name);
}
// Windows's programs, as Wine ships them (cmd.exe runs them with or without ".exe").
for (const line of run("apt-file", ["search", "--regexp", "/wine/x86_64-windows/[^/]+\\.exe$"]).split("\n")) {
  const name = line
    .split(": ")[1]
    ?.trim()
    .split("/")
    .pop()
    ?.toLowerCase()
    .replace(/\.exe$/, "");
  if (!name || !/^[a-z0-9][a-z0-9._+-]*$/.test(name)) continue;
  if (isWord(name, everyWord) || name.length < 3) wordPrograms.add(name);
  else programs.add(name);
}

// Names a Debian package installs under another name and a maintainer script links (alternatives): a
// flavour after a dot ("nc.openbsd", "telnet.netkit") or a version after the name ("php8.2",
// "lua5.4", "gcc-12"). The bare name is what a payload types; it is not in the Contents index.
for (const name of [...programs, ...wordPrograms]) {
  const bare = /^([a-z][a-z0-9+-]*?[a-z+])(?:\.[a-z]+|-?\d+(?:\.\d+)*)$/.exec(name)?.[1];
  if (!bare || programs.has(bare) || wordPrograms.has(bare)) continue;
  if (isWord(bare, everyWord) || bare.length < 3) wordPrograms.add(bare);
  else programs.add(bare);
}

// ---- the shells' own command words, which no file holds (docs/decisions/485): bash's builtins and
// keywords (as this machine's bash lists them), cmd.exe's built-in commands (the table in Wine's
// cmd.exe), and PowerShell's aliases and cmdlets (PowerShell's source at a pinned commit, fetched
// to POWERSHELL; its aliases name Windows PowerShell's WMI cmdlets too). Cmdlets are hyphenated
// ("Get-ChildItem"), so no English word is one; the rest go through the same word filter.
const POWERSHELL = process.env.POWERSHELL_REPO ?? "/work/.mirror/PowerShell+PowerShell/repo";
const POWERSHELL_COMMIT = "929903692e550140efb5042ed05d65bfd21ccb5f";
const shellWords = new Set<string>();
for (const flag of ["-b", "-k"]) for (const w of run("bash", ["-c", `compgen ${flag}`]).split("\n")) shellWords.add(w);
run("apt-get", ["download", "libwine"], work);
const wine = readdirSync(work).find((f) => f.startsWith("libwine_") && f.endsWith(".deb"))!;
run("bash", ["-c", `dpkg-deb --fsys-tarfile ${wine} | tar -x --wildcards '*/x86_64-windows/cmd.exe'`], work);
const cmdExe = run("bash", ["-c", "find . -name cmd.exe | head -1"], work).trim();
// Its built-in table: the UTF-16 strings from CALL to EXIT, in upper case.
const cmdStrings = run("strings", ["-el", "-n", "2", cmdExe], work).split("\n");
const cmdTable = cmdStrings.slice(cmdStrings.indexOf("CALL"), cmdStrings.indexOf("EXIT") + 1);
for (const w of cmdTable) if (/^[A-Z]+$/.test(w)) shellWords.add(w);
const initialState = run(
  "git",
  ["show", `${POWERSHELL_COMMIT}:src/System.Management.Automation/engine/InitialSessionState.cs`],
  POWERSHELL,
);
const cmdlets = new Set<string>();
for (const m of initialState.matchAll(/SessionStateAliasEntry\("([^"]+)", "([^"]+)"/g)) {
  shellWords.add(m[1]!);
  if (/^[A-Za-z]+-[A-Za-z]+$/.test(m[2]!)) cmdlets.add(m[2]!.toLowerCase());
}
const cmdletSource = run(
  "git",
  [
    "grep",
    "-h",
    "-E",
    String.raw`\[Cmdlet\((Verbs[A-Za-z]+\.[A-Za-z]+|"[A-Za-z]+"), *"[A-Za-z0-9]+"`,
    POWERSHELL_COMMIT,
    "--",
    "src/*.cs",
  ],
  POWERSHELL,
);
for (const m of cmdletSource.matchAll(/\[Cmdlet\((?:Verbs[A-Za-z]+\.([A-Za-z]+)|"([A-Za-z]+)"), *"([A-Za-z0-9]+)"/g))
  cmdlets.add(`${m[1] ?? m[2]}-${m[3]}`.toLowerCase());
for (const raw of shellWords) {
  const name = raw.toLowerCase();
  if (!/^[a-z][a-z0-9_-]*$/.test(name) || programs.has(name) || wordPrograms.has(name)) continue;
  if (isWord(name, everyWord) || name.length < 3) wordPrograms.add(name);
  else programs.add(name);
}

// ---- programs attackers are documented to abuse, which Debian's Contents index misses (docs/decisions/488):
// GTFOBins's Unix programs (names a maintainer script links through alternatives, such as "awk",
// "telnet" and "java", or that Debian does not ship, such as "terraform" and "knife") and LOLBAS's
// Windows programs and scripts ("bitsadmin", "msedge", "pubprn"; not its libraries). Only the
// names are read: each project keeps one file per program. Both are pinned by commit.
const GTFOBINS = process.env.GTFOBINS_REPO ?? "/work/.mirror/GTFOBins+GTFOBins.github.io/repo";
const GTFOBINS_COMMIT = "7382261ef936e35896ba70e7a6b833352ffb9a22";
const LOLBAS = process.env.LOLBAS_REPO ?? "/work/.mirror/LOLBAS-Project+LOLBAS/repo";
const LOLBAS_COMMIT = "3403b338875b8a99a0cd7ba4ced5086e8d310bf7";
const abused = [
  ...run("git", ["ls-tree", "--name-only", GTFOBINS_COMMIT, "_gtfobins/"], GTFOBINS).split("\n"),
  ...run(
    "git",
    ["ls-tree", "--name-only", LOLBAS_COMMIT, "yml/OSBinaries/", "yml/OtherMSBinaries/", "yml/OSScripts/"],
    LOLBAS,
  ).split("\n"),
];
// Windows's console commands as Microsoft's reference lists them (catalogue-sources/windows-commands.txt).
const windowsCommands = readFileSync(
  path.join(import.meta.dirname, "catalogue-sources", "windows-commands.txt"),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "" && !line.startsWith("#"));
for (const file of [...abused, ...windowsCommands]) {
  const name = path
    .basename(file)
    .replace(/\.(?:yml|md)$/, "")
    .toLowerCase();
  if (!/^[a-z0-9][a-z0-9._+-]*$/.test(name) || programs.has(name) || wordPrograms.has(name)) continue;
  if (isWord(name, everyWord) || name.length < 3) wordPrograms.add(name);
  else programs.add(name);
}

// ---- SQL functions
const functions = new Set<string>();
// Functions whose names are words or abbreviations ("char", "left", "avg"): read only as a whole
// value that is the call's opening, "char(" or "select left(" (catalogue.ts).
const wordFunctions = new Set<string>();
function addFunction(raw: string): void {
  const name = raw.toLowerCase();
  if (!/^[a-z_][a-z0-9_$]*$/.test(name)) return;
  // Four characters at least unless a digit or underscore shows it is no abbreviation ("avg", "cid" stay out).
  if ((name.length < 4 && !/[\d_]/.test(name)) || isWord(name, commonWords)) {
    if (name.length >= 2) wordFunctions.add(name);
    return;
  }
  functions.add(name);
}
// PostgreSQL 15: pg_proc's rows in the bootstrap catalogue; the name is the second field.
let inProc = false;
for (const line of readFileSync(BKI, "utf8").split("\n")) {
  if (line.startsWith("create ")) inProc = line.startsWith("create pg_proc ");
  else if (inProc && line.startsWith("insert ( ")) addFunction(line.split(/\s+/)[3]!);
}
// MariaDB 10.11: the help topics whose text shows them called, NAME(...).
run("apt-get", ["download", "mariadb-server-core"], work);
const deb = readdirSync(work).find((f) => f.startsWith("mariadb-server-core") && f.endsWith(".deb"))!;
run("dpkg-deb", ["-x", deb, "x"], work);
const help = readFileSync(path.join(work, "x/usr/share/mysql/fill_help_tables.sql"), "utf8");
// Underscores in a topic's name are escaped there ("LOAD\\_FILE").
for (const m of help.matchAll(/VALUES \(\d+, \d+, '([A-Z](?:[A-Z0-9_]|\\\\_)*)', '((?:[^'\\]|\\.|'')*)'/g)) {
  const name = m[1]!.replaceAll("\\", "");
  if (m[2]!.replaceAll("\\_", "_").toUpperCase().includes(`${name}(`)) addFunction(name);
}
// SQLite, as better-sqlite3 builds it.
const sqlite = new Database(":memory:");
const sqliteVersion = (sqlite.prepare("SELECT sqlite_version() AS v").get() as { v: string }).v;
for (const row of sqlite.prepare("SELECT name FROM pragma_function_list").all() as Array<{ name: string }>)
  addFunction(row.name);

// ---- the databases' own tables and views: an identifier with "_" or a digit, five characters at
// least, that is no word ("pg_shadow", "tables_priv", "sqlite_sequence"); "user" or "db" are not.
const catalogs = new Set<string>();
function addCatalog(raw: string): void {
  const name = raw.toLowerCase().replaceAll("`", "");
  if (!/^[a-z_][a-z0-9_$]*$/.test(name) || name.length < 5 || !/[\d_]/.test(name)) return;
  if (isWord(name, commonWords)) return;
  catalogs.add(name);
}
const PG_SHARE = path.dirname(BKI);
for (const m of readFileSync(BKI, "utf8").matchAll(/^create (\w+) /gm)) addCatalog(m[1]!);
for (const file of ["system_views.sql", "information_schema.sql"])
  for (const m of readFileSync(path.join(PG_SHARE, file), "utf8").matchAll(/CREATE (?:OR REPLACE )?VIEW ([\w.]+)/gi))
    addCatalog(m[1]!.split(".").pop()!);
for (const m of readFileSync(path.join(work, "x/usr/share/mysql/mysql_system_tables.sql"), "utf8").matchAll(
  /CREATE (?:TABLE|VIEW) IF NOT EXISTS ([\w`.]+)/gi,
))
  addCatalog(m[1]!.split(".").pop()!);
// SQLite's: a table with AUTOINCREMENT and ANALYZE make it create its sequence and statistics tables.
sqlite.exec(
  "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, v); INSERT INTO t (v) VALUES (1); CREATE INDEX tv ON t (v); ANALYZE;",
);
for (const row of sqlite.prepare("SELECT name FROM pragma_table_list").all() as Array<{ name: string }>)
  addCatalog(row.name);
sqlite.close();

// ---- programs whose names are Spanish words (decision 489): the marketplace's other language. Read
// by the readings that take a program followed by plain words, where "; busco un plan" or "Hola;
// todos los planes" is a visitor's sentence. The Spanish word list (wspanish) and the service's own
// Spanish text (app/i18n/locales/es*.json).
const SPANISH_WORDS = "/usr/share/dict/spanish";
const spanishWords = wordList(SPANISH_WORDS);
const LOCALES = path.join(import.meta.dirname, "..", "app", "i18n", "locales");
for (const file of readdirSync(LOCALES).filter((f) => /^es.*\.json$/.test(f)))
  for (const word of readFileSync(path.join(LOCALES, file), "utf8")
    .toLowerCase()
    .match(/[a-z0-9][a-z0-9._+-]*/g) ?? [])
    spanishWords.add(word);
const spanishPrograms = [...programs].filter((name) => isWord(name, spanishWords));

const versions = run("dpkg-query", [
  "-W",
  "-f",
  "${Package} ${Version}\n",
  "postgresql-15",
  "wamerican",
  "wamerican-insane",
  "wspanish",
  "apt-file",
  "bash",
]).trim();
const contents = run("bash", [
  "-c",
  "ls -l --time-style=+%F /var/lib/apt/lists/*bookworm_main_Contents-amd64.lz4 | awk '{print $6}'",
]).trim();
const body = `// Generated by scripts/firewall-catalogues.ts on ${new Date().toISOString().slice(0, 10)}; do not edit by hand (docs/decisions/481).
// Sources: Debian bookworm main's Contents index (${contents}), ${versions.replaceAll("\n", ", ")},
// bash's builtins and keywords, cmd.exe's built-in table (${wine}), PowerShell's source at ${POWERSHELL_COMMIT.slice(0, 10)},
// the program names of GTFOBins at ${GTFOBINS_COMMIT.slice(0, 10)} and LOLBAS at ${LOLBAS_COMMIT.slice(0, 10)}, Microsoft's Windows Commands at 00a78d4129,
// mariadb-server-core's help tables (${deb}), SQLite ${sqliteVersion} (better-sqlite3).
// English words and names (wamerican-insane for programs, wamerican for functions) and the marketplace's own words are left out;
// programs named by a Spanish word (wspanish, the service's Spanish text) are listed apart.

/** Programs in /bin, /sbin, /usr/bin or /usr/sbin of a Debian package, and Windows's as Wine ships them, space-separated (${programs.size}). */
export const PROGRAMS =
  ${JSON.stringify([...programs].sort().join(" "))};

/** Programs whose names are words or shorter than three characters, space-separated (${wordPrograms.size}). */
export const WORD_PROGRAMS =
  ${JSON.stringify([...wordPrograms].sort().join(" "))};

/** Programs of PROGRAMS whose names are Spanish words, space-separated (${spanishPrograms.length}). */
export const SPANISH_WORD_PROGRAMS =
  ${JSON.stringify(spanishPrograms.sort().join(" "))};

/** PowerShell's cmdlets and the ones its aliases name, in lower case, space-separated (${cmdlets.size}). */
export const CMDLETS =
  ${JSON.stringify([...cmdlets].sort().join(" "))};

/** Functions PostgreSQL, MariaDB or SQLite define, space-separated (${functions.size}). */
export const SQL_FUNCTIONS =
  ${JSON.stringify([...functions].sort().join(" "))};

/** Functions whose names are words or abbreviations, space-separated (${wordFunctions.size}). */
export const SQL_WORD_FUNCTIONS =
  ${JSON.stringify(
    [...wordFunctions]
      .filter((name) => !functions.has(name))
      .sort()
      .join(" "),
  )};

/** Tables and views PostgreSQL, MariaDB or SQLite keep about themselves, space-separated (${catalogs.size}). */
export const SQL_CATALOGS =
  ${JSON.stringify([...catalogs].sort().join(" "))};
`;
writeFileSync(OUT, body);
console.log(
  `${programs.size} programs, ${functions.size} SQL functions, ${catalogs.size} catalog tables → ${path.relative(process.cwd(), OUT)}`,
);
