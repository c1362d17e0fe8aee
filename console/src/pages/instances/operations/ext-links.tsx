/**
 * External connectivity fields built from the VNFD's external connection points: for each one,
 * the VIM network to attach it to (empty: left unconnected, or as it is). Used by instantiate
 * and change external connectivity.
 */
import type { ExtCp } from '../../../api/sol/vnfd-model.ts';

export type Networks = Record<string, string>;

export function ExtLinkFields(props: { extCps: ExtCp[]; value: Networks; onChange: (v: Networks) => void }) {
  if (!props.extCps.length) return <p class="muted">The flavour has no external connection point.</p>;
  return (
    <fieldset>
      <legend>External connectivity</legend>
      {props.extCps.map((cp) => (
        <label key={cp.id}>
          {cp.id} → VIM network id
          <input
            name={`ext-${cp.id}`}
            value={props.value[cp.id] ?? ''}
            placeholder="not connected"
            maxLength={255}
            onInput={(e) => props.onChange({ ...props.value, [cp.id]: e.currentTarget.value })}
          />
        </label>
      ))}
    </fieldset>
  );
}

/** ExtVirtualLinkData for the CPs given a network: one external VL per network. */
export function extVirtualLinks(networks: Networks): Record<string, unknown>[] {
  const byNetwork = new Map<string, string[]>();
  for (const [cpdId, network] of Object.entries(networks)) {
    const id = network.trim();
    if (!id) continue;
    byNetwork.set(id, [...(byNetwork.get(id) ?? []), cpdId]);
  }
  return [...byNetwork].map(([resourceId, cpdIds], i) => ({
    id: `ext-vl-${i + 1}`,
    resourceId,
    extCps: cpdIds.map((cpdId) => ({
      cpdId,
      cpConfig: {
        [`${cpdId}-1`]: {
          cpProtocolData: [
            {
              layerProtocol: 'IP_OVER_ETHERNET',
              ipOverEthernet: { ipAddresses: [{ type: 'IPV4', numDynamicAddresses: 1 }] },
            },
          ],
        },
      },
    })),
  }));
}
