/**
 * Server-side request forgery to internal addresses (issue 30 item 4): the
 * hosts a URL-like value could make a server fetch, read the way the lenient
 * URL parsers behind fetch libraries, proxies and redirect followers read
 * them, and put in one canonical form so that one rule (svc-ssrf-001 in
 * service-rules.ts) recognises every spelling of an internal address:
 *
 * - IPv4 as inet_aton reads it: 1 to 4 parts, each decimal, octal (leading 0)
 *   or hex (0x): `2130706433`, `0177.1`, `0x7f.0.0.1` are 127.0.0.1;
 * - IPv6 in brackets, `::` compressed or not, with an embedded IPv4 tail, and
 *   IPv4-mapped (`::ffff:7f00:1`) read as the IPv4 address it maps;
 * - percent-encoding, Unicode compatibility forms (`①②⑦.⓪.⓪.①`, full-width
 *   digits and dots) and a trailing dot undone, upper case lowered;
 * - user@host tricks: each host a parser might take (after the last `@` of the
 *   authority, before a `#` or `?` or not, and before the `@`) is a candidate.
 *
 * Internal: loopback, "this network" (0/8), private (10/8, 172.16/12,
 * 192.168/16), link-local with the cloud metadata address 169.254.169.254,
 * shared address space (100.64/10, Alibaba's metadata 100.100.100.200),
 * IPv6 loopback, unspecified, unique-local (fc00::/7, AWS's fd00:ec2::254)
 * and link-local, and the names localhost, *.localhost, ip6-localhost,
 * ip6-loopback, metadata, *.internal (metadata.google.internal) and the
 * Kubernetes API service. Everything here is a linear scan: no regular
 * expression with nested quantifiers runs over a request.
 */

/** `scheme://` or a scheme-relative `//` at the start of a value or after a separator. */
const URL_START = /(?:\b[a-z][a-z0-9+.-]{0,15}:)?[/\\]{2,}|\b(?:https?|ftp|wss?|gopher|dict):[/\\]?(?=[^/\\\s])/gi;
/** WHATWG URL parsers read `http:127.0.0.1` and `http:/127.0.0.1` as `http://127.0.0.1` for the special schemes. */
const SPECIAL_NO_SLASHES = /\b(?:https?|ftp|wss?|gopher|dict):[/\\]?(?=[^/\\\s])/i;

const INTERNAL_NAMES = new Set([
  "localhost",
  "ip6-localhost",
  "ip6-loopback",
  "metadata",
  "instance-data",
  // Cloud metadata services by name (Google, Tencent, Rancher, Equinix Metal).
  "metadata.goog",
  "metadata.tencentyun.com",
  "rancher-metadata",
  "metadata.packet.net",
  "metadata.platformequinix.com",
  "metadata.azure.com",
]);
const INTERNAL_SUFFIXES = [".localhost", ".internal", ".svc", ".cluster.local", ".localdomain", ".home.arpa"];
// Round 5 (docs/decisions/476): names only a private resolver answers: multicast DNS (`.local`),
// home and office routers' zones (`.lan`, `.home`, `.corp`, `.intranet`) and Consul's service
// catalogue (`.consul`); none is a public top-level domain. svc-ssrf-004 reads them.
export const PRIVATE_ZONES = ["local", "lan", "home", "corp", "intranet", "consul"];
// Public DNS names that answer 127.0.0.1 for themselves and every sub-name (local development helpers).
const LOOPBACK_DOMAINS = [
  "localtest.me",
  "lvh.me",
  "vcap.me",
  "localhost.direct",
  "lacolhost.com",
  "localh.st",
  "fuf.me",
  // Round 5: LocalStack's name for its own endpoints, Pow's development domain.
  "localhost.localstack.cloud",
  "smackaho.st",
];
// Wildcard DNS services that answer the address written in the name (`10.0.0.1.nip.io`,
// `app-127-0-0-1.sslip.io`, `7f000001.nip.io`): internal when that address is.
const ADDRESS_DOMAINS = [
  "nip.io",
  "xip.io",
  "sslip.io",
  "traefik.me",
  "nip.direct",
  "backname.io",
  "xip.name",
  "rbndr.us",
  "1u.ms",
];
// Round 4 (docs/decisions/433): any other name that spells a dotted or dashed address as labels
// with more labels after it (`10.0.0.1.example.net`, `app-127-0-0-1.rebind.example`), the form
// every wildcard-DNS and rebinding service uses; the name needs no known suffix.
const ADDRESS_LABELS = /(?:^|[.-])(\d{1,3})([.-])(\d{1,3})\2(\d{1,3})\2(\d{1,3})(?=[.-])/;
// Unicode decimal digits that NFKC leaves alone (the zero of each script's run of ten): a
// parser that reads any decimal digit (Python's int, some resolvers) reads `١٢٧.٠.٠.١` as 127.0.0.1.
const DIGIT_ZEROS = [
  0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0, 0xf20,
  0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0,
  0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0,
];

