// Whether the argument form of a command may act without asking. Any other
// extension can run our commands, and a `command:` link in a notification or
// Markdown can run them with arguments, so outside the extension's own tests
// an argument may prefill but never store credentials, switch or overwrite
// an environment, or write a file unseen. The integration tests switch to
// the user's behaviour through the test hooks (actAsUser) to check exactly that.
import type { IDisposable } from '../common/lifecycle';

export class ArgumentTrust {
  private asUser = 0;

  constructor(private readonly testMode: boolean) {}

  /** True only in ExtensionMode.Test, and not while a test acts as the user. */
  get silent(): boolean {
    return this.testMode && this.asUser === 0;
  }

  /** For the test hooks: behave as outside test mode until disposed. */
  actAsUser(): IDisposable {
    this.asUser++;
    let disposed = false;
    return {
      dispose: () => {
        if (!disposed) this.asUser--;
        disposed = true;
      },
    };
  }
}
