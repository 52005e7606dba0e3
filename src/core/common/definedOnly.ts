// Options objects under exactOptionalPropertyTypes: a field that is not
// given must be absent, not `undefined`. One helper for every place that
// builds such an object from optional inputs (pure, unit-tested).

/** `value` without its undefined fields, typed so that no field can hold undefined. */
export function definedOnly<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