function asciiDigits(host: string): string {
  return host.replace(/\p{Nd}/gu, (d) => {
    const cp = d.codePointAt(0)!;
    const zero = DIGIT_ZEROS.find((z) => cp >= z && cp < z + 10);
    return zero === undefined ? d : String(cp - zero);
  });
}

/** The address a wildcard-DNS name spells (dotted, dashed or eight hex digits before the suffix), or undefined. */
function addressInName(prefix: string): number[] | undefined {
  const dotted = /(?:^|[.-])(\d{1,3}[.-]\d{1,3}[.-]\d{1,3}[.-]\d{1,3})$/.exec(prefix);
  if (dotted) return parseIPv4(dotted[1]!.replaceAll("-", "."));
  // Eight hex digits as any label (`7f000001.c0a80001.rbndr.us` names two addresses).
  for (const label of prefix.split(/[.-]/)) {
    if (!/^[0-9a-f]{8}$/.test(label)) continue;
    const address = parseIPv4(`0x${label}`);
    if (address && internalIPv4(address)) return address;
  }
  return undefined;
}

function parsePart(part: string): number | undefined {
  if (part === "") return undefined;
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part, 8);
  if (/^\d+$/.test(part)) return parseInt(part, 10);
  return undefined;
}

/** IPv4 as inet_aton reads it (1-4 parts, the last filling the remaining bytes), or undefined. */
export function parseIPv4(host: string): number[] | undefined {
  const parts = host.split(".");
  if (parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const p of parts) {
    const n = parsePart(p);
    if (n === undefined || !Number.isFinite(n)) return undefined;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 2 ** (8 * (4 - nums.length))) return undefined;
  const bytes = [...nums];
  const rest = 4 - nums.length;
  for (let i = rest - 1; i >= 0; i--) bytes.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return bytes;
}

/** IPv6 (without brackets) as eight 16-bit groups, or undefined. */
export function parseIPv6(host: string): number[] | undefined {
  let text = host.split("%")[0]!; // a zone id (`fe80::1%eth0`)
  const lastColon = text.lastIndexOf(":");
  if (lastColon !== -1 && text.slice(lastColon + 1).includes(".")) {
    // An embedded IPv4 tail (`::ffff:127.0.0.1`) as the two groups it stands for.
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (!v4) return undefined;
    const hex = (hi: number, lo: number) => (hi * 256 + lo).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const read = (s: string) =>
    s === "" ? [] : s.split(":").map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN));
  const head = read(halves[0]!);
  const rear = halves.length === 2 ? read(halves[1]!) : [];
  let groups: number[];
  if (halves.length === 2) {
    if (head.length + rear.length > 7) return undefined;
    groups = [...head, ...new Array<number>(8 - head.length - rear.length).fill(0), ...rear];
  } else {
    if (head.length !== 8) return undefined;
    groups = head;
  }
  return groups.some((g) => Number.isNaN(g)) ? undefined : groups;
}

function internalIPv4([a, b, c, d]: number[]): boolean {
  return (
    a === 127 ||
    a === 0 ||
    a === 10 ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments (192.0.0.192: Oracle Cloud metadata)
    (a === 168 && b === 63 && c === 129 && d === 16) || // Azure's platform address (wire server, metadata)
    (a === 255 && b === 255 && c === 255 && d === 255)
  );
}

