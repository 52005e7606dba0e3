// onboardingEvents_summarizeOnboarding: a set of serial numbers → counts by
// state, the failed machines with their newest event, and the rest by state.
// It earns its place beside the events tool: "which of these 40 failed, and
// why?" needs one line per machine, not forty event lists.
import * as vscode from 'vscode';
import { parseSummaryInput } from '../domain/agentTools/toolInput';
import { invalidInputText, summaryText } from '../domain/agentTools/toolResults';
import { environmentName, gate, prepareReading, readMachines, textResult, type ToolDeps } from './toolSupport';

export class OnboardingSummaryTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly deps: ToolDeps) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const input = parseSummaryInput(options.input);
    const serials = input.ok ? input.value.serialNumbers : [];
    return prepareReading(this.deps, serials, vscode.l10n.t('Summarizing the onboarding of {0} machines', serials.length));
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<unknown>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const closed = gate(this.deps, true);
    if (closed !== undefined) return textResult(closed);
    const input = parseSummaryInput(options.input);
    if (!input.ok) return textResult(invalidInputText(input.problem));
    const reports = await readMachines(this.deps, input.value.serialNumbers, token);
    this.deps.log.info(`Agent tool: onboarding summary of ${reports.length} machines.`);
    return textResult(
      summaryText(reports, input.value.refused, {
        now: Date.now(),
        environment: environmentName(this.deps.session),
        rules: this.deps.settings.value.eventStates,
      }),
    );
  }
}
