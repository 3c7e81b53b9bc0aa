/**
 * What one case of a property saw. A rule passes only on evidence: a check whose every case was
 * "not applicable" (the target answered 500 where a record was expected, every update
 * conflicted) is inconclusive, never passed. Predicates return one of these on every path, so
 * forgetting to say is a type error.
 */
export type CaseVerdict = { readonly observed: true } | { readonly observed: false; readonly why: string };

/** The case checked what the rule says, and the target obeyed. */
export const observed: CaseVerdict = Object.freeze({ observed: true });

/** The case could not check the rule (nothing to judge in the answer); `why` says what was seen instead. */
export function notApplicable(why: string): CaseVerdict {
  return { observed: false, why };
}
