import { canCheckOn, findRule } from '../ruleCatalogue/index.js';
import type { Session } from '../session/session.js';
import type { CheckVerdict } from './check.js';

/** Skips that need no request: the target cannot check the rule, or the profile says it does not claim it. */
export function skipBeforeRun(ruleId: string, session: Session): CheckVerdict | undefined {
  const rule = findRule(ruleId);
  if (rule && !canCheckOn(rule, session.targetKind))
    return {
      state: 'skipped',
      reason: `${session.targetKind} cannot check this rule: ${rule.whyNotPrism ?? 'not supported by this target'}`,
      declared: false,
    };
  const unsupported = session.profile.unsupportedRules?.find((entry) => entry.id === ruleId);
  if (unsupported)
    return {
      state: 'skipped',
      reason: `target does not claim this rule: ${unsupported.reason}`,
      declared: true,
    };
  return undefined;
}
