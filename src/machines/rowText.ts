// Short texts for tree rows, which a sidebar at its default width cuts off
// after some twenty characters: the label says what happened in a few words,
// and the full text goes to the description and the tooltip. Pure (no vscode
// import): the glue passes vscode.l10n.t as `t`, and unit tests a plain one.
import type { Localize } from '../common/localize';

/** An error row's label by the error's kind (core/errors.ts ApiErrorKind): the server's message is in the tooltip. */
export function errorRowLabel(errorKind: string | undefined, t: Localize): string {
  switch (errorKind) {
    case 'server':
      return t('Server error');
    case 'network':
      return t('API not reachable');
    case 'timeout':
      return t('Request timed out');
    case 'rate-limited':
      return t('Rate limited');
    case 'permission-denied':
      return t('Access denied');
    case 'not-found':
      return t('Not found');
    case 'invalid-credentials':
      return t('Sign-in rejected');
    case 'protocol':
      return t('Unexpected answer');
    case 'invalid-input':
      return t('Invalid serial number');
    default:
      return t('Could not load events');
  }
}

/**
 * A group's screen-reader label, "In This Workspace, 6": the label and its count,
 * the same until the count changes. Without one, VS Code reads the tooltip,
 * whose time of the last scan changes with every scan.
 */
export function groupAccessibilityLabel(label: string, description: string | boolean | undefined): string {
  return typeof description === 'string' && description !== '' ? `${label}, ${description}` : label;
}
