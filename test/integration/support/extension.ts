// What every extension-host suite does around its tests: activate the real
// extension, build what the tests read from the objects it hands over, and
// sign in to a fake API (and out) through the commands. Both ask the user in a
// modal, which the test's user (support/user.ts) agrees to unless a test says
// otherwise. Suites share one extension host: each leaves a signed-out "Test".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OnboardingEventsExtensionApi } from '../../../src/extension';
import type { EventsResult } from '../../../src/core/client/model';
import type { SessionState } from '../../../src/core/domain/session/sessionState';
import type { GetOptions } from '../../../src/core/eventsCache/eventsCache';
import { secretKey } from '../../../src/extension/session/credentialStore';
import type { LanguageModelToolName } from '../../../src/extension/workbench/constants';
import type { TestHandles } from '../../../src/testHooks';
import { TEST_CREDENTIALS, type FakeApi } from '../../support/fakeApi';
import { MachinesViewReader, machineLink, machinesViewSeen, openLink } from './machinesView';

export const EXTENSION_ID = 'onboarding-events.onboarding-events';
export const TEST_ENVIRONMENT = 'Test';

/** What activate() returns as a test sees it: the public API, and beside it, in the development build under test, the objects tests build from. */
export type ExportedApi = OnboardingEventsExtensionApi & { readonly testHooks?: TestHandles };

export function ourExtension(): vscode.Extension<ExportedApi> {
  const extension = vscode.extensions.getExtension<ExportedApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is installed in the extension host`);
  return extension;
}

/** What the suites read the extension through, built here from the handed-over objects and the view observed from outside. */
export type TestSide = ReturnType<typeof testSide>;
export type SessionReader = TestSide['session'];

/** The API as a suite uses it: the public API, and `testHooks` built by testSide(). */
export type TestedApi = OnboardingEventsExtensionApi & { readonly testHooks: TestSide };

/** Activates the extension (a no-op after the first suite) and returns its API, with what the tests build from it. */
export async function activateExtension(): Promise<TestedApi> {
  const api = await ourExtension().activate();
  const { testHooks } = api;
  assert.ok(testHooks?.events, 'the test handles are exported in ExtensionMode.Test');
  assert.ok(machinesViewSeen(), 'the Machines view and the link handler were created after installMachinesView() (the tier’s index.ts)');
  return { ...api, testHooks: testSide(testHooks) };
}

function testSide(handles: TestHandles) {
  const { context, session, events, agentTools, board, watch } = handles;
  return {
    session: {
      state: (): { readonly kind: SessionState['kind']; readonly environment?: string } => {
        const state = session.state;
        return state.kind === 'signed-out' ? { kind: state.kind } : { kind: state.kind, environment: state.environment.name };
      },
      environmentNames: (): string[] => session.environments().map((env) => env.name),
      /** Everything the extension stored outside SecretStorage, as JSON. */
      storedStateJson: (): string =>
        JSON.stringify({
          globalState: Object.fromEntries(context.globalState.keys().map((key) => [key, context.globalState.get<unknown>(key)])),
          workspaceState: Object.fromEntries(context.workspaceState.keys().map((key) => [key, context.workspaceState.get<unknown>(key)])),
        }),
      hasStoredSecret: async (environmentId: string): Promise<boolean> =>
        (await context.secrets.get(secretKey(environmentId))) !== undefined,
      logDirectory: context.logUri.fsPath,
    },
    machines: new MachinesViewReader(),
    board,
    agentTools: {
      /** Runs the tool's prepareInvocation, as VS Code does before invoking it (its modal needs a chat to answer). */
      prepare: async (name: LanguageModelToolName, input: unknown): Promise<vscode.PreparedToolInvocation | null | undefined> => {
        const source = new vscode.CancellationTokenSource();
        try {
          return await agentTools[name].prepareInvocation?.({ input }, source.token);
        } finally {
          source.dispose();
        }
      },
    },
    links: { open: openLink, linkTo: machineLink },
    watch: { list: () => watch.list.list() },
    /** Authenticated reads through the cache, as the views make them. */
    getEvents: (serialNumber: string, options?: GetOptions): Promise<EventsResult> => events.get(serialNumber, options),
  };
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
