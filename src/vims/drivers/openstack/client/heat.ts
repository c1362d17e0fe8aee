/**
 * Heat (orchestration v1): stacks (create, update by PATCH keeping the rest or PUT replacing it,
 * delete, show, find by name), their resources (nested_depth), events (filtered by status),
 * outputs, template validation, and waiting until a stack action ends.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from '../../../contract.ts';
import { lookPauses } from './look-pauses.ts';
import type { OpenStackSession } from './session.ts';
import { waitOn } from './timings.ts';

export interface StackRef {
  name: string;
  id: string;
}

export interface Stack extends StackRef {
  stack_name: string;
  stack_status: string;
  stack_status_reason?: string;
  tags?: string[] | null;
  parameters?: Record<string, unknown>;
  outputs?: { output_key: string; output_value: unknown; output_error?: string }[];
  parent?: string | null;
  creation_time?: string;
  updated_time?: string | null;
}

export interface StackResource {
  resource_name: string;
  physical_resource_id: string;
  resource_type: string;
  resource_status: string;
  resource_status_reason?: string;
  logical_resource_id?: string;
  creation_time?: string;
  /** The parent stack's name (nested resources). */
  parent_resource?: string;
  stack_name?: string;
  links?: { href: string; rel: string }[];
  required_by?: string[];
}

export interface StackEvent {
  id: string;
  resource_name: string;
  physical_resource_id?: string;
  logical_resource_id?: string;
  resource_status: string;
  resource_status_reason?: string;
  event_time: string;
}

/** What a stack create or update sends. */
export interface StackTemplate {
  template: Record<string, unknown>;
  /** Nested templates and get_file contents, by the name the template uses. */
  files?: Record<string, string>;
  parameters?: Record<string, unknown>;
  environment?: Record<string, unknown>;
}

export interface StackCreate extends StackTemplate {
  name: string;
  tags?: string[];
  timeoutMins?: number;
  /** Heat deletes what it made when the create fails unless this is true (the driver keeps it). */
  disableRollback?: boolean;
}

const PATH = (ref: StackRef) => `/stacks/${encodeURIComponent(ref.name)}/${encodeURIComponent(ref.id)}`;

const body = (t: StackTemplate) => ({
  template: t.template,
  ...(t.files ? { files: t.files } : {}),
  ...(t.parameters ? { parameters: t.parameters } : {}),
  ...(t.environment ? { environment: t.environment } : {}),
});

export class Heat {
  readonly #s: OpenStackSession;
  constructor(session: OpenStackSession) {
    this.#s = session;
  }

