// VS Code itself resolves the manifest's %key% strings from package.nls.json:
// what the workbench shows is English text, never a raw key.
import * as assert from 'node:assert/strict';
import { ourExtension } from '../support/extension';

interface ShownManifest {
  readonly displayName: string;
  readonly contributes: {
    readonly commands: readonly { readonly command: string; readonly title: string; readonly category?: string }[];
    readonly configuration: { readonly title: string; readonly properties: Record<string, { readonly description?: string; readonly markdownDescription?: string }> };
    readonly viewsWelcome: readonly { readonly contents: string }[];
  };
}

describe('Localization in the extension host', () => {
  it('shows the manifest strings from package.nls.json, with no %key% left unresolved', () => {
    const manifest = ourExtension().packageJSON as ShownManifest;
    assert.equal(manifest.displayName, 'Onboarding Events');
    const signIn = manifest.contributes.commands.find((c) => c.command === 'onboardingEvents.signIn');
    assert.equal(signIn?.title, 'Sign In');
    assert.equal(signIn.category, 'Onboarding Events');
    assert.equal(manifest.contributes.configuration.title, 'Onboarding Events');
    assert.match(manifest.contributes.viewsWelcome[0]?.contents ?? '', /^Sign in to the Onboarding Events API/);
    const texts = [
      ...manifest.contributes.commands.flatMap((c) => [c.title, c.category ?? '']),
      ...Object.values(manifest.contributes.configuration.properties).map((p) => p.description ?? p.markdownDescription ?? ''),
    ];
    assert.deepEqual(texts.filter((text) => /^%.+%$/.test(text)), []);
  });

});
