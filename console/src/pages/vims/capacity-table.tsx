/**
 * A VIM's zones and hosts with their free vCPUs and RAM (the shape every driver that can describe
 * its VIM answers, src/vims/description.ts), one table per zone, a meter per resource.
 */
import { Badge } from '../../components/badge.tsx';
import './capacity.css';

export interface VimHost {
  name: string;
  up: boolean;
  vcpus: number;
  vcpusUsed: number;
  ramMb: number;
  ramMbUsed: number;
}

export interface VimDescription {
  zones: { name: string; hosts: VimHost[] }[];
  hostsVisible?: boolean;
}

const gib = (mb: number) => `${(mb / 1024).toFixed(1)} GiB`;

function Free(props: { label: string; used: number; total: number; unit: (n: number) => string }) {
  const free = Math.max(props.total - props.used, 0);
  return (
    <span class="capacity">
      <meter min={0} max={props.total || 1} value={props.used} aria-label={`${props.label} in use`} />
      <span>
        {props.unit(free)} free of {props.unit(props.total)}
      </span>
    </span>
  );
}

export function CapacityTable({ description }: { description: VimDescription }) {
  if (description.zones.length === 0) return <p>The VIM reports no availability zone.</p>;
  return (
    <>
      {description.hostsVisible === false && (
        <p class="notice">The VIM does not show its hosts to this user: zones only, capacity not reported.</p>
      )}
      {description.zones.map((zone) => (
        <div class="table-scroll" key={zone.name}>
          <table>
            <caption>Zone {zone.name}</caption>
            <thead>
              <tr>
                <th scope="col">Host</th>
                <th scope="col">State</th>
                <th scope="col">vCPUs</th>
                <th scope="col">RAM</th>
              </tr>
            </thead>
            <tbody>
              {zone.hosts.map((host) => (
                <tr key={host.name}>
                  <th scope="row" data-label="Host">
                    {host.name}
                  </th>
                  <td data-label="State">
                    <Badge tone={host.up ? 'ok' : 'bad'}>{host.up ? 'up' : 'down'}</Badge>
                  </td>
                  <td data-label="vCPUs">
                    <Free
                      label={`${host.name} vCPUs`}
                      used={host.vcpusUsed}
                      total={host.vcpus}
                      unit={String}
                    />
                  </td>
                  <td data-label="RAM">
                    <Free label={`${host.name} RAM`} used={host.ramMbUsed} total={host.ramMb} unit={gib} />
                  </td>
                </tr>
              ))}
              {zone.hosts.length === 0 && (
                <tr>
                  <td colSpan={4}>No host reported.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      ))}
    </>
  );
}
