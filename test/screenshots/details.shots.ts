// Event details screenshots: a machine-created event with a templated and a
// deprecated link, in the dark and the light theme, and the hostile demo
// event (its message and link stay text).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OnboardingEvent } from '../../src/core/client/model';
import { activateExtension, type TestedApi } from '../integration/support/extension';
import { pages } from '../integration/support/pages';
import { DEMO_BASE_TIME, DEMO_CREDENTIALS, DEMO_SERIALS, demoData, makeEvent, startFakeApi, type FakeApi } from '../support/fakeApi';
import { snap } from './snap';
import { serverTextData } from '../../src/core/common/serverText';

async function setTheme(theme: string | undefined): Promise<void> {
  if (vscode.workspace.getConfiguration('workbench').get('colorTheme') === theme) return;
  await vscode.workspace.getConfiguration('workbench').update('colorTheme', theme, vscode.ConfigurationTarget.Global);
}

describe('Event details screenshots', function () {
  this.timeout(120_000);
  let api: TestedApi;
  let fake: FakeApi;
  let originalTheme: string | undefined;

  async function show(serial: string, type: string): Promise<OnboardingEvent> {
    const result = await api.testHooks.getEvents(serial, { force: true });
    const event = result.events.find((e) => serverTextData(e.type) === type);
    assert.ok(event, `${serial} has a ${type} event`);
    await vscode.commands.executeCommand('onboardingEvents.showEventDetails', { event });
    await pages.details.waitForRendered(
      (r) => r.title === serverTextData(event.type) && r.message === serverTextData(event.message),
      20_000,
    );
    return event;
  }

  before(async () => {
    api = await activateExtension();
    originalTheme = vscode.workspace.getConfiguration('workbench').inspect<string>('colorTheme')?.globalValue;
    fake = await startFakeApi({ data: demoData() });
    await vscode.commands.executeCommand('onboardingEvents.signIn', {
      apiBaseUrl: fake.baseUrl,
      authUrl: fake.authUrl,
      ...DEMO_CREDENTIALS,
      environment: 'Demo',
    });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  after(async () => {
    await setTheme(originalTheme);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: 'Demo' });
    await fake.close();
  });

  it('shows a machine-created event with a templated and a deprecated link, in dark and light', async () => {
    await setTheme('Dark Modern');
    await show(DEMO_SERIALS.templatedLinks, 'MACHINE_CREATED');
    await snap('event-details-dark', 2000);
    await setTheme('Light Modern');
    await snap('event-details-light', 2000);
    await setTheme('Default High Contrast');
    await snap('event-details-high-contrast', 2000);
    await setTheme('Dark Modern');
  });

  it('shows a deprecated link with its deprecation text next to a templated link with its form', async () => {
    const serial = 'CNC-5200-E0102';
    const assetId = '5d1c7e0a-2b7f-4c1e-9e0d-8a4f6b2c3d10';
    const machines = `${fake.baseUrl}/public/api/machines/`;
    fake.setMachineEvents(serial, [
      makeEvent({
        type: 'MACHINE_CREATED',
        message: `Machine asset created: CNC router ${serial}`,
        timestamp: DEMO_BASE_TIME - 3 * 86_400_000,
        assetId,
        extra: {
          _links: {
            legacyMachine: {
              href: `${machines}${assetId}`,
              deprecation: 'https://example.invalid/docs/deprecations/legacy-machine-link',
              title: 'Machine (legacy link)',
              type: 'application/hal+json',
              hreflang: 'en',
            },
            machineEvents: {
              href: `${machines}{assetId}/events{?from,to}`,
              templated: true,
              title: 'Events of this machine',
              type: 'application/json',
            },
            machine: {
              href: `${machines}${assetId}`,
              title: `CNC router ${serial}`,
              type: 'application/hal+json',
              name: serial,
              profile: 'https://example.invalid/profiles/machine',
            },
          },
        },
      }),
    ]);
    await show(serial, 'MACHINE_CREATED');
    await snap('event-details-links-dark', 2000);
    await setTheme('Light Modern');
    await snap('event-details-links-light', 2000);
    await setTheme('Dark Modern');
  });

  it('shows a hostile message and a javascript: link as text', async () => {
    await show(DEMO_SERIALS.hostile, 'MACHINE_CREATED');
    await snap('event-details-hostile-dark', 2000);
  });
});