  async createStack(create: StackCreate, signal?: AbortSignal): Promise<StackRef> {
    const r = await this.#s.call<{ stack: { id: string } }>('orchestration', `stack create ${create.name}`, {
      method: 'POST',
      path: '/stacks',
      json: {
        stack_name: create.name,
        ...body(create),
        ...(create.tags?.length ? { tags: create.tags.join(',') } : {}),
        ...(create.timeoutMins ? { timeout_mins: create.timeoutMins } : {}),
        disable_rollback: create.disableRollback ?? true,
      },
      signal,
    });
    return { name: create.name, id: r.data.stack.id };
  }

  /**
   * Updates a stack: `patch` (PATCH) keeps what the request leaves out — template, files and
   * parameters (`existing: true`); otherwise (PUT) the request replaces them.
   */
  async updateStack(
    ref: StackRef,
    update: Partial<StackTemplate> & { tags?: string[]; timeoutMins?: number },
    options: { patch: boolean; signal?: AbortSignal },
  ): Promise<void> {
    await this.#s.call('orchestration', `stack update ${ref.name}`, {
      method: options.patch ? 'PATCH' : 'PUT',
      path: PATH(ref),
      json: {
        ...(update.template ? { template: update.template } : {}),
        ...(update.files ? { files: update.files } : {}),
        ...(update.parameters ? { parameters: update.parameters } : {}),
        ...(update.environment ? { environment: update.environment } : {}),
        ...(update.tags ? { tags: update.tags.join(',') } : {}),
        ...(update.timeoutMins ? { timeout_mins: update.timeoutMins } : {}),
        ...(options.patch ? { existing: true } : {}),
        disable_rollback: true,
      },
      signal: options.signal,
    });
  }

  /**
   * Marks a resource of a stack unhealthy: the next update of the stack (or of its parent)
   * replaces it. Heal of one VNFC's server works through this.
   */
  async markUnhealthy(
    ref: StackRef,
    resourceName: string,
    reason: string,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.#s.call('orchestration', `resource mark unhealthy ${ref.name}/${resourceName}`, {
      method: 'PATCH',
      path: `${PATH(ref)}/resources/${encodeURIComponent(resourceName)}`,
      json: { mark_unhealthy: true, resource_status_reason: reason },
      signal,
    });
  }

  async deleteStack(ref: StackRef, signal?: AbortSignal): Promise<void> {
    await this.#s.call('orchestration', `stack delete ${ref.name}`, {
      method: 'DELETE',
      path: PATH(ref),
      ok: [204, 404],
      signal,
    });
  }

  /**
   * The stack, or undefined once it is gone (deleted stacks answer 404); its outputs unresolved
   * unless asked for: Heat resolves each output by asking the services behind it, which a poll
   * every second would repeat for nothing.
   */
  async showStack(
    ref: StackRef,
    signal?: AbortSignal,
    options: { outputs?: boolean } = {},
  ): Promise<Stack | undefined> {
    const r = await this.#s.call<{ stack: Stack }>('orchestration', `stack show ${ref.name}`, {
      method: 'GET',
      path: PATH(ref),
      query: options.outputs ? undefined : { resolve_outputs: false },
      ok: [200, 404],
      signal,
    });
    if (r.status === 404) return undefined;
    const stack = r.data.stack;
    return { ...stack, name: stack.stack_name };
  }

  /** The live (not deleted) top-level stack of that name, if any. */
  async findStack(name: string, signal?: AbortSignal): Promise<Stack | undefined> {
    const r = await this.#s.call<{ stacks: Stack[] }>('orchestration', `stack find ${name}`, {
      method: 'GET',
      path: '/stacks',
      query: { name },
      signal,
    });
    const found = r.data.stacks.find((s) => s.stack_name === name && s.stack_status !== 'DELETE_COMPLETE');
    return found ? { ...found, name: found.stack_name } : undefined;
  }

  /** Live stacks carrying every tag given. */
  async listStacks(filter: { tags?: string[] }, signal?: AbortSignal): Promise<Stack[]> {
    const r = await this.#s.call<{ stacks: Stack[] }>('orchestration', 'stack list', {
      method: 'GET',
      path: '/stacks',
      query: { tags: filter.tags?.join(',') },
      signal,
    });
    // A stack just deleted can still be listed a moment, DELETE_COMPLETE.
    return r.data.stacks
      .filter((s) => s.stack_status !== 'DELETE_COMPLETE')
      .map((s) => ({ ...s, name: s.stack_name }));
  }

  /**
   * The stack's resources and those of nested stacks down to `nestedDepth`. Without their
   * attributes (with_detail): Heat would resolve each by asking Nova and Neutron, resource by
   * resource, at every read — seconds of the cloud's time for what Bosun reads from them itself.
   */
  async resources(
    ref: StackRef,
    options: { nestedDepth?: number; signal?: AbortSignal } = {},
  ): Promise<StackResource[]> {
    const r = await this.#s.call<{ resources: StackResource[] }>(
      'orchestration',
      `resource list of ${ref.name}`,
      {
        method: 'GET',
        path: `${PATH(ref)}/resources`,
        query: { nested_depth: options.nestedDepth },
        signal: options.signal,
      },
    );
    return r.data.resources;
  }

  /** Events, oldest first, optionally only those with a status (e.g. CREATE_FAILED, or FAILED for any). */
  async events(
    ref: StackRef,
    options: { resourceStatus?: string; nestedDepth?: number; limit?: number; signal?: AbortSignal } = {},
  ): Promise<StackEvent[]> {
    const r = await this.#s.call<{ events: StackEvent[] }>('orchestration', `event list of ${ref.name}`, {
      method: 'GET',
      path: `${PATH(ref)}/events`,
      query: {
        resource_status: options.resourceStatus,
        nested_depth: options.nestedDepth,
        limit: options.limit,
        sort_dir: 'asc',
      },
      signal: options.signal,
    });
    return r.data.events;
  }

  /** The stack's outputs, by key (an output Heat could not resolve is left out). */
  async outputs(ref: StackRef, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const stack = await this.showStack(ref, signal, { outputs: true });
    if (!stack) throw new InfraError('NOT_FOUND', `Heat stack ${ref.name} (${ref.id}) does not exist.`);
    const out: Record<string, unknown> = {};
    for (const o of stack.outputs ?? []) if (!o.output_error) out[o.output_key] = o.output_value;
    return out;
  }

  /** Heat's verdict on a template (an InfraError INVALID_REQUEST with Heat's message when it is wrong). */
  async validate(t: StackTemplate, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const r = await this.#s.call<Record<string, unknown>>('orchestration', 'template validate', {
      method: 'POST',
      path: '/validate',
      json: body(t),
      signal,
    });
    return r.data;
  }

  /**
   * Polls until the stack's current action ends; returns the stack (undefined when it is gone).
   * A signal abort stops the wait (CANCELLED); the stack's action goes on in Heat.
   */
  async waitStack(
    ref: StackRef,
    options: { signal?: AbortSignal; timeoutMs?: number; intervalMs?: number } = {},
  ): Promise<Stack | undefined> {
    const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
    const pauses = lookPauses(options.intervalMs ?? 250);
    for (;;) {
      const stack = await this.showStack(ref, options.signal);
      if (!stack?.stack_status.endsWith('_IN_PROGRESS')) return stack;
      if (Date.now() > deadline) {
        throw new InfraError(
          'VIM_TIMEOUT',
          `Heat stack ${ref.name} is still ${stack.stack_status} after ${Math.round((options.timeoutMs ?? 1_800_000) / 1000)} s`,
          { stack: ref.name },
        );
      }
      // Waiting for Heat to finish is Heat's time, not Bosun's.
      const done = waitOn('orchestration', 0);
      try {
        await sleep(pauses.next().value, undefined, { signal: options.signal });
      } catch {
        throw new InfraError(
          'CANCELLED',
          `Waiting for Heat stack ${ref.name} was cancelled (it is ${stack.stack_status}).`,
        );
      } finally {
        done();
      }
    }
  }
}
