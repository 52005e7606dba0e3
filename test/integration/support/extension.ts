// What every extension-host suite does around its tests: activate the real
// extension, sign in to a fake API through the command's argument object, and
// sign out again. Both ask the user in a modal, as for any other extension's
// arguments; the test's user (support/user.ts) agrees unless a test says
// otherwise. Suites share one extension host, so each one starts from and
// leaves behind a signed-out "Test".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OnboardingEventsExtensionApi } from '../../../src/extension';
import type { TestHooks } from '../../../src/testHooks';
import { TEST_CREDENTIALS, type FakeApi } from '../../support/fakeApi';

export const EXTENSION_ID = 'onboarding-events.onboarding-events';
export const TEST_ENVIRONMENT = 'Test';

/** What activate() returns as a test sees it: the public API, and beside it, in the development build under test, the test hooks. */
export type ExportedApi = OnboardingEventsExtensionApi & { readonly testHooks?: TestHooks };

export function ourExtension(): vscode.Extension<ExportedApi> {
  const extension = vscode.extensions.getExtension<ExportedApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is installed in the extension host`);
  return extension;
}

/** The API as the extension returns it under test: with its test hooks (src/testHooks.ts). */
export type TestedApi = OnboardingEventsExtensionApi & { readonly testHooks: TestHooks };

/** Activates the extension (a no-op after the first suite) and returns its API, with the test hooks. */
export async function activateExtension(): Promise<TestedApi> {
  const api = await ourExtension().activate();
  const { testHooks } = api;
  assert.ok(testHooks?.getEvents, 'the test hooks (getEvents included) are exported in ExtensionMode.Test');
  return { ...api, testHooks };
}

type CredentialOverrides = Partial<Record<keyof typeof TEST_CREDENTIALS, string>>;

/** The sign-in command's argument object for `fake`: signs in once the user agrees to the modal naming its URLs. */
export function signInArgs(fake: FakeApi, environment = TEST_ENVIRONMENT, overrides: CredentialOverrides = {}) {
  return { apiBaseUrl: fake.baseUrl, authUrl: fake.authUrl, ...TEST_CREDENTIALS, ...overrides, environment };
}

/** Signs in to `fake` as `environment` through the command; returns what the command returns. */
export async function signIn(fake: FakeApi, environment = TEST_ENVIRONMENT): Promise<unknown> {
  return vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(fake, environment));
}

/** Signs out of `environment` (the test's user agrees to the question); fails when it is not signed in. */
export async function signOut(environment = TEST_ENVIRONMENT): Promise<void> {
  await vscode.commands.executeCommand('onboardingEvents.signOut', { environment });
}

/** Signs out of `environment` when it is signed in; already signed out is fine (a suite before may have done it). */
export async function signOutIfSignedIn(environment = TEST_ENVIRONMENT): Promise<void> {
  try {
    await signOut(environment);
  } catch (error) {
    if (!(error instanceof Error && /is signed in/.test(error.message))) throw error;
  }
}
