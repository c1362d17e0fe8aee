/**
 * Availability-zone reselection, for every operation that places servers and whatever the VIM
 * or template style: when the driver fails because a zone has no room (failure.ts), the VNFCs
 * granted that zone get another (reselect.ts), the grant is changed and the driver called again
 * with the same op occ — its retry converges (a stack update on OpenStack; the simulated VIM
 * resumes). Every attempt is recorded in the op occ with the changed grant, before the next
 * call, and logged. When it stops, the error names every zone tried; a later retry of the op
 * occ starts again from the grant as last changed, with no zone counted as failed.
 */
import type { Grant } from '../../grant/types.ts';
import type { DriverResult } from '../../vims/contract.ts';
import { InfraError } from '../../vims/contract.ts';
import { LeaseLost } from '../errors.ts';
import { nowIso } from '../model.ts';
import { fallbackBestEffort, flavourOf, type Run, vnfcsAfter, vnfcZone } from '../steps/run.ts';
import type { PlacementAttempt, PlacementMove } from './attempts.ts';
import { placementFailure } from './failure.ts';
import { reselect, type Vnfc } from './reselect.ts';

/** Zone name of each granted zone id, and each granted resource's zone name. */
function grantedZones(grant: Grant | undefined): Map<string, string> {
  const names = new Map((grant?.zones ?? []).map((z) => [z.id, z.zoneId]));
  const out = new Map<string, string>();
  for (const g of [...(grant?.addResources ?? []), ...(grant?.updateResources ?? [])]) {
    const name = g.zoneId ? names.get(g.zoneId) : undefined;
    if (name) out.set(g.resourceDefinitionId, name);
  }
  return out;
}

/** The grant with `moves` applied: each VNFC's COMPUTE entry points at its new zone (added to `zones` if new). */
function moved(grant: Grant, moves: readonly PlacementMove[], vimConnectionId: string | undefined): Grant {
  const zones = [...(grant.zones ?? [])];
  const idOf = (name: string) => {
    let z = zones.find((x) => x.zoneId === name);
    if (!z) {
      let id = `zone-${name}`;
      while (zones.some((x) => x.id === id)) id = `${id}-1`;
      z = { id, zoneId: name, ...(vimConnectionId ? { vimConnectionId } : {}) };
      zones.push(z);
    }
    return z.id;
  };
  const to = new Map(moves.map((m) => [m.vnfcId, idOf(m.zone)]));
  const apply = (entries: Grant['addResources']) =>
    entries?.map((g) =>
      to.has(g.resourceDefinitionId) ? { ...g, zoneId: to.get(g.resourceDefinitionId) } : g,
    );
  return {
    ...grant,
    zones,
    ...(grant.addResources ? { addResources: apply(grant.addResources) } : {}),
    ...(grant.updateResources ? { updateResources: apply(grant.updateResources) } : {}),
  };
}

/** The VNFCs of the run: all of them after the operation, and those it places (by the grant). */
function vnfcsOf(run: Run): { all: Vnfc[]; movable: Vnfc[]; zoneOf: Map<string, string> } {
  const delta = run.progress.outputs.grant?.planned.delta ?? {};
  const { kept, all } = vnfcsAfter(run);
  const zoneOf = new Map<string, string>();
  for (const v of kept) {
    const zone = vnfcZone(v);
    if (zone) zoneOf.set(v.id, zone);
  }
  for (const [id, zone] of grantedZones(run.grant)) zoneOf.set(id, zone);
  const placed = new Set([...(delta.addVnfcs ?? []).map((v) => v.id), ...(delta.updateVnfcs ?? [])]);
  return { all, movable: all.filter((v) => placed.has(v.id)), zoneOf };
}

/** Attempts an op occ keeps (each retry of it adds at most one per zone, plus the last). */
const MAX_KEPT = 100;

const describe = (a: PlacementAttempt) => `${a.zone} (${a.reason})`;

/**
 * Runs `attempt` (the driver call, reading the grant from `run.grant`), choosing another zone
 * each time a zone has no room, up to the configured retries.
 */
export async function withZoneReselection(
  run: Run,
  zones: () => Promise<string[]>,
  attempt: () => Promise<DriverResult>,
): Promise<DriverResult> {
  const { config, logger, db } = run.deps;
  const thisRun: PlacementAttempt[] = [];
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      const failure = placementFailure(err, config.lcm.placementReselectPatterns);
      if (!failure || !run.grant) throw err;
      const vimZones = await zones();
      const { all, movable, zoneOf } = vnfcsOf(run);
      const choice = reselect({
        failure,
        zones: vimZones,
        failed: thisRun.map((a) => a.zone),
        vnfcs: all,
        movable,
        zoneOf,
        rules: flavourOf(run).placementRules,
        fallbackBestEffort: fallbackBestEffort(run),
        retries: thisRun.length,
        maxRetries: config.lcm.placementZoneRetries || vimZones.length,
      });
      if (!choice) throw err;
      const record: PlacementAttempt = { at: nowIso(), ...choice };
      thisRun.push(record);
      // Bounded: a long life of retries keeps its latest attempts.
      const attempts = [...(run.opOcc.placementAttempts ?? []), record].slice(-MAX_KEPT);
      const vimConnectionId = run.progress.outputs.grant?.vim.key;
      const grant = choice.next.length ? moved(run.grant, choice.next, vimConnectionId) : run.grant;
      const saved = await run.store.changeOpOcc(
        db.kysely,
        run.opOcc.id,
        { grant, placementAttempts: attempts },
        { owner: run.owner },
      );
      if (!saved) throw new LeaseLost();
      run.grant = grant;
      run.opOcc = { ...run.opOcc, placementAttempts: attempts };
      const { at, ...attempt } = record;
      run.timeline.emit({ kind: 'placement', at, ...attempt });
      const log = { vnfLcmOpOccId: run.opOcc.id, attempt: record };
      if (choice.stopped) {
        logger.warn(log, 'no other availability zone to try');
        const what = failure.vduId
          ? `${failure.vduId}${failure.vnfcId ? ` (${failure.vnfcId})` : ''}`
          : 'a server';
        throw new InfraError(
          err instanceof InfraError ? err.code : 'NO_VALID_HOST',
          `No availability zone had room for ${what}: tried ${thisRun.map(describe).join(', ')}; ${choice.stopped}. ` +
            'Make room in one of these zones (or add a zone to the VIM), then retry the operation.',
          {
            ...(err instanceof InfraError ? err.detail : {}),
            zonesTried: thisRun.map((a) => a.zone),
          },
        );
      }
      logger.warn(log, 'availability zone without room: trying another');
    }
  }
}
