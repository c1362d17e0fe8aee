/**
 * Fault injection on the simulated VIM (/bosun/v1/sim, admin): a zone made full (placing there
 * fails as "No valid host was found"), a host taken down (its servers go to ERROR), a server
 * crashed. Each action says what it did in a live region, or shows the API's ProblemDetails.
 */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { Badge } from '../../components/badge.tsx';
import { ProblemBox } from '../../components/problem-box.tsx';
import { useApi } from '../../components/use-api.ts';

export const SIM_VIM_TYPE = 'BOSUN.SIM.V1';

interface SimZone {
  name: string;
  exhausted: boolean;
  hosts: number;
  hostsUp: number;
}
interface SimHost {
  name: string;
  zone: string;
  state: 'up' | 'down';
  servers: number;
}
interface SimServer {
  id: string;
  name: string;
  status: string;
}

const SIM = '/bosun/v1/sim';
const seg = encodeURIComponent;

/** An action of the panel: its path and what to say once done. */
type Act = (path: string, done: string) => Promise<void>;

export function FaultPanel({ onChange }: { onChange: () => void }) {
  const zones = useApi<SimZone[]>(`${SIM}/zones`);
  const hosts = useApi<SimHost[]>(`${SIM}/hosts`);
  const [error, setError] = useState<unknown>();
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);

  const act: Act = async (path, done) => {
    setBusy(true);
    setError(undefined);
    try {
      await api(path, { method: 'POST', json: {} });
      setSaid(done);
      await Promise.all([zones.reload(), hosts.reload()]);
      onChange();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="faults" class="panel">
      <h2 id="faults">Fault injection (simulated VIM)</h2>
      <p role="status" class="said">
        {said}
      </p>
      {(error || zones.error || hosts.error) && <ProblemBox error={error ?? zones.error ?? hosts.error} />}
      <div class="table-scroll">
        <table>
          <caption>Zones</caption>
          <thead>
            <tr>
              <th scope="col">Zone</th>
              <th scope="col">Hosts up</th>
              <th scope="col">Placing</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {(zones.data ?? []).map((z) => (
              <tr key={z.name}>
                <th scope="row" data-label="Zone">
                  {z.name}
                </th>
                <td data-label="Hosts up">
                  {z.hostsUp} of {z.hosts}
                </td>
                <td data-label="Placing">
                  <Badge tone={z.exhausted ? 'bad' : 'ok'}>{z.exhausted ? 'full' : 'accepts servers'}</Badge>
                </td>
                <td data-label="Action">
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() =>
                      act(
                        `${SIM}/zones/${seg(z.name)}/${z.exhausted ? 'restore' : 'exhaust'}`,
                        z.exhausted ? `Zone ${z.name} accepts servers again.` : `Zone ${z.name} is full.`,
                      )
                    }
                  >
                    {z.exhausted ? `Restore ${z.name}` : `Make ${z.name} full`}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="table-scroll">
        <table>
          <caption>Hosts</caption>
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col">Zone</th>
              <th scope="col">State</th>
              <th scope="col">Servers</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {(hosts.data ?? []).map((h) => (
              <tr key={h.name}>
                <th scope="row" data-label="Host">
                  {h.name}
                </th>
                <td data-label="Zone">{h.zone}</td>
                <td data-label="State">
                  <Badge tone={h.state === 'up' ? 'ok' : 'bad'}>{h.state}</Badge>
                </td>
                <td data-label="Servers">{h.servers}</td>
                <td data-label="Action">
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() =>
                      act(
                        `${SIM}/hosts/${seg(h.name)}/${h.state === 'up' ? 'down' : 'up'}`,
                        h.state === 'up' ? `Host ${h.name} is down.` : `Host ${h.name} is up.`,
                      )
                    }
                  >
                    {h.state === 'up' ? `Take ${h.name} down` : `Bring ${h.name} up`}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <CrashServer hosts={hosts.data ?? []} busy={busy} act={act} />
    </section>
  );
}

function CrashServer(props: { hosts: SimHost[]; busy: boolean; act: Act }) {
  const [host, setHost] = useState('');
  const [server, setServer] = useState('');
  // One host's servers only: a host holds a handful, the cloud may hold thousands.
  const servers = useApi<SimServer[]>(host ? `${SIM}/servers?host=${seg(host)}` : undefined);
  return (
    <form
      class="form-row"
      onSubmit={(event) => {
        event.preventDefault();
        if (server) void props.act(`${SIM}/servers/${seg(server)}/crash`, `Server ${server} crashed.`);
      }}
    >
      <fieldset>
        <legend>Crash a server</legend>
        <label for="crash-host">Host</label>{' '}
        <select
          id="crash-host"
          value={host}
          onChange={(e) => {
            setHost((e.target as HTMLSelectElement).value);
            setServer('');
          }}
        >
          <option value="">Choose a host</option>
          {props.hosts.map((h) => (
            <option key={h.name} value={h.name}>
              {h.name} ({h.servers} servers)
            </option>
          ))}
        </select>{' '}
        <label for="crash-server">Server</label>{' '}
        <select
          id="crash-server"
          value={server}
          onChange={(e) => setServer((e.target as HTMLSelectElement).value)}
        >
          <option value="">{host ? 'Choose a server' : 'Choose a host first'}</option>
          {(host ? (servers.data ?? []) : []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.status})
            </option>
          ))}
        </select>{' '}
        <button type="submit" disabled={props.busy || !server}>
          Crash server
        </button>
      </fieldset>
      {servers.error && <ProblemBox error={servers.error} />}
    </form>
  );
}
