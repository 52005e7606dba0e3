import type { OnboardingEvent } from '../core/model';

/** What the details feature offers the tree, the hovers and the look-up. */
export interface DetailsApi {
  /** Opens (or reveals, or retargets the preview panel to) the details of one event. */
  show(event: OnboardingEvent): Promise<void>;
}
