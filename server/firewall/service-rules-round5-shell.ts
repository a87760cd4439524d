import type { WafRule } from "./ruleset";
import type { RuleFn, ShellGrammar } from "./service-rules-round3";
import { SSRF_INPUTS } from "./rule-inputs";
import { PRIVATE_ZONES } from "./ssrf";

/**
 * Issue 30 item 4, round 5, command injection and SSRF (docs/decisions/470, 475-478): shapes
 * written from the misses of the public tuning lists and from published evasion techniques
 * (commix's separators and tamper scripts, cmd.exe's and PowerShell's obfuscations, URL parser
 * confusions), never from a held-out or fresh string. None reads free-text fields.
 */

// Tools `type`, `command -v` and `hash` are asked about before an attack uses them.
const ASKED =
  "curl|wget|nc|ncat|netcat|socat|telnet|ssh|ftp|tftp|gcc|cc|perl|python[23]?|ruby|php|node|lua|bash|sh|zsh|base64|xxd|openssl|busybox|nmap|java|awk|gawk";
// Commands that reach a host (ping and lookups; `host` is a word and is left out).
const NET = "ping|nslookup|dig|curl|wget|nc|ncat|telnet|traceroute|tracert";
// Commands an injection runs bare, read after a separator when a suffix of commix's follows.
const BARE = String.raw`id|whoami|uname|ifconfig|ipconfig|pwd|hostname|netstat|ls|env|printenv|dir|ver|systeminfo|sleep[ \t]+\d+`;
// Commands an injection substitutes to probe (`$(expr 3 + 4)`, `` `date` ``); any word in `$( )` is not:
// "cost $(approx) 300" is a note.
const SUBSTITUTED_NO_WORD =
  "expr|bc|seq|wc|od|pwd|hostname|uname|whoami|nproc|getconf|basename|dirname|realpath|readlink|mktemp|tty|logname|printf";
// In backticks the words among them (`date`, `echo`, `cat`) need an argument shaped like a shell's.
const SUBSTITUTED = `${SUBSTITUTED_NO_WORD}|tr|cut|rev|date|id|groups|sleep|echo|cat|ls|head|tail`;
// What such a probe is given: an option, a number, an operator, a path or a variable ("`sleep apnea`" is a word in quotes).
const PROBE_ARG = String.raw`(?:-{1,2}[a-zA-Z]+|\d+|\\?[-+*/%]|[/$.~][^\s\x60)]*|'[^'\x60]*'|"[^"\x60]*")`;
// Programs a Windows injection starts through `@`, `call` or `start`.
const WIN_PROGRAMS =
  "whoami|ipconfig|systeminfo|netstat|hostname|tasklist|net|cmd|powershell|pwsh|dir|type|ver|certutil|bitsadmin|wmic|reg|sc|schtasks|ping|nslookup|timeout|calc|notepad|mshta|rundll32|regsvr32|cscript|wscript";
// Living-off-the-land programs no visitor types, after a separator or at the start of a value.
const LOLBINS =
  "conhost|cmstp|msdt|ieexec|mavinject|presentationhost|scriptrunner|syncappvpublishingserver|infdefaultinstall|msxsl|wuauclt|forfiles|pcalua|bash\\.exe|wsl\\.exe|vaultcmd|sdelete";
// PowerShell aliases no visitor types.
const PS_ALIASES = "saps|iwr|irm|icm|gcm|sal|nal|ipmo|sajb|gwmi|gcim|icim|gci";
// PowerShell cmdlet nouns an attack asks for (the verbs are ordinary words, the pair is not).
const PS_NOUNS =
  "ChildItem|Process|Content|ItemProperty|Service|WmiObject|CimInstance|LocalUser|LocalGroup|LocalGroupMember|Acl|ExecutionPolicy|Command|Alias|Credential|NetTCPConnection|NetIPAddress|ComputerInfo|HotFix|EventLog|WinEvent|ScheduledTask|MpPreference|Clipboard|PSDrive|ADUser|ADComputer|ADGroup|ADGroupMember|Expression|WebRequest|RestMethod|Module";

