import type { OnboardingEvent } from '../../core/model';

/**
 * What the details feature offers the tree, the hovers and the look-up. Only
 * that: the test hook and the page protocol stay inside src/details/.
 */
export interface DetailsApi {
  /** Opens (or reveals, or retargets the preview panel to) the details of one event. */
  show(event: OnboardingEvent): Promise<void>;
}
