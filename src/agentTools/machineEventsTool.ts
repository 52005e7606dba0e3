// onboardingEvents_getMachineEvents: one or more serial numbers → each
// machine's newest events, read through the views' cache.
import * as vscode from 'vscode';
import { parseMachineEventsInput } from '../domain/agentTools/toolInput';
import { invalidInputText, machineEventsText } from '../domain/agentTools/toolResults';
import { environmentName, gate, prepareReading, readMachines, textResult, type ToolDeps } from './toolSupport';

export class MachineEventsTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly deps: ToolDeps) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const input = parseMachineEventsInput(options.input);
    const serials = input.ok ? input.value.serialNumbers : [];
    // Counts only: the serial numbers were written by a model and need not reach the chat's Markdown.
    const message =
      serials.length === 1
        ? vscode.l10n.t('Reading the onboarding events of one machine')
        : vscode.l10n.t('Reading the onboarding events of {0} machines', serials.length);
    return prepareReading(this.deps, serials, message);
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<unknown>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const closed = gate(this.deps, true);
    if (closed !== undefined) return textResult(closed);
    const input = parseMachineEventsInput(options.input);
    if (!input.ok) return textResult(invalidInputText(input.problem));
    const { serialNumbers, maxEvents, refused } = input.value;
    const reports = await readMachines(this.deps, serialNumbers, token);
    this.deps.log.info(`Agent tool: events of ${serialNumbers.length} machines read.`);
    return textResult(
      machineEventsText(
        reports,
        { maxEvents, refused },
        {
          now: Date.now(),
          environment: environmentName(this.deps.session),
          rules: this.deps.settings.value.eventStates,
        },
      ),
    );
  }
}