// Schemes of remote-object, file-sharing, database and queue clients: a value holding one asks a
// fetcher or a driver to connect (svc-ssrf-002 has sftp, smb, ldaps, telnet, tftp and PHP's).
const FETCH_SCHEMES =
  "rmi|iiop|corbaname|ldapi|nfs|cifs|afp|svn\\+ssh|ssh|rediss?|memcached?|mongodb(?:\\+srv)?|mysql|mariadb|postgres(?:ql)?|mssql|sqlserver|amqps?|mqtt|zookeeper|vnc|rdp|jdbc:[a-z]+";

// Environment variables that make a program load or run something: set in a value, they inject
// into whatever starts next (`LD_PRELOAD=/tmp/x.so`, `PROMPT_COMMAND=…`). Upper case as shells need.
const ENV_HOOKS =
  "LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_INSERT_LIBRARIES|BASH_ENV|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|PERL5OPT|PERL5LIB|PERLLIB|PYTHONPATH|PYTHONSTARTUP|PYTHONWARNINGS|PYTHONINSPECT|NODE_OPTIONS|RUBYOPT|RUBYLIB|GIT_SSH_COMMAND|GIT_SSH|GIT_EXTERNAL_DIFF|HISTFILE|IFS|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS";

export function round5ShellRules(rule: RuleFn, shell: ShellGrammar): WafRule[] {
  const { sepNotStart } = shell;
  return [
    rule(
      "svc-cmdi-017",
      "command_injection",
      "Unix shell forms: commix's SUB separator and suffixes, a variable or line continuation inside a word, $(<file), rev and tr decoders, at now, type/command -v of a tool, a sleep in a group, a network command given a placeholder, localhost or a closing separator, a pasted prompt",
      // A SUB character (0x1a, commix's separator) before a command.
      String.raw`\x1a[ \t]*[a-z$\x60({/.]|` +
        // A backslash-newline inside a word (the shell joins the lines: `wh\<LF>oami`).
        String.raw`[a-z]\\\r?\n[a-z]|` +
        // `$(<file)`: the file's text as a command's argument.
        String.raw`\$\([ \t]*<[ \t]*[\w./~$-]|\$\([ \t]*(?:${SUBSTITUTED})(?:[ \t]+${PROBE_ARG})*[ \t]*\)|\x60[ \t]*(?:${SUBSTITUTED_NO_WORD})(?:[ \t]+${PROBE_ARG})*[ \t]*\x60|\x60[ \t]*(?:${SUBSTITUTED})(?:[ \t]+${PROBE_ARG})+[ \t]*\x60|` +
        // An empty variable glued to a command word (commix's uninitialized variable: `;${XYZ}ec${XYZ}ho`).
        String.raw`${sepNotStart}[ \t]*\$\{[A-Za-z_]\w{0,20}\}[a-z]{2}|\$\{[A-Za-z_]\w{0,20}\}[a-z]+\$\{[A-Za-z_]\w{0,20}\}[a-z]|\$IFS|` +
        // A command spelled backwards or in mixed case, put right by rev or tr (commix's rev and randomcase).
        String.raw`\|[ \t]*rev[ \t]*(?:$|[)\x60;|&])|\btr[ \t]+(?:-d[ \t]+)?["']?\[?(?:A-Z|a-z|:upper:|:lower:)|` +
        // A command and a variable inside backticks.
        String.raw`\x60[ \t]*[a-z][\w-]*[ \t]+[^\x60\n]*\$[A-Za-z_{(][^\x60\n]*\x60|` +
        // A job for `at`.
        String.raw`\bat[ \t]+now[ \t]*\+[ \t]*\d+[ \t]*(?:min(?:ute)?s?|hours?|days?|weeks?)\b|${sepNotStart}[ \t]*at[ \t]+(?:-f[ \t]+\S+[ \t]+)?now\b|` +
        // A tool asked about.
        String.raw`${sepNotStart}[ \t]*(?:type|command[ \t]+-[vV]|hash)[ \t]+(?:-[a-zA-Z]+[ \t]+)?(?:${ASKED})[ \t]*(?:$|[;|&\x60)#])|` +
        // A sleep in a group or a subshell, a fractional sleep, usleep.
        String.raw`${sepNotStart}[ \t]*[({]?[ \t]*(?:sleep|usleep)[ \t]+\.?\d+(?:\.\d+)?[smhd]?[ \t]*(?:$|[;|&\x60)}#])|` +
        // A network command given a placeholder, a variable, localhost, or one argument and a closing separator.
        String.raw`${sepNotStart}[ \t]*(?:timeout[ \t]+\d+[ \t]+)?(?:${NET})(?:[ \t]+-{1,2}[a-zA-Z]+(?:[ \t]+\d+)?)*[ \t]+(?:localhost\b|\{[A-Za-z_]+\}|\$\{?[A-Za-z_]\w*\}?|\[[A-Z_]+\]|<[A-Za-z_]+>|[\w.-]+[ \t]*(?:[;|&\x60]{1,2}[ \t]*|#.*)$)|` +
        // A bare command ended by one of commix's suffixes or a mistyped line break (`;id//`, `;id\\`, `;id/n`).
        String.raw`${sepNotStart}[ \t]*(?:${BARE})[ \t]*(?://|\\{1,2}|[/\\][nr])[ \t]*$|` +
        // A command word split by quotes after a separator (`;"i"d`, `;i"d"`).
        String.raw`${sepNotStart}[ \t]*(?:["'][a-z]+["'][a-z]+|[a-z]+["'][a-z]+["'])[a-z]*(?:[ \t]|$|[;|&])|` +
        // A pasted shell prompt with a command after it.
        String.raw`[\w.-]+@[\w.-]+:[~/][\w./~-]*[#$][ \t]*[a-z]|` +
        // echo in a value that starts as an injection does: a separator first, or a number or a quote and a separator.
        String.raw`^[ \t]*(?:['"][ \t]*|\d{1,6}[ \t]*)?(?:[;|&]{1,2}|\$\()[ \t]*echo[ \t]+\S`,
      { caseSensitive: true },
    ),
    rule(
      "svc-cmdi-018",
      "command_injection",
      "A command line that is the whole value: a recon program alone, a script run by its interpreter or path, a compiler, ssh to user@host, tar, shutdown, su root, unset of a variable, eval of a string, a redirection into a script file",
      String.raw`^[ \t]*(?:ifconfig|ipconfig|printenv|netstat|uname|dmesg|lsblk|lscpu|lspci|lsusb|lsmod|systeminfo)[ \t]*$|` +
        // Programs that are no word in English or Spanish, given an argument ("sed", "nano", "curl", "ls" — LS spine — are left out).
        String.raw`${sepNotStart}[ \t]*(?:(?:nproc|getconf|apropos)(?:[ \t]|$)|last[ \t]+-\d+[ \t]*(?:$|[;|&\x60]))|` +
        // …with an argument shaped like a shell's (a switch, a path, a variable, a quote, a URL or
        // host path, a mode; or a word then a path): "grep tool" or "mkdir folder" is a search.
        String.raw`^[ \t]*(?:wget|grep|egrep|fgrep|zgrep|mkdir|rmdir|gzip|gunzip|bunzip2|unxz|chmod|chown|xxd|hexdump|strace|tcpdump)[ \t]+` +
        String.raw`(?:[-/~$"'\x60]|\.{1,2}/|[a-z]+://|[\w-]+\.[a-z]{2,}/|\+[rwx]|[0-7]{3,4}\b|[\w.:-]+[ \t]+[-/~$.])|` +
        String.raw`^[ \t]*(?:php|perl|python[23]?|ruby|node|bash|sh|zsh|lua|java[ \t]+-jar)[ \t]+(?:-\S+[ \t]+)*[\w./~-]+\.(?:php\d?|pl|py|rb|js|sh|lua|jar)\b|` +
        String.raw`^[ \t]*\.{1,2}/[\w.-]+\.(?:sh|py|pl|rb|bin|run|elf|out)\b|^[ \t]*\.[ \t]+[\w./~-]+\.sh\b|\b(?:gcc|cc|clang|g\+\+)[ \t]+(?:-\S+[ \t]+)*[\w./-]+\.(?:c|cc|cpp)\b|` +
        String.raw`^[ \t]*(?:ssh|scp|sftp|rsync)[ \t]+(?:-\S+[ \t]+)*(?:[\w./-]+[ \t]+)?[\w.-]+@[\w.-]+|^[ \t]*tar[ \t]+-?[cxtrvzjJfp]{2,6}[ \t]+\S|` +
        String.raw`^[ \t]*(?:shutdown|halt|poweroff|reboot)[ \t]+-[a-zA-Z]|^[ \t]*su[ \t]+(?:-[ \t]+)?root\b|(?:^|${sepNotStart})[ \t]*unset[ \t]+(?:-[fv][ \t]+)?[A-Z_][A-Z0-9_]{2,}\b|` +
        String.raw`^[ \t]*eval[ \t]+(?:\$|\x60|["'](?:[^"']*[$\x60;|&<>]|(?:id|whoami|uname|ls|cat|sh|bash)\b))|>{1,2}[ \t]*[\w./~-]*\.(?:php\d?|phtml|jsp|aspx?|sh|py|pl|cgi|htaccess|bashrc|profile)\b`,
      { caseSensitive: true },
    ),
    rule(
      "svc-cmdi-019",
      "command_injection",
      "cmd.exe forms: variable substrings and replacements, carets after a separator, variables joined into a command, set and call, cmd.exe's delimiters, @/call/start before a program, choice as a delay, LOLBins",
      String.raw`%[a-z_]\w{1,30}:~-?\d+(?:,-?\d+)?%|%[a-z_]\w{1,30}:[^%=\s]{1,10}=[^%\s]{0,10}%|[&|][ \t]*\^["a-z]|(?:["'][a-z]{1,8}["']\^){2}|%[a-z_]\w{0,20}%%[a-z_]\w{0,20}%|${sepNotStart}[ \t]*set[ \t]+(?:/a[ \t]+)?[a-z_]\w*=[^\s=]|\bcall[ \t]+%[a-z_!]|` +
        String.raw`[&|][ \t]*[,;=][ \t]*[,;=][ \t,;=]*[a-z@]|${sepNotStart}[ \t]*(?:@[ \t]*|call[ \t]+|start[ \t]+(?:/[a-z]+[ \t]+)*)(?:${WIN_PROGRAMS})(?:\.exe)?\b|` +
        String.raw`${sepNotStart}[ \t]*choice[ \t]+(?:/[a-z]+[ \t]+(?:[^\s/]+[ \t]+)?)*/t[ \t]*:?[ \t]*\d+|` +
        String.raw`(?:^|[&|;\r\n])[ \t]*(?:${LOLBINS})(?:\.exe)?[ \t]+\S`,
    ),
    // Apart from svc-cmdi-019: one case-insensitive expression of both ran 25 µs per request more
    // (RE2's automaton outgrew its memory and fell back to the slow matcher); two cost under 1 µs.
    rule(
      "svc-cmdi-021",
      "command_injection",
      'PowerShell aliases, cmdlets alone, the call operator on a joined string, [char] casts; quote-split words with a switch, cmd/c, start "", del with a switch',
      String.raw`${sepNotStart}[ \t]*(?:${PS_ALIASES})(?:[ \t]+\S|[ \t]*$)|^[ \t]*(?:${PS_ALIASES})[ \t]+(?:-[a-z]|['"]?https?://|[\w-]+(?:\.[\w-]+)+|[a-z]:\\)|` +
        String.raw`^[ \t]*(?:get|set|new|remove|invoke|start|stop|import|add|clear|copy|move|rename|test|out|export)-(?:${PS_NOUNS})[ \t]*(?:$|[;|])|` +
        String.raw`(?:^|[;|&(\s])[&.][ \t]*\([ \t]*(?:['"][^'"]{0,30}['"]|\$[a-z_]\w*)[ \t]*\+|\[char\][ \t]*\(?[ \t]*(?:0x[0-9a-f]+|\d+)|` +
        String.raw`${sepNotStart}[ \t]*["']?[a-z]+["'][a-z]+["']?[a-z]*["']?[ \t]+/(?:[a-z]\b|\?)|\bcmd(?:\.exe)?[ \t,;=]*/[ckr][ \t,;="]+\S|` +
        String.raw`\bstart[ \t]+(?:/[a-z]+[ \t]+)*""[ \t]+\S|^[ \t]*(?:del|erase|rd|rmdir|xcopy|attrib)(?:\.exe)?[ \t]+/[a-z]\b`,
    ),
    rule(
      "svc-cmdi-020",
      "command_injection",
      "PowerShell's obfuscations: backticks inside a word, the format operator, -join, the engine's own objects, wildcard variable lookups; cmd.exe's redirection to nul, at with a time and a program",
      String.raw`[a-z]\x60[a-z]{1,8}\x60[a-z]|["'](?:\{\d{1,2}\}){2,}["'][ \t]*-f[ \t]*['"]|[)\]'"][ \t]*-join[ \t]*(?:['"(]|$)|(?:^|[;|&(])[ \t]*-join[ \t]*\(|` +
        String.raw`\$(?:executioncontext|psversiontable|shellid|pshome)\b|\.invokecommand\.|\bnewscriptblock\b|\((?:gv|gci|gcm|ls|dir|get-variable|get-command|get-childitem)[ \t]+['"]?[\w:]*\*[^)]*\)|` +
        String.raw`${sepNotStart}[ \t]*\^?n\^?e\^?t\^?1(?:\.exe)?[ \t]+(?:user|localgroup|group|share|view|use|stop|start|session|accounts)\b|\btype[ \t]+nul[ \t]*>|[&|][ \t]*ping(?:\.exe)?[ \t]+(?:-[ntlwa4][ \t]+(?:\d+[ \t]+)?)*(?:\d{1,3}(?:\.\d{1,3}){3}|localhost)\b|(?:^|[\s&|;])\d?>[ \t]*nul\b|${sepNotStart}[ \t]*at[ \t]+\d{1,2}:\d{2}[ \t]+(?:/\w+(?::\S+)?[ \t]+)*(?:cmd|powershell|pwsh|[\w.-]+\.(?:exe|bat|cmd|ps1))\b`,
    ),
    rule(
      "svc-cmdi-022",
      "command_injection",
      "Argument injection (git's, tar's, rsync's and find's options that run a program; ssh's ProxyCommand) and environment injection (LD_PRELOAD, BASH_ENV, PROMPT_COMMAND, NODE_OPTIONS …); $[ ] arithmetic; Windows Script Host objects",
      String.raw`(?:^|[\s'"=])--(?:upload-pack|receive-pack|use-compress-program|checkpoint-action|to-command|rsync-path|rsh|unzip-command|post-file|body-file|index-filter|tree-filter|msg-filter)(?:=|[ \t]+)\S|--(?:exec|gpu-launcher|renderer-cmd-prefix|utility-cmd-prefix|browser-subprocess-path|ppapi-plugin-launcher|plugin-launcher)=\S|` +
        String.raw`\{[ \t]*(?:${BARE})(?:[ \t]+-[a-z]+)?[ \t]*;[ \t]*\}|^[ \t]*(?:uname|whoami|ifconfig|ipconfig|netstat|systeminfo|printenv)[ \t]*&|` +
        String.raw`(?:ProxyCommand|LocalCommand|PermitLocalCommand)[ \t]*=|(?:^|\s)-(?:exec|execdir|ok|okdir)[ \t]+[^\s;]+[^\n]*(?:\\;|[ \t];|\{\}[ \t]*\+)|` +
        String.raw`(?:^|[;&|\s\x60(])(?:${ENV_HOOKS})=\S|\$\[[ \t]*\d+[ \t]*[+*/%][ \t]*\d+[ \t]*\]|` +
        String.raw`(?i:\bwscript\.shell\b|\bshell\.application\b|\bactivexobject[ \t]*\(|\bcreateobject[ \t]*\([ \t]*["'])`,
      { caseSensitive: true },
    ),
    rule(
      "svc-ssrf-004",
      "ssrf",
      "A URL whose host is one DNS label (a service name only a search domain resolves) or a name in a private zone (.local, .lan, .consul …)",
      String.raw`(?:^|[^\w.+-])[a-z][a-z0-9+.-]{1,15}://(?:[^/@\s]*@)?[a-z][a-z0-9-]{0,62}(?::\d{0,5})?(?:[/?#\\]|$)|` +
        String.raw`//(?:[^/@\s]*@)?(?:[a-z0-9-]+\.)+(?:${PRIVATE_ZONES.join("|")})\.?(?::\d{0,5})?(?:[/?#\\]|$)|` +
        // Schemes only a fetcher, a driver or a directory client reads; a UNC path at the start of a value.
        String.raw`\b(?:${FETCH_SCHEMES})://|^\s*\\\\[\w.-]+\\[\w$.-]`,
      { inputs: SSRF_INPUTS },
    ),
  ];
}
