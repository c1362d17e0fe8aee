/**
 * What a VIM says about itself when asked live: its availability zones, their hosts and each
 * host's capacity and use. The registration check reads it to prove the credentials work, and
 * `bosun vim show` prints it; every driver that can answer returns this one shape.
 */

export interface VimHostDescription {
  name: string;
  /** Whether the host takes new servers (its compute service is up and enabled). */
  up: boolean;
  vcpus: number;
  vcpusUsed: number;
  ramMb: number;
  ramMbUsed: number;
}

export interface VimZoneDescription {
  name: string;
  hosts: VimHostDescription[];
}

export interface VimDescription {
  zones: VimZoneDescription[];
  /**
   * false when the VIM's user may not see hosts (Nova's zone detail and hypervisors are
   * admin-only by default): the zones are listed without them.
   */
  hostsVisible?: boolean;
}
