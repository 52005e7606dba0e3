// InputBoxes with a step counter and Back, after VS Code's multi-step input sample; Escape cancels all.
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/common/lifecycle';

export interface InputStep<K extends string> {
  readonly key: K;
  readonly prompt: string;
  readonly placeholder?: string;
  readonly password?: boolean;
  readonly validate?: (value: string, values: Readonly<Partial<Record<K, string>>>) => string | undefined;
  /** Called with the accepted value (e.g. to register a secret with the log redactor). */
  readonly onAccept?: (value: string) => void;
  /** Value to start with when the step has none yet, computed from the steps before it. */
  readonly suggest?: (values: Readonly<Partial<Record<K, string>>>) => string | undefined;
}

type StepResult = { readonly kind: 'value'; readonly value: string } | { readonly kind: 'back' } | { readonly kind: 'cancel' };

/** Undefined when the user cancelled. */
export async function runMultiStepInput<K extends string>(
  title: string,
  steps: readonly InputStep<K>[],
  initial: Readonly<Partial<Record<K, string>>>,
  startAt = 0,
): Promise<Record<K, string> | undefined> {
  const values: Partial<Record<K, string>> = { ...initial };
  let index = Math.min(Math.max(0, startAt), steps.length - 1);
  while (index < steps.length) {
    const step = steps[index];
    if (step === undefined) break;
    const value = values[step.key] ?? step.suggest?.(values) ?? '';
    const result = await showStep(title, step, index, steps.length, value, values);
    if (result.kind === 'cancel') return undefined;
    if (result.kind === 'back') {
      index = Math.max(0, index - 1);
      continue;
    }
    values[step.key] = result.value;
    step.onAccept?.(result.value);
    index++;
  }
  for (const step of steps) if (values[step.key] === undefined) return undefined;
  return values as Record<K, string>;
}

function showStep<K extends string>(
  title: string,
  step: InputStep<K>,
  index: number,
  total: number,
  value: string,
  values: Readonly<Partial<Record<K, string>>>,
): Promise<StepResult> {
  return new Promise<StepResult>((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = title;
    box.step = index + 1;
    box.totalSteps = total;
    box.prompt = step.prompt;
    box.placeholder = step.placeholder ?? '';
    box.password = step.password === true;
    box.value = value;
    // People copy the secret and password from another window: clicking there must not lose the flow.
    box.ignoreFocusOut = true;
    box.buttons = index > 0 ? [vscode.QuickInputButtons.Back] : [];
    let settled = false;
    const subscriptions = new DisposableStore();
    const finish = (result: StepResult): void => {
      if (settled) return;
      settled = true;
      subscriptions.dispose();
      box.dispose();
      resolve(result);
    };
    subscriptions.add(
      box.onDidTriggerButton((button) => {
        if (button === vscode.QuickInputButtons.Back) finish({ kind: 'back' });
      }),
    );
    subscriptions.add(
      box.onDidChangeValue((text) => {
        // Only flag a problem while typing once there is something to fix.
        box.validationMessage = text === '' ? undefined : step.validate?.(text, values);
      }),
    );
    subscriptions.add(
      box.onDidAccept(() => {
        const problem = step.validate?.(box.value, values);
        if (problem !== undefined) {
          box.validationMessage = problem;
          return;
        }
        // Secrets are taken exactly as typed; everything else without stray blanks.
        finish({ kind: 'value', value: step.password === true ? box.value : box.value.trim() });
      }),
    );
    subscriptions.add(
      box.onDidHide(() => {
        finish({ kind: 'cancel' });
      }),
    );
    box.show();
  });
}
