/**
 * The Grant an external NFVO answers, checked before Bosun acts on it: a TypeBox schema of what
 * Bosun reads (SOL003 v3.3.1 §9.5.2.3, and v2.6.1's `vimConnections` array, which older NFVOs
 * send), bounded in size, then turned into Bosun's Grant with the VIM connections' credentials
 * sealed — a grant is recorded in the op occ and must hold nothing secret in clear.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { SealedBox } from '../security/sealed-box.ts';
import { sealRequestVims } from '../vims/request-info.ts';
import type { Grant, GrantRequest } from './types.ts';

const Id = Type.String({ minLength: 1, maxLength: 255 });
const MAX_ITEMS = 10000;
const list = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Optional(Type.Array(item, { maxItems: MAX_ITEMS }));
const Info = Type.Optional(Type.Record(Type.String(), Type.Unknown()));

const VimConnection = Type.Object({
  vimId: Type.Optional(Id),
  vimType: Type.String({ minLength: 1, maxLength: 255 }),
  interfaceInfo: Info,
  accessInfo: Info,
  extra: Info,
});

const GrantInfo = Type.Object({
  resourceDefinitionId: Id,
  reservationId: Type.Optional(Id),
  vimConnectionId: Type.Optional(Id),
  resourceProviderId: Type.Optional(Id),
  zoneId: Type.Optional(Id),
  resourceGroupId: Type.Optional(Id),
});

const Link = Type.Object({ href: Type.String({ maxLength: 4096 }) });

export const NfvoGrantSchema = Type.Object({
  id: Id,
  vnfInstanceId: Id,
  vnfLcmOpOccId: Id,
  vimConnectionInfo: Type.Optional(Type.Record(Type.String({ maxLength: 255 }), VimConnection)),
  vimConnections: list(Type.Intersect([Type.Object({ id: Id }), VimConnection])),
  zones: list(
    Type.Object({
      id: Id,
      zoneId: Id,
      vimConnectionId: Type.Optional(Id),
      resourceProviderId: Type.Optional(Id),
    }),
  ),
  zoneGroups: list(Type.Object({ zoneId: Type.Array(Id, { maxItems: MAX_ITEMS }) })),
  addResources: list(GrantInfo),
  tempResources: list(GrantInfo),
  removeResources: list(GrantInfo),
  updateResources: list(GrantInfo),
  vimAssets: Type.Optional(
    Type.Object({
      computeResourceFlavours: list(
        Type.Object({
          vimConnectionId: Type.Optional(Id),
          resourceProviderId: Type.Optional(Id),
          vnfdVirtualComputeDescId: Id,
          vimFlavourId: Id,
        }),
      ),
      softwareImages: list(
        Type.Object({
          vimConnectionId: Type.Optional(Id),
          resourceProviderId: Type.Optional(Id),
          vnfdSoftwareImageId: Id,
          vimSoftwareImageId: Id,
        }),
      ),
    }),
  ),
  additionalParams: Info,
  _links: Type.Optional(Type.Object({ self: Type.Optional(Link) })),
});

export type NfvoGrant = Static<typeof NfvoGrantSchema>;

/** The NFVO's answer is not a Grant Bosun can use; the message says why. */
export class InvalidGrant extends Error {
  override name = 'InvalidGrant';
}

/**
 * The Grant approves only some of the resources to add: the operation cannot be done as planned
 * (Bosun does not add what was not approved), so it is as refused.
 */
export class PartialGrant extends Error {
  override name = 'PartialGrant';
}

/** Checks the NFVO's answer against the request and returns it as Bosun's Grant (credentials sealed). */
export function readGrant(body: unknown, request: GrantRequest, box: SealedBox, selfHref: string): Grant {
  if (!Value.Check(NfvoGrantSchema, body)) {
    const problems = [...Value.Errors(NfvoGrantSchema, body)]
      .slice(0, 3)
      .map((e) => `${e.path || '/'}: ${e.message}`);
    throw new InvalidGrant(`its answer is not a Grant (${problems.join('; ')})`);
  }
  if (body.vnfInstanceId !== request.vnfInstanceId || body.vnfLcmOpOccId !== request.vnfLcmOpOccId) {
    throw new InvalidGrant(
      `its Grant ${body.id} is for VNF instance ${body.vnfInstanceId} and operation occurrence ${body.vnfLcmOpOccId}, not ${request.vnfInstanceId} and ${request.vnfLcmOpOccId}`,
    );
  }
  const asked = new Set((request.addResources ?? []).map((r) => r.id));
  const unknown = (body.addResources ?? []).find((g) => !asked.has(g.resourceDefinitionId));
  if (unknown) {
    throw new InvalidGrant(
      `its Grant adds resource ${unknown.resourceDefinitionId}, which was not requested`,
    );
  }
  const approved = new Set((body.addResources ?? []).map((g) => g.resourceDefinitionId));
  const missing = [...asked].filter((id) => !approved.has(id));
  if (missing.length) {
    const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? ', …' : '');
    throw new PartialGrant(
      `its Grant ${body.id} approves ${asked.size - missing.length} of the ${asked.size} resources to add (not ${shown})`,
    );
  }
  const zoneIds = new Set((body.zones ?? []).map((z) => z.id));
  const badZone = [...(body.addResources ?? []), ...(body.updateResources ?? [])].find(
    (g) => g.zoneId !== undefined && !zoneIds.has(g.zoneId),
  );
  if (badZone) {
    throw new InvalidGrant(
      `its Grant places resource ${badZone.resourceDefinitionId} in zone ${badZone.zoneId}, which is not among its zones`,
    );
  }
  const connections = {
    ...Object.fromEntries((body.vimConnections ?? []).map(({ id, ...c }) => [id, c])),
    ...body.vimConnectionInfo,
  };
  const sealed = sealRequestVims(box, Object.keys(connections).length ? connections : undefined);
  const { vimConnections: _v26, vimConnectionInfo: _v33, _links: _self, ...rest } = body;
  return {
    ...rest,
    ...(sealed ? { vimConnectionInfo: sealed.stored as Grant['vimConnectionInfo'] } : {}),
    _links: {
      self: { href: selfHref },
      vnfLcmOpOcc: request._links.vnfLcmOpOcc,
      vnfInstance: request._links.vnfInstance,
    },
  };
}
