/**
 * The registration check: before a VIM is stored (or its credentials change), Bosun asks it for
 * its zones with the credentials given, so that a wrong password, an unknown project, an
 * unreachable endpoint or a TLS failure is answered at once, saying what to fix, and nothing is
 * stored. The VIM refusing is 422 (the request must change); the VIM not answering is 502.
 */
import { ApiError } from '../sol/problem.ts';
import { InfraError, type VimConnection } from './contract.ts';
import type { VimDescription } from './description.ts';
import type { VimDriverTable } from './drivers/index.ts';

/** InfraError codes that mean the VIM was not reached or did not answer. */
const UNREACHED = new Set(['VIM_UNAVAILABLE', 'VIM_TIMEOUT', 'CANCELLED']);

const HINTS = {
  /** The VIM answered and refused (Keystone's 401, an unknown project, a missing role). */
  refused: 'Correct the credentials, project or domain names and try again.',
  /** Bosun refused before asking (e.g. outbound.allow): the reason says what to change. */
  invalid: 'Correct it and try again.',
  unreached:
    'Check the auth URL, that Bosun may reach it (outbound.allow for a private address) and the CA bundle, then try again.',
} as const;

/** The messages of an error and its causes (fetch failures hide the reason in `cause`). */
function reasonOf(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e instanceof Error && depth < 4; depth++) {
    const { message } = e;
    if (message && !parts.some((p) => p.includes(message))) parts.push(message);
    e = e.cause;
  }
  return parts.join(': ') || String(error);
}

function kindOf(error: unknown): keyof typeof HINTS {
  if (error instanceof ApiError) return error.status >= 400 && error.status < 500 ? 'refused' : 'unreached';
  if (error instanceof InfraError) {
    const vimStatus = error.detail?.status;
    // The VIM's own server error is not the request's fault: as if it had not answered.
    if (typeof vimStatus === 'number') return vimStatus >= 500 ? 'unreached' : 'refused';
    return UNREACHED.has(error.code) ? 'unreached' : 'invalid';
  }
  return 'unreached';
}

/**
 * The failure of asking `vim` as a ProblemDetails that says what to fix. `what` names the step
 * ("the registration check of VIM lab"), `stored` says what became of the request.
 */
export function vimCheckError(error: unknown, what: string, vim: VimConnection, stored: string): ApiError {
  const kind = kindOf(error);
  const endpoint = typeof vim.interfaceInfo?.endpoint === 'string' ? ` at ${vim.interfaceInfo.endpoint}` : '';
  const reason = reasonOf(error).replace(/\.?$/, '.');
  return new ApiError(
    kind === 'unreached' ? 502 : 422,
    `${what} failed${endpoint}: ${reason} ${stored} ${HINTS[kind]}`,
    {
      extensions: {
        vimCheck: kind === 'unreached' ? 'UNREACHED' : 'REFUSED',
        ...(error instanceof InfraError ? { infraErrorCode: error.code } : {}),
      },
    },
  );
}

/**
 * Asks the VIM for its description with the connection's credentials; undefined when its
 * driver cannot describe a VIM. Throws the ApiError of vimCheckError.
 */
export async function describeVim(
  drivers: VimDriverTable,
  vim: VimConnection,
  what: string,
  stored: string,
): Promise<VimDescription | undefined> {
  const describer = drivers.describer(vim.vimType);
  if (!describer) return undefined;
  try {
    return await describer(vim);
  } catch (error) {
    throw vimCheckError(error, what, vim, stored);
  }
}
