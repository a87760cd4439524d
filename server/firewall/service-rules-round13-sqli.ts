import type { WafRule } from "./ruleset";
import type { RuleFn } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 13 (docs/decisions/529): what a grammar of SQL injections written from
 * the engines' manuals (tests/fixtures/firewall/sql-grammar.ts) found passing in a structured
 * value, read from its tuning sample only. Each reading needs SQL's own shape around the words:
 * a literal compared by an operator with a comment or a statement's end after it, a set operation
 * with a select list, a clause after a closed literal, a statement after ";". Structured values
 * only: a note may say "copy the letter from the program" or "or not at all".
 *
 * - svc-sqli-015, a condition that is always true or false, written with operators the older rules
 *   do not read: SQLite's GLOB, REGEXP and RLIKE, BETWEEN … AND …, IS [NOT] NULL, NOT n, and hex
 *   literals as operands ("OR 0x31=0x31"), then a comment, ";", a NUL or the end. "Gold or 2 is
 *   not null" has no comment or statement end after a literal; "A or not 1" has no closed literal
 *   or number before it.
 * - svc-sqli-016, a set operation (UNION, EXCEPT, INTERSECT, MINUS) whose select list is SQL's: NULL,
 *   a number list or a number closing the statement, "*", "@@", a call, or names then FROM. "Union
 *   Select Gold" and "Union Select 2000 HMO" are plan names.
 * - svc-sqli-017, a clause after a closed literal (a quote, a backtick or a parenthesis) ending the
 *   statement: FOR UPDATE or LOCK IN SHARE MODE (after a parenthesis only with a comment or ";"
 *   after it: "Plan (A) for update" is a note), LIMIT with an offset, INTO @variable, PROCEDURE
 *   ANALYSE; and Oracle's ROWNUM compared after AND or OR.
 * - svc-sqli-018, statements no value holds: PostgreSQL's COPY … FROM/TO PROGRAM (it runs a shell
 *   command) with a table's name and the program's string closed, then a statement's end or COPY's
 *   options ("copy 2 from program 'CHIP' today" is a note), and after ";" SQL Server's SHUTDOWN ended by a comment or WITH NOWAIT, or a
 *   variable set with SET @x=.
 */

// A literal as an operand: a number, a hex literal, a quoted string, TRUE, FALSE or NULL. Quoted
// strings are not bounded by a count: RE2 expands "{0,20}", and six of them cost a third more engine
// time on a 30,000-character value.
const OPERAND = String.raw`(?:-?\d+(?:\.\d+)?|0x[0-9a-f]+|'[^']*'|"[^"]*"|true|false|null)`;
// What closes an injected condition: a comment, the statement's end, a NUL, the value's end.
const CLOSE = String.raw`\s*\)*\s*(?:--|#|/\*|;|%00|\x00|$)`;
// Row locking clauses: "(A) for update" is a note unless a comment or ";" ends the statement.
const LOCKING = String.raw`for\s+update(?:\s+(?:nowait|skip\s+locked))?|lock\s+in\s+share\s+mode`;
// What a condition follows: the value's start, a closed literal or a number.
const AFTER_LITERAL = String.raw`(?:^|['"\x60)]|\d)\s*`;

export function round13SqliRules(rule: RuleFn): WafRule[] {
  return [
    rule(
      "svc-sqli-015",
      "sql_injection",
      "A condition always true or false written with GLOB, REGEXP, RLIKE, BETWEEN, IS [NOT] NULL, NOT n or hex literals, closed by a comment, ';' or the end",
      String.raw`\b(?:or|and|xor)\s+\(?\s*(?:not\s+)?${OPERAND}\s*(?:glob|regexp|rlike|like|=|<>|!=|<=>|<=?|>=?)\s*${OPERAND}${CLOSE}|` +
        String.raw`\b(?:or|and|xor)\s+\(?\s*${OPERAND}\s+(?:not\s+)?between\s+${OPERAND}\s+and\s+${OPERAND}${CLOSE}|` +
        String.raw`\b(?:or|and|xor)\s+\(?\s*${OPERAND}\s+is\s+(?:not\s+)?null${CLOSE}|` +
        String.raw`${AFTER_LITERAL}(?:or|and|xor|\|\||&&)\s+\(?\s*not\s+${OPERAND}${CLOSE}`,
      { structuredOnly: true },
    ),
    rule(
      "svc-sqli-016",
      "sql_injection",
      "UNION, EXCEPT, INTERSECT or MINUS with SQL's select list: NULL, numbers, *, @@, a call, or names then FROM",
      String.raw`\b(?:union|except|intersect|minus)(?:\s+(?:all|distinct))?\s*\(*\s*select\b\s*\(*\s*` +
        String.raw`(?:null\b|@@|\*|[\w.$]+\s*\(|-?\d+\s*(?:,|\)|\bfrom\b|--|#|/\*|;|$)|[\w.$]+(?:\s*,\s*[\w.$]+)*\s+from\b)`,
      { structuredOnly: true },
    ),
    rule(
      "svc-sqli-017",
      "sql_injection",
      "After a closed literal: FOR UPDATE, LOCK IN SHARE MODE, LIMIT with an offset, INTO @variable or PROCEDURE ANALYSE ending the statement; ROWNUM compared",
      String.raw`['"\x60]\s*(?:${LOCKING})${CLOSE}|\)\s*(?:${LOCKING})\s*(?:--|#|/\*|;|%00|\x00)|` +
        String.raw`['"\x60)]\s*(?:limit\s+\d+\s*(?:,|\s+offset\s+)\s*\d+|into\s+@\w+|procedure\s+analyse\s*\(\s*\))${CLOSE}|` +
        String.raw`\d\s+(?:limit\s+\d+\s*(?:,|\s+offset\s+)\s*\d+|into\s+@\w+)${CLOSE}|` +
        String.raw`\b(?:and|or)\s+rownum\s*(?:=|<>|!=|<=?|>=?)\s*\d`,
      { structuredOnly: true },
    ),
    rule(
      "svc-sqli-018",
      "sql_injection",
      "COPY … FROM/TO PROGRAM; after ';' SHUTDOWN closed by a comment or WITH NOWAIT, or SET @variable =",
      String.raw`\bcopy\s+[a-z_"][\w."$]*(?:\s*\([^()]*\))?\s+(?:from|to)\s+program\s+(?:e?'[^']*'|"[^"]*"|\$\w*\$)\s*(?:;|--|#|/\*|\)|\(|$|with\b|delimiter\b|csv\b)|` +
        String.raw`;\s*shutdown\s*(?:with\s+nowait|--|#|/\*|;)|;\s*set\s+@@?\w+\s*=`,
      { structuredOnly: true },
    ),
  ];
}
