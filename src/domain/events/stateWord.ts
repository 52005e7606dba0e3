// A machine's onboarding state as one short word for narrow places (a tree
// row's description, a hover's first line), where the raw type of the newest
// event ("ONBOARDING_COMPLETED") would be cut off. The full type stays in the
// tooltip and the events list. Pure: the glue passes vscode.l10n.t as `t`.
import type { OnboardingEvent } from '../../core/model';
import type { Localize } from '../../common/localize';
import { stateOfEvent } from '../agentTools/onboardingState';

/** "completed", "failed", "in progress" or "no events", from the machine's newest event. */
export function stateWord(newest: OnboardingEvent | undefined, t: Localize): string {
  switch (stateOfEvent(newest)) {
    case 'completed':
      return t('completed');
    case 'failed':
      return t('failed');
    case 'in-progress':
      return t('in progress');
    case 'no-events':
      return t('no events');
  }
}
