/**
 * Tacker's legacy VIM resource (/v1.0/vims) as its client sends it: the request bodies of
 * `openstack vim register` (from vim.yaml) and `vim set`, the list query, and the mapping
 * between Tacker's VIM types and the vimType Bosun's registry stores. Bounded everywhere: the
 * body comes from any project's user.
 */
import { type Static, Type } from '@sinclair/typebox';

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Text = Type.String({ maxLength: 1024 });
const Secret = Type.String({ maxLength: 4096 });

/** Tacker's type names and the vimType stored for each. */
export const LEGACY_TYPES: Record<string, string> = {
  openstack: 'ETSINFV.OPENSTACK_KEYSTONE.V_3',
  kubernetes: 'ETSINFV.KUBERNETES.V_1',
};

/** The Tacker type name of a stored vimType (another vimType is shown as it is). */
export const legacyTypeOf = (vimType: string) =>
  Object.entries(LEGACY_TYPES).find(([, stored]) => stored === vimType)?.[0] ?? vimType;

/** 'True'/'False' as vim.yaml writes it (the client sends the string), or a JSON boolean. */
const Flag = Type.Union([Type.Literal('True'), Type.Literal('False'), Type.Boolean()]);

const VimProject = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 255 })),
    id: Type.Optional(Type.String({ maxLength: 255 })),
    project_domain_name: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);

const AuthCred = Type.Object(
  {
    username: Type.Optional(Type.String({ maxLength: 255 })),
    password: Type.Optional(Secret),
    user_domain_name: Type.Optional(Type.String({ maxLength: 255 })),
    cert_verify: Type.Optional(Flag),
    /** PEM CA bundle of the VIM's endpoints (vim.yaml ssl_ca_cert). */
    ssl_ca_cert: Type.Optional(Type.String({ maxLength: 65536 })),
    bearer_token: Type.Optional(Secret),
    oidc_token_url: Type.Optional(Type.String({ maxLength: 2048 })),
    client_id: Type.Optional(Type.String({ maxLength: 255 })),
    client_secret: Type.Optional(Secret),
  },
  { additionalProperties: false },
);

export const CreateVimBody = Type.Object(
  {
    vim: Type.Object(
      {
        name: Name,
        description: Type.Optional(Text),
        /** openstack (default), kubernetes, or a vimType as the list shows it. */
        type: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._-]+$' })),
        auth_url: Type.String({ minLength: 1, maxLength: 2048 }),
        vim_project: VimProject,
        auth_cred: AuthCred,
        is_default: Type.Optional(Type.Boolean()),
        tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        extra: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { maxProperties: 64 })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type CreateVim = Static<typeof CreateVimBody>['vim'];

/**
 * `vim set`: name, description, is_default and, from a config file, the project and credentials.
 * auth_url, type and tenant_id are accepted only to be refused by name (they cannot change).
 */
export const UpdateVimBody = Type.Object(
  {
    vim: Type.Object(
      {
        name: Type.Optional(Name),
        description: Type.Optional(Text),
        is_default: Type.Optional(Type.Boolean()),
        vim_project: Type.Optional(VimProject),
        auth_cred: Type.Optional(AuthCred),
        auth_url: Type.Optional(Type.String({ maxLength: 2048 })),
        type: Type.Optional(Type.String({ maxLength: 64 })),
        tenant_id: Type.Optional(Type.String({ maxLength: 128 })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type UpdateVim = Static<typeof UpdateVimBody>['vim'];

/** The list's filters (Tacker's `attribute=value`) and `fields` (comma-separated). */
export const ListVimsQuery = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 64 })),
    name: Type.Optional(Type.String({ maxLength: 255 })),
    tenant_id: Type.Optional(Type.String({ maxLength: 128 })),
    type: Type.Optional(Type.String({ maxLength: 64 })),
    status: Type.Optional(Type.String({ maxLength: 32 })),
    is_default: Type.Optional(Type.String({ maxLength: 8 })),
    fields: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type ListVims = Static<typeof ListVimsQuery>;

export type AuthCredIn = Static<typeof AuthCred>;
export type VimProjectIn = Static<typeof VimProject>;
