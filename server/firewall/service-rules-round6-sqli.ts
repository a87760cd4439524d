import type { WafRule } from "./ruleset";
import type { RuleFn } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 6 (docs/decisions/483): a SQL statement standing whole in a value, written
 * from SQL's own grammar (MySQL, PostgreSQL, SQL Server, Oracle), never from a corpus string. A
 * visitor may write "drop the plan", "Drop table reservation" or "delete from my list"; no visitor
 * writes a stacked DROP, a quoted, qualified or snake_case table's DDL, or a DELETE with its WHERE
 * comparison. Structured values only.
 */

// SQL's quoting of a name: `name`, "name", [name].
const QUOTING = String.raw`\x60[^\x60]+\x60|"[^"]+"|\[[^\]]+\]`;
// A table, database or column name as SQL writes it: bare or quoted, possibly schema.name.
const NAME = String.raw`(?:[\w$]+|${QUOTING})(?:\.(?:[\w$]+|${QUOTING}))*`;
// A name only SQL writes so: quoted or qualified ("users" and `users` are words too).
const QUOTED = String.raw`(?:${QUOTING}|[\w$]+\.[\w$]+)`;
// What DDL acts on.
const OBJECT = String.raw`(?:table|database|schema|view|index|procedure|function|trigger|user|login|sequence|tablespace|event)`;

export function round6SqliRules(rule: RuleFn): WafRule[] {
  return [
    rule(
      "svc-sqli-014",
      "sql_injection",
      "A SQL statement whole: DROP/TRUNCATE/ALTER a named object, DELETE FROM … WHERE a comparison, MERGE INTO … USING, USE a system database, a SQL Server database..table name, WAITFOR TIME, ORDER BY a column number then LIMIT",
      String.raw`;\s*(?:drop|truncate)\s+${OBJECT}\s+(?:if\s+exists\s+)?${NAME}|` +
        String.raw`\b(?:drop|truncate)\s+${OBJECT}\s+(?:if\s+exists\s+)?(?:${QUOTED}|[\w$]+_[\w$]*)\s*(?:;|--|#|/\*|$)|` +
        String.raw`\b(?:drop|truncate)\s+${OBJECT}\s+(?:if\s+exists\s+)?${NAME}\s*(?:;|--|#|/\*|\bcascade\b|\brestrict\b)|` +
        String.raw`\balter\s+${OBJECT}\s+${NAME}\s+(?:add|drop|modify|change|rename|alter|owner|set|convert|engine|character|disable|enable|with|identified)\b|` +
        String.raw`\bdelete\s+(?:from\s+)?${NAME}\s+where\s+(?:not\s+)?[\w'"\x60@().]+\s*(?:=|<>|!=|<=?|>=?|\blike\b|\bin\s*\(|\bis\s+(?:not\s+)?null\b|\bbetween\b)|` +
        String.raw`\bmerge\s+into\s+${NAME}\s+(?:(?:as\s+)?\w+\s+)?using\b|` +
        String.raw`\buse\s+(?:master|tempdb|msdb|mysql|information_schema|performance_schema|pg_catalog)\s*(?:;|--|#|$)|` +
        String.raw`\b(?:master|tempdb|msdb|model)\s*\.\s*(?:dbo\s*)?\.\s*\w+|` +
        String.raw`\bwaitfor\s+(?:delay|time)\s+['"N]|` +
        String.raw`\border\s+by\s+\d+(?:\s*,\s*\d+)*(?:\s+(?:asc|desc))?\s+limit\s+\d+`,
      { structuredOnly: true },
    ),
  ];
}