/** The canonical form of an internal host, or undefined when the host is not internal (or not read). */
export function internalHost(raw: string): string | undefined {
  let host = raw;
  if (host.includes("%")) {
    try {
      host = decodeURIComponent(host);
    } catch {
      // keep the text as sent
    }
  }
  // eslint-disable-next-line no-control-regex -- plain ASCII needs no NFKC
  if (!/^[\x00-\x7f]*$/.test(host)) host = asciiDigits(host.normalize("NFKC").replace(/[\u3002\uff0e\uff61]/g, "."));
  host = host.toLowerCase();
  // A parser stops at a NUL or a space: what follows is not the host.
  const stop = host.search(/[\0\s]/);
  if (stop !== -1) host = host.slice(0, stop);
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    const groups = parseIPv6(host.slice(1, end === -1 ? undefined : end));
    if (!groups) return undefined;
    // IPv4-translated (`::ffff:0:127.0.0.1`, SIIT's ::ffff:0:0/96) carries its address like a mapped one.
    if (groups.slice(0, 4).every((g) => g === 0) && groups[4] === 0xffff && groups[5] === 0) {
      const v4 = [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255];
      return internalIPv4(v4) ? v4.join(".") : `[::ffff:${v4.join(".")}]`;
    }
    const mapped = groups.slice(0, 5).every((g) => g === 0) && (groups[5] === 0xffff || groups[5] === 0);
    if (mapped && (groups[5] === 0xffff || groups[6] !== 0)) {
      const v4 = [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255];
      if (internalIPv4(v4)) return v4.join(".");
      // An IPv4-mapped literal in a URL is a filter-evasion form, whatever address it maps.
      if (groups[5] === 0xffff) return `[::ffff:${v4.join(".")}]`;
    }
    // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address that a gateway reaches.
    const embedded =
      groups[0] === 0x64 && groups[1] === 0xff9b
        ? [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255]
        : groups[0] === 0x2002
          ? [groups[1]! >> 8, groups[1]! & 255, groups[2]! >> 8, groups[2]! & 255]
          : undefined;
    if (embedded && internalIPv4(embedded)) return embedded.join(".");
    const first = groups[0]!;
    const loopOrAny = groups.slice(0, 7).every((g) => g === 0) && groups[7]! <= 1;
    if (loopOrAny || (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80)
      return `[${groups.map((g) => g.toString(16)).join(":")}]`;
    return undefined;
  }
  // A host name has no colon: everything from the first one is a port, or ports
  // (`127.0.0.1:11211:80`, which one parser reads as port 11211 and another as 80).
  const colon = host.indexOf(":");
  if (colon !== -1) host = host.slice(0, colon);
  let end = host.length;
  while (end > 0 && host[end - 1] === ".") end--;
  host = host.slice(0, end);
  const v4 = parseIPv4(host);
  if (v4) return internalIPv4(v4) ? v4.join(".") : undefined;
  // Four decimal parts over 255 each wrapped to a byte (`425.510.425.510`), as parsers that
  // keep only the low eight bits of a part read them.
  if (/^\d{1,5}(?:\.\d{1,5}){3}$/.test(host)) {
    const wrapped = host.split(".").map((p) => parseInt(p, 10) % 256);
    return internalIPv4(wrapped) ? wrapped.join(".") : undefined;
  }
  // A dotted address followed by a character no host name holds (`127.0.0.1!`): a lenient
  // parser stops there.
  const lead = /^(\d{1,3}(?:\.\d{1,3}){3})[^\w.-]/.exec(host);
  if (lead) {
    const address = parseIPv4(lead[1]!);
    if (address && internalIPv4(address)) return address.join(".");
  }
  if (INTERNAL_NAMES.has(host) || INTERNAL_SUFFIXES.some((s) => host.endsWith(s))) return host;
  const zone = host.lastIndexOf(".");
  if (zone > 0 && PRIVATE_ZONES.includes(host.slice(zone + 1))) return host;
  if (LOOPBACK_DOMAINS.some((d) => host === d || host.endsWith(`.${d}`))) return "127.0.0.1";
  const service = ADDRESS_DOMAINS.find((d) => host === d || host.endsWith(`.${d}`));
  if (service) {
    const spelled = addressInName(host.slice(0, -(service.length + 1)));
    if (spelled && internalIPv4(spelled)) return spelled.join(".");
  }
  if (host === "kubernetes" || host.startsWith("kubernetes.default")) return host;
  const labels = ADDRESS_LABELS.exec(host);
  if (labels) {
    const spelled = parseIPv4(`${labels[1]}.${labels[3]}.${labels[4]}.${labels[5]}`);
    if (spelled && internalIPv4(spelled)) return spelled.join(".");
  }
  return undefined;
}

