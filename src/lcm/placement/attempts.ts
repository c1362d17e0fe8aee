/**
 * What an op occ records each time a zone had no room for a server: the zone, the VIM's reason,
 * where the VNFCs granted that zone go next (or why the operation stops). Kept with the op occ
 * after it ends, served in its `error` while it has one, shown by `bosun op show`.
 */

/** A VNFC moved to another zone. */
export interface PlacementMove {
  vnfcId: string;
  vduId: string;
  zone: string;
}

export interface PlacementAttempt {
  /** When the failure was seen. */
  at: string;
  /** The zone that had no room. */
  zone: string;
  /** The VIM's reason. */
  reason: string;
  /** The VNFC whose server failed there, when the VIM said. */
  vnfcId?: string;
  vduId?: string;
  /** Where each VNFC granted `zone` goes next; empty when the operation stops. */
  next: PlacementMove[];
  /** Rules broken to choose `next` (best effort). */
  notes?: string[];
  /** Why no other zone was tried: the operation stops here. */
  stopped?: string;
}
