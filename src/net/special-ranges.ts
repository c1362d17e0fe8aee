/**
 * Address ranges that are not the public internet, and how to read IPv4 addresses embedded in
 * IPv6 ones (mapped, NAT64, 6to4, compatible) so that `::ffff:10.0.0.1` is judged as 10.0.0.1.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export type RangeKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'shared (CGNAT)'
  | 'multicast'
  | 'reserved';

const v4Ranges: [RangeKind, string, number][] = [
  ['unspecified', '0.0.0.0', 8],
  ['private', '10.0.0.0', 8],
  ['shared (CGNAT)', '100.64.0.0', 10],
  ['loopback', '127.0.0.0', 8],
  ['link-local', '169.254.0.0', 16],
  ['private', '172.16.0.0', 12],
  ['private', '192.168.0.0', 16],
  ['multicast', '224.0.0.0', 4],
  // 240/4 is reserved and holds the broadcast address 255.255.255.255
  ['reserved', '240.0.0.0', 4],
];

const v6Ranges: [RangeKind, string, number][] = [
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['private', 'fc00::', 7],
  ['link-local', 'fe80::', 10],
  // deprecated site-local addresses are private in practice
  ['private', 'fec0::', 10],
  ['multicast', 'ff00::', 8],
];

const kinds: { kind: RangeKind; list: BlockList }[] = [];
for (const [kind, network, prefix] of [...v4Ranges, ...v6Ranges]) {
  let entry = kinds.find((k) => k.kind === kind);
  if (!entry) {
    entry = { kind, list: new BlockList() };
    kinds.push(entry);
  }
  entry.list.addSubnet(network, prefix, isIPv4(network) ? 'ipv4' : 'ipv6');
}

/** The non-public kind of an IPv4 or IPv6 address (judging embedded IPv4 first), or undefined. */
export function classifyAddress(address: string): RangeKind | undefined {
  const plain = stripZone(address);
  const family = isIPv4(plain) ? 'ipv4' : 'ipv6';
  for (const { kind, list } of kinds) if (list.check(plain, family)) return kind;
  const v4 = embeddedIPv4(plain);
  return v4 === undefined ? undefined : classifyAddress(v4);
}

/** The IPv4 address carried inside an IPv6 address, for the forms a packet can reach it by. */
export function embeddedIPv4(address: string): string | undefined {
  if (!isIPv6(address)) return undefined;
  const h = ipv6Hextets(address);
  const zeros = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (zeros(0, 5) && h[5] === 0xffff) return v4(h[6], h[7]); // ::ffff:a.b.c.d (mapped)
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) return v4(h[6], h[7]); // 64:ff9b::/96 (NAT64)
  if (h[0] === 0x2002) return v4(h[1], h[2]); // 2002::/16 (6to4)
  if (zeros(0, 6) && (h[6] !== 0 || h[7] > 1)) return v4(h[6], h[7]); // ::a.b.c.d (compatible)
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` and a dotted IPv4 tail allowed). */
export function ipv6Hextets(address: string): number[] {
  let text = stripZone(address);
  const tail: number[] = [];
  const dotted = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((x) => Number.parseInt(x, 16)));
  const [head, rest] = text.split('::');
  const left = parse(head);
  const right = [...(rest === undefined ? [] : parse(rest)), ...tail];
  if (rest === undefined) return [...left, ...right];
  const fill = new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

function stripZone(address: string): string {
  const at = address.indexOf('%');
  return at === -1 ? address : address.slice(0, at);
}
