// Which injected faults apply to a request, and their bookkeeping: a fault
// with `times` counts down on every request it affects and then disappears.

import type { Envelope, Fault, FaultEndpoint } from './types';

type TerminalFault = Extract<Fault, { kind: 'status' | 'rateLimit' | 'reset' | 'malformedJson' | 'html' | 'hugeBody' }>;
type SlowBodyFault = Extract<Fault, { kind: 'slowBody' }>;

/** What to do with one request: every latency adds up; the first fault of each other kind wins. */
export interface FaultPlan {
  latencyMs: number;
  envelope?: Envelope;
  slowBody?: SlowBodyFault;
  terminal?: TerminalFault;
}

export interface FaultTarget {
  endpoint: FaultEndpoint;
  serialNumber: string | undefined;
}

function matches(fault: Fault, target: FaultTarget): boolean {
  if (fault.endpoint !== undefined && fault.endpoint !== target.endpoint) {
    return false;
  }
  if (fault.serialNumber !== undefined && fault.serialNumber !== target.serialNumber) {
    return false;
  }
  return fault.times === undefined || fault.times > 0;
}

export class FaultEngine {
  private faults: Fault[] = [];

  /** Faults of the data set: they survive `clear()`. */
  constructor(private readonly permanent: readonly Fault[] = []) {}

  add(fault: Fault): void {
    // A copy, so counting down `times` does not change the caller's object.
    this.faults.push({ ...fault });
  }

  clear(): void {
    this.faults = [];
  }

  plan(target: FaultTarget): FaultPlan {
    const plan: FaultPlan = { latencyMs: 0 };
    const used: Fault[] = [];
    for (const fault of [...this.permanent, ...this.faults]) {
      if (!matches(fault, target)) {
        continue;
      }
      switch (fault.kind) {
        case 'latency':
          plan.latencyMs += fault.ms;
          used.push(fault);
          break;
        case 'envelope':
          if (plan.envelope === undefined) {
            plan.envelope = fault.envelope;
            used.push(fault);
          }
          break;
        case 'slowBody':
          if (plan.slowBody === undefined) {
            plan.slowBody = fault;
            used.push(fault);
          }
          break;
        default:
          if (plan.terminal === undefined) {
            plan.terminal = fault;
            used.push(fault);
          }
      }
    }
    for (const fault of used) {
      if (fault.times !== undefined) {
        fault.times -= 1;
      }
    }
    this.faults = this.faults.filter((f) => f.times === undefined || f.times > 0);
    return plan;
  }
}
