// The elements of the Machines tree. Plain objects, so commands invoked from
// menus receive them and tests can pass them back; an event node carries
// `event`, which is the shape the details command accepts.
import type { OnboardingEvent } from '../../core/client/model';
import type { GroupKind } from './machinesModel';

export interface GroupNode {
  readonly kind: 'group';
  readonly id: string;
  readonly group: GroupKind;
}

export interface MachineNode {
  readonly kind: 'machine';
  readonly id: string;
  readonly group: GroupKind;
  readonly serialNumber: string;
  readonly parent: GroupNode;
}

export interface EventNode {
  readonly kind: 'event';
  readonly id: string;
  readonly serialNumber: string;
  readonly event: OnboardingEvent;
  readonly parent: MachineNode;
}

export interface LoadMoreNode {
  readonly kind: 'load-more';
  readonly id: string;
  readonly serialNumber: string;
  readonly shown: number;
  readonly remaining: number;
  readonly parent: MachineNode;
}

export interface ErrorNode {
  readonly kind: 'error';
  readonly id: string;
  readonly serialNumber: string;
  readonly message: string;
  readonly errorKind: string | undefined;
  readonly parent: MachineNode;
}

export type PlaceholderReason =
  | 'loading'
  | 'no-events'
  | 'none-match'
  | 'not-loaded'
  | 'scanning'
  | 'scan-none'
  | 'scan-failed'
  | 'scan-capped'
  | 'scan-too-large'
  | 'scan-cut';

export interface PlaceholderNode {
  readonly kind: 'placeholder';
  readonly id: string;
  readonly reason: PlaceholderReason;
  readonly detail?: string;
  readonly parent: MachineNode | GroupNode;
}

export type MachinesNode = GroupNode | MachineNode | EventNode | LoadMoreNode | ErrorNode | PlaceholderNode;
