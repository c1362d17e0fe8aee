/**
 * The outbound-address policy: Bosun calls URIs that users give it (package URIs, subscription
 * callbacks), so it must not become a way into the networks it sits in. Public addresses are
 * always allowed; loopback, private, link-local, CGNAT, multicast and unspecified addresses only
 * when the operator lists them (a CIDR, a single IP or a host name) in `outbound.allow`.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ConfigError } from '../config/errors.ts';
import { OutboundLookupError, OutboundRefusedError } from './errors.ts';
import { classifyAddress, embeddedIPv4 } from './special-ranges.ts';

/** Resolves a host name to its addresses (all of them: any refused one refuses the URL). */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

export class OutboundPolicy {
  private readonly allowedAddresses = new BlockList();
  private readonly allowedNames = new Set<string>();
  private readonly resolve: Resolver;

  /** `allow` is `config.outbound.allow`; a malformed entry is a ConfigError naming it. */
  constructor(allow: readonly string[], options: { resolve?: Resolver } = {}) {
    this.resolve = options.resolve ?? systemResolver;
    for (const [index, raw] of allow.entries()) this.addEntry(raw.trim(), `outbound.allow[${index}]`);
  }

  static fromConfig(config: { outbound: { allow: readonly string[] } }): OutboundPolicy {
    return new OutboundPolicy(config.outbound.allow);
  }

  /**
   * Resolves the URL's host and returns its addresses if Bosun may call all of them; connect only
   * to these addresses (a second resolution could answer differently: DNS rebinding).
   */
  async check(url: URL): Promise<string[]> {
    const host = hostOf(url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundRefusedError(
        'OUTBOUND_SCHEME',
        `refusing to call ${url.protocol.replace(/:$/, '')}:// URI for ${host}: only http and https are allowed`,
        host,
      );
    }
    const addresses = isIP(host) ? [host] : await this.lookup(host);
    if (this.allowedNames.has(normalizeName(host))) return addresses;
    for (const address of addresses) {
      const kind = classifyAddress(address);
      if (kind === undefined || this.isListed(address)) continue;
      const v4 = embeddedIPv4(address);
      const shown = v4 === undefined ? address : `${address} (IPv4 ${v4})`;
      const where = address === host ? shown : `${host}: it resolves to ${shown}`;
      const example = isIP(host) ? `"${address}"` : `"${address}" or "${host}"`;
      throw new OutboundRefusedError(
        'OUTBOUND_REFUSED',
        `refusing to call ${where}, a ${kind} address; if Bosun may call it, add it to outbound.allow (e.g. ${example})`,
        host,
        address,
      );
    }
    return addresses;
  }

  private async lookup(host: string): Promise<string[]> {
    let addresses: string[];
    try {
      addresses = await this.resolve(host);
    } catch (error) {
      throw new OutboundLookupError(host, error);
    }
    if (addresses.length === 0) throw new OutboundLookupError(host, 'no address');
    return [...new Set(addresses)];
  }

  /** Listed as itself, or (for an IPv6 form of an IPv4 address) as that IPv4 address. */
  private isListed(address: string): boolean {
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (this.allowedAddresses.check(address, family)) return true;
    const v4 = embeddedIPv4(address);
    return v4 !== undefined && this.allowedAddresses.check(v4, 'ipv4');
  }

  private addEntry(entry: string, key: string): void {
    const slash = entry.indexOf('/');
    const address = slash === -1 ? entry : entry.slice(0, slash);
    const version = isIP(address);
    if (version !== 0) {
      const max = version === 4 ? 32 : 128;
      const prefixText = slash === -1 ? String(max) : entry.slice(slash + 1);
      const prefix = Number(prefixText);
      if (!/^\d+$/.test(prefixText) || prefix > max) {
        throw new ConfigError(`${key}: "${entry}" has an invalid prefix length (0 to ${max})`);
      }
      this.allowedAddresses.addSubnet(address, prefix, version === 4 ? 'ipv4' : 'ipv6');
      return;
    }
    if (
      slash !== -1 ||
      !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(entry)
    ) {
      throw new ConfigError(`${key}: "${entry}" is neither a CIDR, an IP address nor a host name`);
    }
    this.allowedNames.add(normalizeName(entry));
  }
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function normalizeName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}
