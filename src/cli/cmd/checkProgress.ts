// Where each machine of `oe check --json` stands in its onboarding, learned
// from the machines the check read only: the extension's stored copies live in
// VS Code's global storage, which a gate in a pipeline does not have.
import type { EventsResult } from '../../core/client/model';
import type { EventStateRules } from '../../core/domain/events/eventState';
import { LineHistory, type LearnedSteps, type StepSetting } from '../../core/domain/progress/lineHistory';
import { machineProgress } from '../../core/domain/progress/machineProgress';

/** A machine in progress in `oe check --json`: times in ms; timeToGo's lowMs–highMs is the 80 % range. */
export interface ProgressJson {
  readonly step: number;
  readonly of: number;
  readonly stalled: boolean;
  readonly abandoned: boolean;
  readonly atStepMs: number;
  readonly timeToGo: { readonly ms: number; readonly lowMs: number; readonly highMs: number } | null;
}

/**
 * The `progress` field of each machine read, by its index in `results`: the line learned once from all of them
 * (with the working folder's eventStates and steps settings), each machine judged by its own folder's rules.
 */
export function progressFields(
  results: readonly { readonly result?: EventsResult }[],
  settings: { readonly eventStates: EventStateRules; readonly steps: readonly StepSetting[] },
  nowMs: number,
): (index: number, rules: EventStateRules) => { readonly progress?: ProgressJson | null } {
  const learned = learnLine(
    results.flatMap(({ result }) => (result === undefined ? [] : [result])),
    settings.eventStates,
    settings.steps,
  );
  return (index, rules) => {
    const result = results[index]?.result;
    const progress = result === undefined ? undefined : progressJson(result, learned, nowMs, rules);
    return progress === undefined ? {} : { progress };
  };
}

/** The line's history as the machines read teach it (the onboarded ones among them), with the steps setting when it names them. */
export function learnLine(results: readonly EventsResult[], rules: EventStateRules, steps: readonly StepSetting[]): LearnedSteps {
  const history = new LineHistory(rules);
  history.setSetting(steps);
  // As the extension learns (cachedLineHistory.ts): a machine still in progress teaches its times as of its fetch.
  for (const result of results) history.learn(result.serialNumber, result.events, { observedAt: result.fetchedAt });
  return history.steps();
}

/**
 * A machine's progress for the JSON: undefined when it is not in progress (no field), null when the
 * history is too thin to say (fewer onboarded machines than the extension asks for), else its figures.
 */
export function progressJson(
  result: EventsResult,
  learned: LearnedSteps,
  nowMs: number,
  rules: EventStateRules,
): ProgressJson | null | undefined {
  const answer = machineProgress(result.events, learned, nowMs, rules);
  if (answer === undefined) return undefined;
  if (answer.kind === 'not-enough') return null;
  const toGo = answer.timeToGo;
  return {
    step: answer.step,
    of: answer.of,
    stalled: answer.stalled,
    abandoned: answer.abandoned,
    atStepMs: answer.atStepMs,
    timeToGo: toGo === undefined ? null : { ms: toGo.ms, lowMs: toGo.lowMs, highMs: toGo.highMs },
  };
}