/** The hosts a parser might take from the authority that starts at `from` (after `//`). */
function candidateHosts(value: string, from: number): string[] {
  // The authority as the strictest parsers see it (up to /, \, ? or #) and as lenient ones do (up to / or \).
  let strictEnd = value.length;
  let lenientEnd = value.length;
  for (let i = from; i < value.length; i++) {
    const c = value[i]!;
    if ((c === "?" || c === "#") && strictEnd === value.length) strictEnd = i;
    if (c === "/" || c === "\\" || c === " " || c === "\n" || c === "\r" || c === "\t") {
      lenientEnd = i;
      strictEnd = Math.min(strictEnd, i);
      break;
    }
  }
  const out = new Set<string>();
  // Round 4: with an `@`, the authority up to the first slash whatever it holds
  // (`http://1.1.1.1 &@127.0.0.1# @3.3.3.3/`): each part between `@`s, cut at `#`, `?` or a
  // space, is a host some parser takes (`http://a@b@c` is b to one, c to another).
  if (value.indexOf("@", from) !== -1) {
    let slash = from;
    // A backslash before the `@` is part of the user name to some parsers (`http://a.com\\@10.0.0.1`).
    while (slash < value.length && value[slash] !== "/") slash++;
    const whole = value.slice(from, slash);
    if (whole.includes("@"))
      for (const part of whole.split("@")) {
        const cut = part.search(/[#?\s]/);
        out.add(cut === -1 ? part : part.slice(0, cut));
      }
  }
  for (const end of [strictEnd, lenientEnd]) {
    const authority = value.slice(from, end);
    const at = authority.lastIndexOf("@");
    out.add(at === -1 ? authority : authority.slice(at + 1));
    if (at !== -1) {
      // `http://127.0.0.1%2F@example.com/`: a parser that decodes first ends the host at the slash.
      out.add(authority.slice(0, authority.indexOf("@")));
    }
  }
  return [...out].filter((h) => h !== "");
}

/**
 * The canonical internal targets of the URL-like parts of a value (`scheme://…` or `//…`), as
 * `//host/` each; empty when none is internal. A decoded host that itself holds a slash
 * (`127.0.0.1%2F@…`) is read up to it.
 */
/**
 * The host a value starts with when it is a host name (letters, with a dot or a hyphen) or a
 * dotted IPv4 address with nothing before it, followed by a port, a path or the end: `lvh.me/`,
 * `10.0.0.1:8080`. Fetchers given a URL without a scheme (and libraries that add `http://`) read
 * it as a host. Plain numbers (`75/25`, `0.25/0.5`) and words are not host names here. One
 * character class, one quantifier: linear.
 */
const BARE_START = /^\s*([a-z0-9._-]{3,253})(:\d{1,5})?([/?#]|$)/i;

/** An IPv6 literal or a short loopback address (`127.1`) with a port at the start of a value: `[::1]:6379`. */
const BARE_LITERAL = /^\s*(\[[0-9a-f:.%]{2,60}\]|127(?:\.\d{1,8}){1,2})(:\d{1,5})?(?:[/?#]|$)/i;

export function bareHost(value: string): string | undefined {
  const own = hostAtStart(value);
  if (own !== undefined) return own;
  // Round 5 (docs/decisions/476): a query parameter typed as the value (`url=localhost:8080`).
  const param = PARAM_START.exec(value);
  return param ? paramHost(value.slice(param[0].length), param[1]!) : undefined;
}

/**
 * The host a parameter's value starts with, when a port or a path follows it (`localhost:8080`,
 * `169.254.169.254/latest`): a reference code alone (`ref=10.0.0.1`) or a word (`section=metadata`) is no fetch target.
 */
function paramHost(value: string, name: string): string | undefined {
  // A parameter named for a URL (`url=`, `next=`, `redirect_uri=`) names its host alone too (`url=localhost`).
  if (URL_PARAM.test(name) && /^[\w.-]{3,253}$/.test(value) && /[a-z.]/i.test(value)) return value;
  return /^(?:\[[^\]\s]{2,60}\]|[^\s/?#:[]+)(?::\d{1,5}(?:[/?#]|$)|[/?#])/.test(value) ? hostAtStart(value) : undefined;
}

/** `name=` (or `?name=`) at the start of a value: what follows is a parameter's value. */
const PARAM_START = /^\s*[?&]?([a-z_][\w.-]{0,30})=/i;
/** Parameter names that hold a URL or a host by convention (open redirects, webhooks, proxies, image fetchers). */
const URL_PARAM =
  /^(?:url|uri|u|link|href|src|source|dest|destination|redirect|redirect_?ur[il]|return(?:_?ur[il]|_?to)?|next|target|to|goto|go|continue|callback|webhook|endpoint|host|hostname|proxy|image|img|feed|site|domain|fetch|forward|rurl|redir)$/i;
/** A parameter inside a URL's query (`?next=127.0.0.1:22`): its value, read like a value of its own. */
const PARAM_VALUE = /[?&;]([a-z_][\w.-]{0,30})=([^&#\s]{3,300})/gi;
/** Another spelling of an IPv4 address inet_aton reads: hex (`0x7f000001`), or dotted with a hex or octal part. */
const NUMERIC_HOST = /^(?:0x[0-9a-f]{1,8}|(?:0x[0-9a-f]{1,8}|\d{1,10})(?:\.(?:0x[0-9a-f]{1,8}|\d{1,10})){1,3})$/i;

function hostAtStart(value: string): string | undefined {
  const literal = BARE_LITERAL.exec(value);
  if (literal && (literal[1]!.startsWith("[") || literal[2] !== undefined)) return literal[1]!;
  const m = BARE_START.exec(value);
  if (!m) return undefined;
  const host = m[1]!.replace(/\.$/, "");
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return host;
  // Round 5: an address in another spelling, with a port or a path after it (`0x7f000001/`,
  // `0177.0.0.1/`, `2130706433:80`). A plain number only with a port: a phone number or a member
  // id followed by a slash (`2135551234/2`) is no host. A dotted number needs a hex part, or an
  // octal part and four parts, or a port: `0.25/0.5 mg` and `05.10/2026` stay text.
  if (m[3] !== "" || m[2] !== undefined) {
    const octal = /(?:^|\.)0[0-7]/.test(host) && host.split(".").length === 4;
    if (
      /^\d{8,10}$/.test(host)
        ? m[2] !== undefined
        : NUMERIC_HOST.test(host) && (/0x/i.test(host) || octal || m[2] !== undefined)
    )
      return host;
  }
  // A dotted name is a host; a hyphenated one (`ip6-loopback/`, never a plan id such as
  // `12345NY0010001-01`) and a single word (`localhost:8080`) only with a path or a port after them.
  const named =
    host.includes(".") ||
    m[2] !== undefined ||
    (host.includes("-") && m[3] !== "") ||
    // Round 5: an internal name with a path (`localhost/admin`, `metadata/computeMetadata/v1/`).
    (m[3] === "/" && INTERNAL_NAMES.has(host.toLowerCase()));
  return /[a-z]/i.test(host) && named && !host.startsWith(".") && !host.startsWith("-") ? host : undefined;
}

export function internalTargets(value: string): string[] {
  // Round 5 (docs/decisions/476): WHATWG URL parsers drop every tab and line break from a URL
  // before reading it (`http://loc<TAB>alhost/`): the URL without them is read too.
  if (/[\t\r\n]/.test(value) && /:[/\\]|[/\\]{2}/.test(value)) {
    const joined = internalTargets(value.replace(/[\t\r\n]+/g, ""));
    if (joined.length > 0) return joined;
  }
  const bare = bareHost(value);
  if (bare) {
    const internal = internalHost(bare);
    if (internal !== undefined) return [`//${internal}/`];
  }
  const out: string[] = [];
  // Round 5: a parameter's value inside a URL's query (`https://x.example/?url=localhost:8080`).
  if (value.includes("=")) {
    let seen = 0;
    for (const p of value.matchAll(PARAM_VALUE)) {
      const host = paramHost(p[2]!, p[1]!);
      const internal = host === undefined ? undefined : internalHost(host);
      if (internal !== undefined) out.push(`//${internal}/`);
      if (++seen >= 8) break;
    }
  }
  if (
    !value.includes("//") &&
    !value.includes("\\\\") &&
    !value.includes("/\\") &&
    !value.includes("\\/") &&
    !SPECIAL_NO_SLASHES.test(value)
  )
    return out;
  for (const m of value.matchAll(URL_START)) {
    for (const candidate of candidateHosts(value, m.index + m[0].length)) {
      const decoded = candidate.includes("%") ? safeDecode(candidate) : candidate;
      const host = decoded.split(/[/\\?#]/)[0]!;
      const internal = internalHost(host);
      if (internal !== undefined) {
        out.push(`//${internal}/`);
        break;
      }
    }
    if (out.length >= 4) break;
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
