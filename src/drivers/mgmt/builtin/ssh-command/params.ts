/**
 * `additionalParams.sshCommand`: what the ssh-command driver runs on each new VNFC — a command
 * (under sudo if asked), after an optional file upload — and on which VDUs and through which CP.
 */
import { type Static, Type } from '@sinclair/typebox';

export const SshCommandParamsSchema = Type.Object(
  {
    command: Type.String({ minLength: 1, maxLength: 16 * 1024 }),
    sudo: Type.Optional(Type.Boolean()),
    /** Only the VNFCs of these VDUs (all by default). */
    vduIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 })),
    /** The CPs whose address may be used, in order (any CP with an address by default). */
    cpdIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 })),
    /** A file written on the node before the command runs. */
    upload: Type.Optional(
      Type.Object(
        {
          path: Type.String({ minLength: 1, maxLength: 4096 }),
          content: Type.String({ maxLength: 1024 * 1024 }),
          mode: Type.Optional(Type.Integer({ minimum: 0, maximum: 0o7777 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type SshCommandParams = Static<typeof SshCommandParamsSchema>;
