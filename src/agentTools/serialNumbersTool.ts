// onboardingEvents_findSerialNumbers: the serial numbers in the active editor,
// a file or the workspace, with what this window already knows of each
// (pinned, looked up recently, the cached newest event). It sends no request,
// so it needs no sign-in and no confirmation.
import * as vscode from 'vscode';
import type { SerialMatcher } from '../domain/serialNumbers/serialMatcher';
import { parseSerialScopeInput } from '../domain/agentTools/toolInput';
import { invalidInputText, scopeText, type ScopeEntry } from '../domain/agentTools/toolResults';
import type { MachinesApi } from '../workbench/contracts/features';
import type { SerialSettings } from '../workbench/serialSettings';
import { LANGUAGE_MODEL_TOOLS } from '../workbench/constants';
import { serialsInScope, type WorkspaceScanner } from './serialSources';
import { gate, textResult, type ToolDeps } from './toolSupport';

export interface SerialNumbersToolDeps extends ToolDeps {
  readonly machines: Pick<MachinesApi, 'pinned' | 'recent'>;
  readonly scanWorkspace: WorkspaceScanner;
  readonly serialSettings: SerialSettings;
}

export class SerialNumbersTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly deps: SerialNumbersToolDeps) {}

  /** The one serial-number matcher the views use (a refused pattern is reported to the user there; the result tells the agent too). */
  private matcher(): SerialMatcher {
    return this.deps.serialSettings.value.matcher;
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const input = parseSerialScopeInput(options.input);
    const source = input.ok ? input.value.source : undefined;
    const invocationMessage =
      source === 'workspace'
        ? vscode.l10n.t('Finding serial numbers in the workspace')
        : source === 'file'
          ? vscode.l10n.t('Finding serial numbers in a file')
          : vscode.l10n.t('Finding serial numbers in the active editor');
    return { invocationMessage };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<unknown>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const closed = gate(this.deps, false);
    if (closed !== undefined) return textResult(closed);
    const input = parseSerialScopeInput(options.input);
    if (!input.ok) return textResult(invalidInputText(input.problem));
    const matcher = this.matcher();
    const found = await serialsInScope(input.value, matcher, this.deps, token);
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    if (!found.ok) return textResult(invalidInputText(found.problem));
    const pinned = new Set(this.deps.machines.pinned());
    const recent = new Set(this.deps.machines.recent());
    const entries = found.found.map((serial): ScopeEntry => {
      // peek() makes no request: what the views fetched before (or the stored copy).
      const cached = this.deps.events.peek(serial.serialNumber);
      return {
        serialNumber: serial.serialNumber,
        locations: serial.locations,
        occurrences: serial.occurrences,
        pinned: pinned.has(serial.serialNumber),
        recent: recent.has(serial.serialNumber),
        ...(cached === undefined ? {} : { known: { result: cached.result, stale: cached.stale || cached.error !== undefined } }),
      };
    });
    this.deps.log.info(`Agent tool: ${entries.length} serial numbers found in ${found.where}.`);
    return textResult(
      scopeText(
        entries,
        {
          where: found.where,
          ...(found.file === undefined ? {} : { file: found.file }),
          ...(found.filesScanned === undefined ? {} : { filesScanned: found.filesScanned }),
          capped: found.capped,
          signedIn: this.deps.session.state.kind === 'signed-in',
          ...(matcher.problem === undefined ? {} : { patternProblem: matcher.problem }),
        },
        { now: Date.now(), rules: this.deps.settings.value.eventStates },
        { events: LANGUAGE_MODEL_TOOLS.machineEvents, summary: LANGUAGE_MODEL_TOOLS.summary },
      ),
    );
  }
}
