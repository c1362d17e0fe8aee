/**
 * The TOSCA Simple Profile normative types that SOL001 (and vendor VNFDs) derive from. They are
 * always visible, as a TOSCA processor must know them without any import. Only what SOL001
 * files and real VNFDs need is here; the definitions follow TOSCA Simple Profile in YAML 1.2/1.3.
 */

/** Pseudo package path of these definitions in locations. */
export const NORMATIVE_FILE = 'bosun:tosca-normative-types.yaml';

/** Primitive TOSCA types (not in the registry: values are checked directly). */
export const PRIMITIVE_TYPES = new Set([
  'string',
  'integer',
  'float',
  'boolean',
  'timestamp',
  'version',
  'range',
  'list',
  'map',
  'null',
  'any',
  'scalar-unit.size',
  'scalar-unit.time',
  'scalar-unit.frequency',
  'scalar-unit.bitrate',
]);

export const NORMATIVE_TYPES_YAML = `
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  tosca.datatypes.Root:
    description: The root of all data types.
  tosca.datatypes.json:
    derived_from: string
  tosca.datatypes.xml:
    derived_from: string
  tosca.datatypes.Credential:
    derived_from: tosca.datatypes.Root
    properties:
      protocol: { type: string, required: false }
      token_type: { type: string, default: password }
      token: { type: string }
      keys: { type: map, required: false, entry_schema: { type: string } }
      user: { type: string, required: false }
  tosca.datatypes.TimeInterval:
    derived_from: tosca.datatypes.Root
    properties:
      start_time: { type: timestamp, required: true }
      end_time: { type: timestamp, required: true }
  tosca.datatypes.network.NetworkInfo:
    derived_from: tosca.datatypes.Root
    properties:
      network_name: { type: string, required: false }
      network_id: { type: string, required: false }
      addresses: { type: list, required: false, entry_schema: { type: string } }
  tosca.datatypes.network.PortDef:
    derived_from: integer
    constraints:
      - in_range: [ 1, 65535 ]
  tosca.datatypes.network.PortInfo:
    derived_from: tosca.datatypes.Root
    properties:
      port_name: { type: string, required: false }
      port_id: { type: string, required: false }
      network_id: { type: string, required: false }
      mac_address: { type: string, required: false }
      addresses: { type: list, required: false, entry_schema: { type: string } }
  tosca.datatypes.network.PortSpec:
    derived_from: tosca.datatypes.Root
    properties:
      protocol: { type: string, required: true, default: tcp, constraints: [ valid_values: [ udp, tcp, igmp ] ] }
      source: { type: tosca.datatypes.network.PortDef, required: false }
      source_range: { type: range, required: false }
      target: { type: tosca.datatypes.network.PortDef, required: false }
      target_range: { type: range, required: false }

capability_types:
  tosca.capabilities.Root:
    description: The root of all capability types.
  tosca.capabilities.Node:
    derived_from: tosca.capabilities.Root
  tosca.capabilities.Container:
    derived_from: tosca.capabilities.Root
  tosca.capabilities.Compute:
    derived_from: tosca.capabilities.Container
    properties:
      name: { type: string, required: false }
      num_cpus: { type: integer, required: false, constraints: [ greater_or_equal: 1 ] }
      cpu_frequency: { type: scalar-unit.frequency, required: false }
      disk_size: { type: scalar-unit.size, required: false }
      mem_size: { type: scalar-unit.size, required: false }
  tosca.capabilities.Storage:
    derived_from: tosca.capabilities.Root
    properties:
      name: { type: string, required: false }
  tosca.capabilities.Attachment:
    derived_from: tosca.capabilities.Root
  tosca.capabilities.Endpoint:
    derived_from: tosca.capabilities.Root
    properties:
      protocol: { type: string, required: true, default: tcp }
      port: { type: tosca.datatypes.network.PortDef, required: false }
      secure: { type: boolean, required: false, default: false }
      url_path: { type: string, required: false }
      port_name: { type: string, required: false }
      network_name: { type: string, required: false, default: PRIVATE }
      initiator: { type: string, default: source, constraints: [ valid_values: [ source, target, peer ] ] }
      ports: { type: map, required: false, entry_schema: { type: tosca.datatypes.network.PortSpec } }
  tosca.capabilities.Endpoint.Admin:
    derived_from: tosca.capabilities.Endpoint
  tosca.capabilities.Endpoint.Public:
    derived_from: tosca.capabilities.Endpoint
  tosca.capabilities.Endpoint.Database:
    derived_from: tosca.capabilities.Endpoint
  tosca.capabilities.Scalable:
    derived_from: tosca.capabilities.Root
    properties:
      min_instances: { type: integer, required: true, default: 1 }
      max_instances: { type: integer, required: true, default: 1 }
      default_instances: { type: integer, required: false }
  tosca.capabilities.OperatingSystem:
    derived_from: tosca.capabilities.Root
    properties:
      architecture: { type: string, required: false }
      type: { type: string, required: false }
      distribution: { type: string, required: false }
      version: { type: version, required: false }
  tosca.capabilities.network.Bindable:
    derived_from: tosca.capabilities.Node
  tosca.capabilities.network.Linkable:
    derived_from: tosca.capabilities.Node

relationship_types:
  tosca.relationships.Root:
    description: The root of all relationship types.
    interfaces:
      Configure:
        type: tosca.interfaces.relationship.Configure
  tosca.relationships.DependsOn:
    derived_from: tosca.relationships.Root
    valid_target_types: [ tosca.capabilities.Node ]
  tosca.relationships.HostedOn:
    derived_from: tosca.relationships.Root
    valid_target_types: [ tosca.capabilities.Container ]
  tosca.relationships.ConnectsTo:
    derived_from: tosca.relationships.Root
    valid_target_types: [ tosca.capabilities.Endpoint ]
    properties:
      credential: { type: tosca.datatypes.Credential, required: false }
  tosca.relationships.AttachesTo:
    derived_from: tosca.relationships.Root
    valid_target_types: [ tosca.capabilities.Attachment ]
    properties:
      location: { type: string, required: true, default: /mnt }
      device: { type: string, required: false }
  tosca.relationships.RoutesTo:
    derived_from: tosca.relationships.ConnectsTo
    valid_target_types: [ tosca.capabilities.Endpoint ]
  tosca.relationships.network.LinksTo:
    derived_from: tosca.relationships.DependsOn
    valid_target_types: [ tosca.capabilities.network.Linkable ]
  tosca.relationships.network.BindsTo:
    derived_from: tosca.relationships.DependsOn
    valid_target_types: [ tosca.capabilities.network.Bindable ]

interface_types:
  tosca.interfaces.Root:
    description: The root of all interface types.
  tosca.interfaces.node.lifecycle.Standard:
    derived_from: tosca.interfaces.Root
    create: { description: Creates the node }
    configure: { description: Configures the node }
    start: { description: Starts the node }
    stop: { description: Stops the node }
    delete: { description: Deletes the node }
  tosca.interfaces.relationship.Configure:
    derived_from: tosca.interfaces.Root
    pre_configure_source: {}
    pre_configure_target: {}
    post_configure_source: {}
    post_configure_target: {}
    add_target: {}
    add_source: {}
    target_changed: {}
    remove_target: {}

artifact_types:
  tosca.artifacts.Root:
    description: The root of all artifact types.
  tosca.artifacts.File:
    derived_from: tosca.artifacts.Root
  tosca.artifacts.Deployment:
    derived_from: tosca.artifacts.Root
  tosca.artifacts.Deployment.Image:
    derived_from: tosca.artifacts.Deployment
  tosca.artifacts.Deployment.Image.VM:
    derived_from: tosca.artifacts.Deployment.Image
  tosca.artifacts.Implementation:
    derived_from: tosca.artifacts.Root
  tosca.artifacts.Implementation.Bash:
    derived_from: tosca.artifacts.Implementation
    mime_type: application/x-sh
    file_ext: [ sh ]
  tosca.artifacts.Implementation.Python:
    derived_from: tosca.artifacts.Implementation
    mime_type: application/x-python
    file_ext: [ py ]
  tosca.artifacts.template:
    derived_from: tosca.artifacts.Root

node_types:
  tosca.nodes.Root:
    description: The root of all node types.
    attributes:
      tosca_id: { type: string }
      tosca_name: { type: string }
      state: { type: string }
    capabilities:
      feature:
        type: tosca.capabilities.Node
    requirements:
      - dependency:
          capability: tosca.capabilities.Node
          node: tosca.nodes.Root
          relationship: tosca.relationships.DependsOn
          occurrences: [ 0, UNBOUNDED ]
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
  tosca.nodes.Abstract.Compute:
    derived_from: tosca.nodes.Root
    capabilities:
      host:
        type: tosca.capabilities.Compute
  tosca.nodes.Compute:
    derived_from: tosca.nodes.Abstract.Compute
    attributes:
      private_address: { type: string }
      public_address: { type: string }
    capabilities:
      host:
        type: tosca.capabilities.Compute
        valid_source_types: [ tosca.nodes.SoftwareComponent ]
      os:
        type: tosca.capabilities.OperatingSystem
      scalable:
        type: tosca.capabilities.Scalable
      endpoint:
        type: tosca.capabilities.Endpoint.Admin
    requirements:
      - local_storage:
          capability: tosca.capabilities.Attachment
          node: tosca.nodes.Storage.BlockStorage
          relationship: tosca.relationships.AttachesTo
          occurrences: [ 0, UNBOUNDED ]
  tosca.nodes.SoftwareComponent:
    derived_from: tosca.nodes.Root
    properties:
      component_version: { type: version, required: false }
      admin_credential: { type: tosca.datatypes.Credential, required: false }
    requirements:
      - host:
          capability: tosca.capabilities.Compute
          node: tosca.nodes.Compute
          relationship: tosca.relationships.HostedOn
  tosca.nodes.Abstract.Storage:
    derived_from: tosca.nodes.Root
    properties:
      name: { type: string }
      size: { type: scalar-unit.size, default: 0 MB, constraints: [ greater_or_equal: 0 MB ] }
  tosca.nodes.Storage.BlockStorage:
    derived_from: tosca.nodes.Abstract.Storage
    properties:
      volume_id: { type: string, required: false }
      snapshot_id: { type: string, required: false }
    capabilities:
      attachment:
        type: tosca.capabilities.Attachment
  tosca.nodes.network.Network:
    derived_from: tosca.nodes.Root
    properties:
      ip_version: { type: integer, required: false, default: 4, constraints: [ valid_values: [ 4, 6 ] ] }
      cidr: { type: string, required: false }
      network_name: { type: string, required: false }
      network_id: { type: string, required: false }
    capabilities:
      link:
        type: tosca.capabilities.network.Linkable
  tosca.nodes.network.Port:
    derived_from: tosca.nodes.Root
    properties:
      ip_address: { type: string, required: false }
      order: { type: integer, required: true, default: 0, constraints: [ greater_or_equal: 0 ] }
      is_default: { type: boolean, required: false, default: false }
    requirements:
      - link:
          capability: tosca.capabilities.network.Linkable
          relationship: tosca.relationships.network.LinksTo
      - binding:
          capability: tosca.capabilities.network.Bindable
          relationship: tosca.relationships.network.BindsTo

group_types:
  tosca.groups.Root:
    description: The root of all group types.
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard

policy_types:
  tosca.policies.Root:
    description: The root of all policy types.
  tosca.policies.Placement:
    derived_from: tosca.policies.Root
  tosca.policies.Scaling:
    derived_from: tosca.policies.Root
  tosca.policies.Update:
    derived_from: tosca.policies.Root
  tosca.policies.Performance:
    derived_from: tosca.policies.Root
`;
