/**
 * A picture of an instantiated VNF: its VNFCs grouped by availability zone and host, each with
 * its connection points, and the internal virtual links below with a line from each CP to the
 * link it is on. A VNFC that is stopped, or that an alarm or the VIM marks unhealthy, is drawn
 * in the alarm colour. Laid out here from the instance's own data (SVG, no library).
 */
import type { InstantiatedVnfInfo, VnfcResourceInfo } from '../../api/sol/instances.ts';

const VNFC_W = 150;
const VNFC_H = 62;
const CP_ROW = 14;
const GAP = 12;
const HOST_PAD = 10;
const ZONE_PAD = 12;
const TITLE = 20;
const VL_H = 26;

interface Placed {
  vnfc: VnfcResourceInfo;
  x: number;
  y: number;
  h: number;
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const zoneOf = (v: VnfcResourceInfo) => v.zoneId ?? text(v.metadata?.zone) ?? 'no zone';
const hostOf = (v: VnfcResourceInfo) => text(v.metadata?.host) ?? 'no host';

function groupBy<T>(items: T[], key: (t: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups].sort(([a], [b]) => a.localeCompare(b));
}

/** Unhealthy: stopped, or the VIM or an alarm said so in the VNFC's metadata. */
function healthOf(info: InstantiatedVnfInfo, v: VnfcResourceInfo): 'ok' | 'stopped' | 'unhealthy' {
  const health = text(v.metadata?.health) ?? text(v.metadata?.status);
  if (health && /error|fail|unhealthy|down/i.test(health)) return 'unhealthy';
  const state = info.vnfcInfo?.find((c) => c.vnfcResourceInfoId === v.id)?.vnfcState;
  return state === 'STOPPED' ? 'stopped' : 'ok';
}

export function Topology(props: { info: InstantiatedVnfInfo }) {
  const { info } = props;
  const vnfcs = info.vnfcResourceInfo ?? [];
  const vls = info.vnfVirtualLinkResourceInfo ?? [];
  if (!vnfcs.length) return <p class="muted">The instance has no VNFC.</p>;

  const placed: Placed[] = [];
  const zones: {
    name: string;
    x: number;
    w: number;
    h: number;
    hosts: { name: string; x: number; w: number; h: number }[];
  }[] = [];
  let x = 0;
  for (const [zone, inZone] of groupBy(vnfcs, zoneOf)) {
    const zoneX = x;
    let hostX = zoneX + ZONE_PAD;
    const hosts = [];
    let zoneH = 0;
    for (const [host, onHost] of groupBy(inZone, hostOf)) {
      let y = TITLE * 2 + ZONE_PAD;
      for (const vnfc of onHost) {
        const h = VNFC_H + (vnfc.vnfcCpInfo?.length ?? 0) * CP_ROW;
        placed.push({ vnfc, x: hostX + HOST_PAD, y, h });
        y += h + GAP;
      }
      const hostH = y - TITLE * 2 - ZONE_PAD + TITLE;
      hosts.push({ name: host, x: hostX, w: VNFC_W + HOST_PAD * 2, h: hostH });
      zoneH = Math.max(zoneH, hostH);
      hostX += VNFC_W + HOST_PAD * 2 + GAP;
    }
    const w = hostX - zoneX - GAP + ZONE_PAD;
    zones.push({ name: zone, x: zoneX, w, h: zoneH + TITLE + ZONE_PAD * 2, hosts });
    x += w + GAP * 2;
  }
  const width = Math.max(x - GAP * 2, 320);
  const zonesH = Math.max(...zones.map((z) => z.h));
  const vlTop = zonesH + 40;
  const vlY = new Map(vls.map((vl, i) => [vl.id, vlTop + i * (VL_H + GAP)]));
  const height = vlTop + vls.length * (VL_H + GAP) + 10;

  // Which VL each CP is on: the VL's port whose id the CP names (or that names the CP).
  const vlOfCp = (cpId: string, portId?: string) =>
    vls.find((vl) => vl.vnfLinkPorts?.some((p) => p.id === portId || p.cpInstanceId === cpId));

  return (
    // Focusable: a picture wider than the window scrolls in its own box, by keyboard too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <figure class="topology-figure" tabIndex={0}>
      <svg
        class="topology"
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="img"
        aria-labelledby="topology-title"
      >
        <title id="topology-title">
          {`${vnfcs.length} VNFCs in ${zones.length} zone(s), ${vls.length} internal virtual link(s)`}
        </title>
        {zones.map((z) => (
          <g key={z.name}>
            <rect class="zone" x={z.x} y={0} width={z.w} height={z.h} rx={10} />
            <text x={z.x + ZONE_PAD} y={TITLE - 4}>{`zone ${z.name}`}</text>
            {z.hosts.map((h) => (
              <g key={h.name}>
                <rect class="host" x={h.x} y={TITLE + 4} width={h.w} height={h.h} rx={6} />
                <text class="muted" x={h.x + HOST_PAD} y={TITLE * 2}>{`host ${h.name}`}</text>
              </g>
            ))}
          </g>
        ))}
        {placed.map(({ vnfc, x: vx, y, h }) =>
          (vnfc.vnfcCpInfo ?? []).map((cp, i) => {
            const vl = vlOfCp(cp.id, cp.vnfLinkPortId);
            if (!vl) return null;
            const cx = vx + 8 + i * 6;
            return (
              <line
                key={`${vnfc.id}-${cp.id}`}
                class="link"
                x1={cx}
                y1={y + h}
                x2={cx}
                y2={vlY.get(vl.id)!}
              />
            );
          }),
        )}
        {placed.map(({ vnfc, x: vx, y, h }) => {
          const health = healthOf(info, vnfc);
          return (
            <g key={vnfc.id} class="vnfc-node" data-vnfc={vnfc.id}>
              <rect
                class={health === 'ok' ? 'vnfc' : 'vnfc unhealthy'}
                x={vx}
                y={y}
                width={VNFC_W}
                height={h}
                rx={6}
              />
              <text x={vx + 8} y={y + 18} font-weight="600">
                {vnfc.vduId}
              </text>
              <text class="muted" x={vx + 8} y={y + 34}>
                {vnfc.id.slice(0, 18)}
              </text>
              <text x={vx + 8} y={y + 50}>
                {health === 'ok' ? 'running' : health}
              </text>
              {(vnfc.vnfcCpInfo ?? []).map((cp, i) => (
                <text key={cp.id} class="muted" x={vx + 8} y={y + VNFC_H + i * CP_ROW + 4}>
                  {`· ${cp.cpdId}${cp.vnfExtCpId ? ' (external)' : ''}`}
                </text>
              ))}
            </g>
          );
        })}
        {vls.map((vl) => (
          <g key={vl.id}>
            <rect class="vl" x={0} y={vlY.get(vl.id)} width={width} height={VL_H} rx={4} />
            <text
              x={8}
              y={vlY.get(vl.id)! + 17}
            >{`${vl.vnfVirtualLinkDescId} — ${vl.networkResource.resourceId}`}</text>
          </g>
        ))}
      </svg>
      <figcaption class="muted">
        VNFCs by zone and host, their connection points and the internal virtual links.
      </figcaption>
    </figure>
  );
}
