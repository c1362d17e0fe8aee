/** The package state machine table: which onboarding states allow which action. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ONBOARDING_STATES, type PackageAction, refusalOf, TRANSITIONS } from '../../src/packages/states.ts';

const allowed: Record<PackageAction, string[]> = {
  upload: ['CREATED'],
  uploadFromUri: ['CREATED'],
  uploaded: ['UPLOADING'],
  onboarded: ['PROCESSING'],
  failed: ['UPLOADING', 'PROCESSING'],
  changeOperationalState: ['ONBOARDED'],
  fetchContent: ['ONBOARDED'],
};

test('each action is allowed exactly in its states, and refused elsewhere with a reason naming the state', () => {
  for (const [action, states] of Object.entries(allowed) as [PackageAction, string[]][]) {
    for (const state of ONBOARDING_STATES) {
      const refusal = refusalOf(action, state, 'pkg-1');
      if (states.includes(state)) assert.equal(refusal, undefined, `${action} in ${state}`);
      else assert.match(refusal ?? '', new RegExp(`pkg-1 is ${state}`), `${action} in ${state}`);
    }
  }
});

test('failures lead back to CREATED; uploads lead to UPLOADING then PROCESSING then ONBOARDED', () => {
  assert.equal(TRANSITIONS.failed.to, 'CREATED');
  assert.equal(TRANSITIONS.upload.to, 'UPLOADING');
  assert.equal(TRANSITIONS.uploaded.to, 'PROCESSING');
  assert.equal(TRANSITIONS.onboarded.to, 'ONBOARDED');
});
