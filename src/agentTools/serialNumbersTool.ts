// onboardingEvents_findSerialNumbers: the serial numbers in the active editor,
// a file or the workspace, with what this window already knows of each
// (pinned, looked up recently, the cached newest event). It sends no request,
// so it needs no sign-in and no confirmation.
import * as vscode from 'vscode';
import { createSerialMatcher, type SerialMatcher } from '../domain/serialNumbers/serialMatcher';
import { parseSerialScopeInput } from '../domain/agentTools/toolInput';
import { invalidInputText, scopeText, type ScopeEntry } from '../domain/agentTools/toolResults';
import type { MachinesApi } from '../workbench/contracts/machinesApi';
import { LANGUAGE_MODEL_TOOLS } from '../workbench/constants';
import { serialsInScope, type WorkspaceScanner } from './serialSources';
import { gate, textResult, type ToolDeps } from './toolSupport';

export interface SerialNumbersToolDeps extends ToolDeps {
  readonly machines: Pick<MachinesApi, 'pinned' | 'recent'>;
  readonly scanWorkspace: WorkspaceScanner;
}

export class SerialNumbersTool implements vscode.LanguageModelTool<unknown> {
  private matcherKey = '';
  private matcherCache: SerialMatcher | undefined;

  constructor(private readonly deps: SerialNumbersToolDeps) {}

  /** The matcher of the serial-number settings, rebuilt only when they change (the hover's SerialSettings reports a refused pattern to the user; this one tells the agent). */
  private matcher(): SerialMatcher {
    const settings = this.deps.settings.value;
    const options = { pattern: settings['serialNumber.pattern'], minLength: settings['serialNumber.minLength'], denyList: settings['serialNumber.denyList'] };
    const key = JSON.stringify(options);
    if (this.matcherCache === undefined || key !== this.matcherKey) {
      this.matcherCache = createSerialMatcher(options);
      this.matcherKey = key;
    }
    return this.matcherCache;
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

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
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
        { now: Date.now() },
        { events: LANGUAGE_MODEL_TOOLS.machineEvents, summary: LANGUAGE_MODEL_TOOLS.summary },
      ),
    );
  }
}
