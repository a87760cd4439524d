import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import { round5SqliRules } from "../../../server/firewall/service-rules-round5-sqli";
import { FREE_TEXT_LOCATIONS, LOCATIONS, locationsBlocking, type AnyLocation } from "../../fixtures/firewall/measure";

/**
 * Issue 30 item 4, round 5, SQL injection (docs/decisions/471-474): each reading with examples
 * written here (no corpus string copied), refused in every structured place and, for svc-sqli-011,
 * in free text too; every ordinary input of benign-round5-sqli.json passing everywhere.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

const blockedIn = (value: string, locations: readonly AnyLocation[]) => locationsBlocking(engine, value, locations);

// The round's own patterns, compiled as JavaScript regular expressions (the same text RE2 reads:
// no look-around, no back-reference), to show each example is read by the rule it was written for
// and not only by an earlier one.
const PATTERNS = new Map(
  round5SqliRules((id, _type, _name, regex) => ({ id, regex }) as never).map((rule) => {
    const { id, regex } = rule as unknown as { id: string; regex: string };
    return [id, new RegExp(regex, "i")] as const;
  }),
);

const SHAPES: Record<string, { rule: string; examples: string[] }> = {
  "boolean and error tests on a numeric comparison": {
    rule: "svc-sqli-008",
    examples: [
      "7 AND IIF(3=3,1,1/0)=1",
      "2' AND ELT(5=5,9)-- x",
      "9) AND IF(8>2,1,0),1",
      "5;IF(6=6) WAITFOR DELAY '0:0:3'",
      "3 AND (8=8)*9",
      "4' OR 2*(7=7)>1-- x",
      "42 AND CASE WHEN 9=9 THEN 3 ELSE NULL END",
      "8) OR CASE WHEN (2>1) THEN 5 ELSE JSON('zz') END-- x",
      "11 AND 1=(CASE WHEN 1=2 THEN 1 ELSE 1/0 END)",
      "6' WHERE 3=3-- x",
      "7 WHERE 4=4",
      "(SELECT 2 WHERE 8=8 OR 9=9)",
      "5 OR NOT 6=7",
      "abc, AND 12=12 z",
      "`a`=`a` OR 1",
      "x IN BOOLEAN MODE) OR 1-- x",
    ],
  },
  "heavy queries, stacked calls, dollar quoting, WAITFOR spelt otherwise": {
    rule: "svc-sqli-009",
    examples: [
      "3 AND REGEXP_SUBSTRING(REPEAT('a',99),NULL)",
      "4' OR 'k'=REPEAT(MD5(2),9000000)-- x",
      "4 AND CRYPT_KEY('AES',NULL) IS NULL",
      "7'; CALL sys.do_sleep(3)-- x",
      "x$$ ;SELECT pg_sleep(4)-- x",
      "9$$ AND 'zz'='zz",
      "1'),NULL) wtfor delay '0:0:9'--",
      "2') OR slow(__X__)='",
    ],
  },
  "tamper-script spellings": {
    rule: "svc-sqli-010",
    examples: [
      "9 sel/*x*/ect 3",
      "7 AND ABS/**/(4)=4",
      "%U%N%I%O%N %S%E%L%E%C%T",
      "8+AND+4=4",
      "8+union+all+select+3",
      "0x756e696f6e2073656c656374",
      "0x730065006c0065006300740020003100",
      "4,0x71787671,9",
      "\\x27 or \\x27z\\x27=\\x27z",
      "=\\x3D",
      "8Dunion select 2",
      "4 from 7.e.columns",
      "5 UNION DISTINCT SELECT 6",
      "3/*'*/",
      "5 IS \\N",
      "DIV(9,-3)",
      "'[1]' ?& array['k']",
      "(&&3)",
      "pass*/=2--",
      "SELECT*/ 4,5",
      "ASC,(select 1)",
      "1'*1*'",
      "'&&'",
      "{call sp_who}",
      "{fn user()}",
    ],
  },
  "SQL's own literals and statements": {
    rule: "svc-sqli-012",
    examples: [
      "9' COLLATE utf8mb4_bin='z",
      "@v:=CONCAT(1)",
      "7 INTO @q,@r",
      "5 OR x'4a'",
      "'a' XOR 'b'",
      "2'and'2",
      "6 OR utc_timestamp",
      "x'; INSERT INTO t(a) VALUES(1)",
      "DROP TABLE IF EXISTS t",
      "t1; DROP TABLE t2;",
      "x'; UPDATE t SET a='b",
      "4 GROUP BY b WITH ROLLUP",
      "x' ON DUPLICATE KEY UPDATE p=2-- x",
      "9 LOCK IN SHARE MODE",
      "x' OR n LIKE BINARY 'Q",
      "x' OR 'b' GLOB 'b",
      "3 !< 4",
      "2 LEFT OUTER JOIN t ON 1=1",
      "x' SET NAMES latin1-- x",
      "@`v`",
      "x' AND n LIKE 'a!%' ESCAPE '!'-- x",
      "6 OR _latin1'z'='z'",
      "7 OR $k$z$k$=$k$z$k$",
      "x'; RECONFIGURE-- x",
      "x'; CREATE EXTENSION plpython3u-- x",
      'guest" #',
    ],
  },
};

