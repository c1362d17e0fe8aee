/**
 * Row types of every table, as Kysely sees them. Timestamps are ISO-8601 UTC strings with
 * milliseconds in both databases, so that comparisons and filters behave the same on SQLite
 * and PostgreSQL. JSON documents are stored as text.
 */
import type { Generated } from 'kysely';

export interface ServerKeysTable {
  name: string;
  /** Sealed with the configured encryption key (see security/sealed-box.ts). */
  sealed_value: string;
  created_at: string;
}

export interface AuthClientsTable {
  client_id: string;
  /** scrypt hash of the client secret: `scrypt$<salt b64>$<hash b64>`. */
  secret_hash: string;
  description: string;
  project_id: string;
  /** JSON array of granted scopes. */
  scopes: string;
  created_at: string;
}

/** A VNF package, and its onboarding job (job_* and lease_* columns). JSON columns are text. */
export interface VnfPackagesTable {
  id: string;
  project_id: string;
  onboarding_state: string;
  operational_state: string;
  usage_state: string;
  user_defined_data: string;
  checksum: string | null;
  vnfd_id: string | null;
  vnf_provider: string | null;
  vnf_product_name: string | null;
  vnf_software_version: string | null;
  vnfd_version: string | null;
  software_images: string | null;
  additional_artifacts: string | null;
  entry_definitions: string | null;
  /** The whole Vnfd model (JSON), for LCM. */
  vnfd_model: string | null;
  /** JSON: every package path the /artifacts resource may serve. */
  artifact_paths: string | null;
  manifest_file: string | null;
  /** Package path of the signing certificate, when the package has one. */
  signing_certificate: string | null;
  /** JSON ProblemDetails of the last failed onboarding. */
  onboarding_failure: string | null;
  package_size: number | string | null;
  /** null (no job), 'uploading', 'queued', 'running'. */
  job_state: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  attempts: number;
  /** JSON: {kind:'upload'} or {kind:'uri', uri, sealedCredentials?}. */
  upload_source: string | null;
  /** `<algorithm>:<hash>` the external NFVO declared for a package fetched from it. */
  nfvo_checksum: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

/** A subscription of any API (api + major say which); filter is JSON, authentication sealed. */
export interface SubscriptionsTable {
  id: string;
  project_id: string;
  /** 'vnfpkgm' (later vnflcm, vnffm, vnfpm). */
  api: string;
  /** 'v1' | 'v2'. */
  major: string;
  callback_uri: string;
  /** JSON of the API's notifications filter ({} when absent). */
  filter: string;
  /** SOL013 SubscriptionAuthentication JSON, sealed with the SealedBox; never returned. */
  authentication: string | null;
  created_at: string;
  /**
   * sha-256 (hex) of the callback URI and the canonical filter (see notify/subscriptions/dedup.ts),
   * unique per project, API and major; null when the subscription was created with
   * `subscriptions.duplicates: allow`.
   */
  dedup_key: string | null;
  /** LCM v2: FULL or SHORT notifications; null for APIs without verbosity. */
  verbosity: string | null;
}

/** One notification for one subscription, written in the transaction of the change. */
export interface NotificationOutboxTable {
  id: Generated<number | string>;
  subscription_id: string;
  /** Stable id of the notification (the payload's id), for receivers' de-duplication. */
  notification_id: string;
  api: string;
  major: string;
  notification_type: string;
  /** The notification JSON, exactly as it will be POSTed. */
  payload: string;
  created_at: string;
  /** 'pending' until delivered (the row is then deleted), or 'dead' once retries are exhausted. */
  state: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: string;
  last_error: string | null;
}

/**
 * Delivery state of one subscription: its lease (the worker delivering to it), its back-off
 * (the head notification failed: nothing is sent before retry_at) and counters for the admin API.
 */
export interface NotificationDeliveriesTable {
  subscription_id: string;
  lease_owner: string | null;
  lease_until: string | null;
  retry_at: string | null;
  /** bigint: a string on PostgreSQL. */
  delivered: Generated<number | string>;
  failed_attempts: Generated<number | string>;
  last_error: string | null;
  last_error_at: string | null;
  last_delivered_at: string | null;
}

/**
 * A VNF instance of one LCM API major (vnf_instances_v2; v1 has the same columns). JSON columns
 * are text; vim_connection_info never holds credentials in clear (see src/vims/request-info.ts).
 */
export interface VnfInstancesTable {
  id: string;
  project_id: string;
  vnf_instance_name: string | null;
  vnf_instance_description: string | null;
  vnfd_id: string;
  /** The package the instance uses (its usageState follows). */
  vnf_pkg_id: string;
  vnf_provider: string;
  vnf_product_name: string;
  vnf_software_version: string;
  vnfd_version: string;
  /** NOT_INSTANTIATED | INSTANTIATED. */
  instantiation_state: string;
  instantiated_vnf_info: string | null;
  vim_connection_info: string;
  vnf_configurable_properties: string;
  metadata: string;
  extensions: string;
  /** The op occ holding the instance (accepted until COMPLETED, FAILED or ROLLED_BACK). */
  busy_op_occ_id: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

/** An LCM operation occurrence, and the job that runs it (job_state, lease_*). */
export interface LcmOpOccsTable {
  id: string;
  project_id: string;
  vnf_instance_id: string;
  operation: string;
  operation_state: string;
  state_entered_time: string;
  start_time: string;
  is_automatic_invocation: boolean | number;
  operation_params: string;
  is_cancel_pending: boolean | number;
  cancel_mode: string | null;
  error: string | null;
  resource_changes: string | null;
  changed_info: string | null;
  changed_ext_connectivity: string | null;
  grant_id: string | null;
  grant_request: string | null;
  grant: string | null;
  /** JSON: the engine's progress (src/lcm/progress.ts). */
  progress: string;
  /** JSON: the zones tried when one had no room (src/lcm/placement/attempts.ts). */
  placement_attempts: string | null;
  /** null (nothing to run), 'queued', 'running'. */
  job_state: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  attempts: number;
  created_at: string;
  updated_at: string;
  version: number;
}

/** One event of an op occ's timeline (src/lcm/timeline/event.ts). */
export interface LcmOpEventsTable {
  op_occ_id: string;
  /** Increasing per op occ, in commit order; the SSE stream's event id. */
  seq: number;
  at: string;
  kind: string;
  /** JSON: the event's own fields. */
  data: string;
}

/** Each op occ's last timeline sequence number and how many driver output lines it kept. */
export interface LcmOpEventSeqsTable {
  op_occ_id: string;
  last_seq: number;
  output_lines: number;
}

/** A registered VIM (project '*' = shared by every project). Secrets are sealed, never returned. */
export interface VimsTable {
  id: string;
  project_id: string;
  name: string;
  vim_type: string;
  description: string;
  /** JSON: interfaceInfo without its secret keys. */
  interface_info: string;
  /** JSON: extra. */
  extra: string;
  /** SealedBox of JSON {accessInfo, interfaceInfo: secret keys}; null when there are none. */
  sealed_secrets: string | null;
  created_at: string;
  /** JSON array: the zone names the VIM showed at its last registration check; null if unchecked. */
  zones: string | null;
  updated_at: string | null;
}

/** The default VIM of a project ('*': the fallback of every project). */
export interface DefaultVimsTable {
  project_id: string;
  vim_id: string;
}

/** Simulated VIM: an availability zone; `exhausted` makes every placement there fail. */
export interface SimZonesTable {
  name: string;
  exhausted: boolean | number;
  created_at: string;
}

export interface SimHostsTable {
  name: string;
  zone: string;
  vcpus: number;
  ram_mb: number;
  disk_gb: number;
  /** 'up' | 'down'. */
  state: string;
  created_at: string;
}

export interface SimFlavorsTable {
  id: string;
  name: string;
  vcpus: number;
  ram_mb: number;
  disk_gb: number;
}

/** Columns every simulated resource has: its tags (owner instance, creating op occ). */
interface SimTagged {
  id: string;
  instance_id: string | null;
  op_occ_id: string | null;
  created_at: string;
}

export interface SimImagesTable extends SimTagged {
  name: string;
  checksum: string | null;
  size: number | string;
  min_disk_gb: number;
  min_ram_mb: number;
  disk_format: string;
  container_format: string;
}

/** An image in an OpenStack cloud's Glance used by an instance (migration 0011). */
export interface OpenStackImagesTable {
  /** The cloud and project: Keystone URL and project id. */
  cloud: string;
  image_id: string;
  instance_id: string;
  op_occ_id: string;
  /** `<algorithm>:<hex>` of the package's image. */
  checksum: string;
  /** 1 when Bosun uploaded it (then it goes with its last instance). */
  uploaded_by_bosun: number;
  created_at: string;
}

/** One stack per VNF instance; `params` (JSON) is the instance-level state (flavour, scale status, ext VLs). */
export interface SimStacksTable extends SimTagged {
  name: string;
  status: string;
  params: string;
  updated_at: string;
}

export interface SimServersTable extends SimTagged {
  stack_id: string;
  /** vnfcResourceInfo id this server realises (kept when the server is re-created). */
  vnfc_id: string;
  vdu_id: string;
  /** Order of the VNFC's birth in the instance (kept across re-creation). */
  seq: number;
  name: string;
  zone: string;
  host: string;
  flavor_id: string;
  image_id: string | null;
  vcpus: number;
  ram_mb: number;
  disk_gb: number;
  /** JSON array of the VduCp names of the VNFC. */
  cps: string;
  /** Wanted power state: 'on' | 'off'. */
  power: string;
  /** 'ACTIVE' | 'SHUTOFF' | 'ERROR'. */
  status: string;
  /** Why the server is in ERROR: 'host-down: …' or 'crashed: …'. */
  fault: string | null;
}

export interface SimVolumesTable extends SimTagged {
  stack_id: string;
  vnfc_id: string;
  /** virtualStorageResourceInfo id. */
  storage_id: string;
  desc_id: string;
  size_gb: number;
  image_id: string | null;
  server_id: string | null;
  status: string;
}

export interface SimNetworksTable extends SimTagged {
  stack_id: string;
  desc_id: string;
  name: string;
  cidr: string;
}

export interface SimPortsTable extends SimTagged {
  stack_id: string | null;
  vnfc_id: string | null;
  cpd_id: string | null;
  /** A simulated network's id, or an external network id as given by the request. */
  network_id: string;
  /** extVirtualLinks[].id the port belongs to (external CPs). */
  ext_vl_id: string | null;
  cp_config_id: string | null;
  /** False for ports the request supplied (cpConfig.linkPortId): detached, never deleted. */
  owned: boolean | number;
  server_id: string | null;
  mac: string;
  /** JSON [{ip, subnetId, dynamic}]. */
  ips: string;
}

export interface SimFaultsTable {
  id: string;
  /** e.g. 'server.create', or '*' for every kind. */
  kind: string;
  /** 'fail' | 'hang'. */
  action: string;
  message: string | null;
  remaining: number;
  timeout_ms: number | null;
  created_at: string;
}

/** What an op occ changed in the simulated VIM: the row before (null = created by it). */
export interface SimJournalTable {
  id: Generated<number | string>;
  instance_id: string;
  op_occ_id: string;
  table_name: string;
  resource_id: string;
  before: string | null;
  created_at: string;
}

/**
 * A fault management alarm (SOL002/SOL003 Alarm). JSON columns are text: vnfc_instance_ids,
 * root_cause_faulty_resource, correlated_alarm_ids and fault_details.
 */
export interface AlarmsTable {
  id: string;
  project_id: string;
  /** The source's dedup key: unique among the project's alarms not cleared. */
  fingerprint: string;
  managed_object_id: string;
  /** The LCM API major ('v1' | 'v2') of the managed VNF instance. */
  instance_major: string;
  vnfc_instance_ids: string;
  root_cause_faulty_resource: string;
  faulty_resource_type: string;
  alarm_raised_time: string;
  alarm_changed_time: string | null;
  alarm_cleared_time: string | null;
  alarm_acknowledged_time: string | null;
  ack_state: string;
  perceived_severity: string;
  event_time: string;
  event_type: string;
  fault_type: string | null;
  probable_cause: string;
  /** 0/1 on SQLite, boolean on PostgreSQL. */
  is_root_cause: boolean | number;
  correlated_alarm_ids: string;
  fault_details: string;
  version: number;
}

/** An auto-heal batch of a VNF instance (migration 0014): vnfc_ids and alarm_ids are JSON arrays. */
export interface AutoHealsTable {
  id: string;
  instance_id: string;
  project_id: string;
  instance_major: string;
  /** 'pending' | 'started' | 'given-up'. */
  state: string;
  vnfc_ids: string;
  alarm_ids: string;
  whole: boolean | number;
  due_at: string;
  attempts: number;
  op_occ_id: string | null;
  last_error: string | null;
  created_at: string;
  version: number;
}

/** A running `bosun serve` process (store/replicas/registry.ts), refreshed while it lives. */
export interface ReplicasTable {
  /** Its lease-owner id (store/queue/owner.ts). */
  id: string;
  role: string;
  version: string;
  hostname: string;
  pid: number;
  started_at: string;
  seen_at: string;
}

export interface Tables {
  server_keys: ServerKeysTable;
  auth_clients: AuthClientsTable;
  vnf_packages: VnfPackagesTable;
  subscriptions: SubscriptionsTable;
  notification_outbox: NotificationOutboxTable;
  vnf_instances_v2: VnfInstancesTable;
  vnf_lcm_op_occs_v2: LcmOpOccsTable;
  vnf_instances_v1: VnfInstancesTable;
  vnf_lcm_op_occs_v1: LcmOpOccsTable;
  notification_deliveries: NotificationDeliveriesTable;
  vims: VimsTable;
  default_vims: DefaultVimsTable;
  sim_zones: SimZonesTable;
  sim_hosts: SimHostsTable;
  sim_flavors: SimFlavorsTable;
  sim_images: SimImagesTable;
  sim_stacks: SimStacksTable;
  sim_servers: SimServersTable;
  sim_volumes: SimVolumesTable;
  sim_networks: SimNetworksTable;
  sim_ports: SimPortsTable;
  sim_faults: SimFaultsTable;
  sim_journal: SimJournalTable;
  alarms: AlarmsTable;
  auto_heals: AutoHealsTable;
  openstack_images: OpenStackImagesTable;
  vnf_lcm_op_events: LcmOpEventsTable;
  vnf_lcm_op_event_seqs: LcmOpEventSeqsTable;
  replicas: ReplicasTable;
}
