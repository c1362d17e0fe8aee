/**
 * MAC and IPv4 addresses of simulated ports. Internal networks get a /24 of 10.0.0.0/8 at
 * creation; external networks (given by id in the request) a /24 of 172.16.0.0/12 derived from
 * their id. An address is unique on its network (checked in the port's transaction).
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Executor } from '../../../store/db/transaction.ts';
import { InfraError } from '../../contract.ts';
import type { PortIp } from './derive.ts';

export const newMac = () =>
  `fa:16:3e:${[...randomBytes(3)].map((b) => b.toString(16).padStart(2, '0')).join(':')}`;

export const newInternalCidr = () => `10.${randomInt(0, 256)}.${randomInt(0, 256)}.0/24`;

export function externalCidr(networkId: string): string {
  const h = createHash('sha256').update(networkId).digest();
  return `172.${16 + (h[0] % 16)}.${h[1]}.0/24`;
}

export const subnetIdOf = (networkId: string) => `${networkId}-subnet`;

/**
 * Addresses for a new port (or port `except` being re-addressed, whose own addresses are free to
 * it): the fixed ones asked for (when free), else one free dynamic address.
 */
export async function allocateIps(
  db: Executor,
  networkId: string,
  cidr: string,
  fixed: string[],
  except?: string,
): Promise<PortIp[]> {
  let query = db.selectFrom('sim_ports').select('ips').where('network_id', '=', networkId);
  if (except) query = query.where('id', '<>', except);
  const rows = await query.execute();
  const used = new Set(rows.flatMap((r) => (JSON.parse(r.ips) as PortIp[]).map((a) => a.ip)));
  const subnetId = subnetIdOf(networkId);
  const free = fixed.filter((ip) => !used.has(ip));
  if (free.length) return free.map((ip) => ({ ip, subnetId, dynamic: false }));
  const prefix = cidr.split('.').slice(0, 3).join('.');
  for (let host = 2; host < 255; host++) {
    const ip = `${prefix}.${host}`;
    if (!used.has(ip)) return [{ ip, subnetId, dynamic: true }];
  }
  throw new InfraError('VIM_OPERATION_FAILED', `No more IP addresses available on network ${networkId}.`);
}