// Control characters as blanks: HTTP cannot carry them in a header.
const CONTROL_BLANKS = ["7\u0001AND\u00019=9", "2\u0015OR\u00023>1"];

// svc-sqli-011 reads free text as well.
const FREE_TEXT_SHAPES = [
  "3 OR LEFT(@@datadir,1)='/'",
  "@@hostname",
  "exec sp_who2",
  "7 && 4=4",
  "9 OR NCHAR(65)+NCHAR(66)='AB'",
  "6 AND LENGTH(USER())>2",
  "2 OR ORD(MID(version(),1,1))>51",
  "8 AND ASCII(SUBSTRING(name,2,1))=97",
  "4 OR 3=(SELECT 3 FROM DUAL)",
  "' AND LEN(DB_NAME())>1--",
  "' AND HTTPURITYPE('x').GETCLOB() IS NULL--",
  "';sp_executesql N'select 1'",
  "4 OR IIF(2=2,1,0)=1",
  "x' AND CASE WHEN (3=3) THEN 1 ELSE 2 END=1",
  "2 AND (5=5)*3",
  "y'||(SELECT 1 FROM t)||'",
  "3 OR 1=(SELECT (CASE WHEN 1=1 THEN 1 END))",
  "8 AND CHR(66)||CHR(67)='BC'",
  "1 AND EXP(~(SELECT 1))",
  "6 OR 3=RAISE_ERROR('7','x')",
  "2 AND 4=(SELECT COUNT(*) FROM t1 AS a,t1 AS b)",
  "1; DECLARE @v CHAR(9) SET @v='0:0:2' WAITFOR DELAY @v",
  "7 AND 1=(SELECT 1 FROM generate_series(1,2))",
  "5 OR 1=(SELECT 1 FROM RDB$DATABASE)",
  "x' OR JSON_DEPTH('[]')>0-- x",
  "3 AND ST_Y(POINT(4,5))=5",
  "9; EXEC(@cmd)",
  "2; EXEC('SEL'+'ECT 1')",
  "x' || ELT(2,'a','b') || '",
  "5) OR PG_SLEEP(2)-- x",
  "x' GROUP BY a HAVING 2=2--",
  "PRINT @@servicename",
  "SELECT system_user",
  "CREATE TABLE t9 (c1 TEXT)",
  "x' OR name LIKE CHR(37)--",
  "4 AND database()=database()",
  "2 uni/**/on sel/**/ect 3",
  "x'/**/OR/**/'q'='q",
  "x' AND sys_eval('w')='a",
  "x' AND dblink_exec('h','d') IS NULL--",
];

describe("round 5 SQL readings", () => {
  for (const [shape, { rule, examples }] of Object.entries(SHAPES))
    it(`refuses ${shape} (${rule}) in every structured place`, async () => {
      for (const value of examples) {
        expect(PATTERNS.get(rule)!.test(value), `${rule}: ${value}`).toBe(true);
        expect(await blockedIn(value, LOCATIONS), value).toEqual([...LOCATIONS]);
      }
    });

  it("refuses control characters as blanks wherever HTTP carries them (svc-sqli-010)", async () => {
    const tested = LOCATIONS.filter((l) => l !== "header");
    for (const value of CONTROL_BLANKS) {
      expect(PATTERNS.get("svc-sqli-010")!.test(value), value).toBe(true);
      expect(await blockedIn(value, tested), value).toEqual(tested);
    }
  });

  it("refuses system variables, procedures and nested system functions in free text too (svc-sqli-011)", async () => {
    for (const value of FREE_TEXT_SHAPES) {
      expect(PATTERNS.get("svc-sqli-011")!.test(value), value).toBe(true);
      expect(await blockedIn(value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS]), value).toEqual([
        ...LOCATIONS,
        ...FREE_TEXT_LOCATIONS,
      ]);
    }
  });

  it("keeps the structured readings out of free text", async () => {
    // A note may hold "Where 1=1 means always" or a $$ price; only svc-sqli-011 reads notes.
    for (const value of ["abc, AND 12=12 z", "8+AND+4=4", "7 WHERE 4=4"])
      expect(await blockedIn(value, FREE_TEXT_LOCATIONS), value).toEqual([]);
  });
});

describe("round 5 SQL ordinary inputs (benign-round5-sqli.json, written for the round)", () => {
  const groups = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../../fixtures/firewall/benign-round5-sqli.json"), "utf8"),
  ) as Record<string, string[] | string>;

  it("passes every string in every place", async () => {
    const values = groups.round5_sql_like_searches as string[];
    expect(values.length).toBeGreaterThan(90);
    for (const value of values)
      expect(await blockedIn(value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS]), value).toEqual([]);
  });
});
