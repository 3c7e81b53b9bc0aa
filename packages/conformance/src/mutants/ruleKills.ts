import type { RuleEntry } from '../ruleCatalogue/index.js';

/** One fault's verdict as the kill summary needs it: what broke, why, and which rules noticed. */
export interface FaultKill {
  readonly id: string;
  /** The bug's cause (the sandbox catalogue's `mechanism`), e.g. lenient-parse. */
  readonly mechanism: string;
  readonly failedRules: readonly string[];
}

/**
 * What the run showed about one threat a rule lists:
 * `killed`, a fault of the threat's mechanism made the rule fail (the suite is shown to catch it);
 * `not-killed`, the sandbox has faults of that mechanism but none made this rule fail (none
 * models this rule's threat yet, or the suite misses it); `no-fault`, the sandbox has no fault of
 * that mechanism yet. The last two are the method's to-do list.
 */
export type ThreatStatus = 'killed' | 'not-killed' | 'no-fault';

export interface ThreatKill {
  readonly mechanism: string;
  /** The catalogue's sentence: how a real service breaks the rule this way. */
  readonly how: string;
  readonly status: ThreatStatus;
  /** Faults of this mechanism under which the rule failed. */
  readonly killedBy: readonly string[];
}

/** How hard the mutation run hit one rule of the catalogue. */
export interface RuleKill {
  readonly rule: string;
  readonly level: RuleEntry['level'];
  /** Faults under which the rule failed. */
  readonly faults: readonly string[];
  /** The distinct mechanisms of those faults, sorted. */
  readonly mechanisms: readonly string[];
  /** Why the rule is outside the mechanism check, if it is. */
  readonly exempt?: string;
  /** The rule's threat list (catalogue order), each with what the run showed about it. */
  readonly threats: readonly ThreatKill[];
  /**
   * Mechanisms of faults that killed the rule but that its threat list does not name: either a
   * cause the list did not foresee (add it), or a fault whose bug also breaks this sentence on
   * the way (a crash that fails every check of a route), which needs nothing.
   */
  readonly unlistedMechanisms: readonly string[];
}

/**
 * Rules about @cloud-api/client rather than the target: the suite drives the (correct) client
 * against the sandbox, so no sandbox fault can make them fail, and one that did would be a false
 * alarm. The catalogue marks them by a latitude that starts "Client-side rule".
 */
export function judgesTheClient(rule: Pick<RuleEntry, 'latitude'>): boolean {
  return /^Client-side rule\b/.test(rule.latitude ?? '');
}

/**
 * For every rule of the catalogue, in catalogue order: the faults and mechanisms that killed it,
 * and each threat it lists with whether a fault of that mechanism killed it.
 * `sandboxMechanisms` are the mechanisms of every fault the sandbox has, run or not (an --only
 * run passes the whole catalogue's, so a threat is `no-fault` only when no fault exists at all);
 * by default, those of `faults`.
 */
export function ruleKills(
  faults: readonly FaultKill[],
  rules: readonly RuleEntry[],
  sandboxMechanisms: ReadonlySet<string> = new Set(faults.map((fault) => fault.mechanism)),
): RuleKill[] {
  return rules.map((rule) => {
    const killers = faults.filter((fault) => fault.failedRules.includes(rule.id));
    const mechanisms = [...new Set(killers.map((fault) => fault.mechanism))].sort();
    const threats = rule.threats.map((threat): ThreatKill => {
      const killedBy = killers
        .filter((fault) => fault.mechanism === threat.mechanism)
        .map((fault) => fault.id);
      return {
        mechanism: threat.mechanism,
        how: threat.how,
        status:
          killedBy.length > 0
            ? 'killed'
            : sandboxMechanisms.has(threat.mechanism)
              ? 'not-killed'
              : 'no-fault',
        killedBy,
      };
    });
    const listed = new Set<string>(rule.threats.map((threat) => threat.mechanism));
    return {
      rule: rule.id,
      level: rule.level,
      faults: killers.map((fault) => fault.id),
      mechanisms,
      ...(judgesTheClient(rule) ? { exempt: 'judges the client, which no sandbox fault changes' } : {}),
      threats,
      unlistedMechanisms: mechanisms.filter((mechanism) => !listed.has(mechanism)),
    };
  });
}

/**
 * MUST rules killed by faults of fewer than `minimum` distinct mechanisms: a rule only one kind
 * of bug trips has not shown it catches the next kind.
 */
export function mechanismGaps(kills: readonly RuleKill[], minimum: number): RuleKill[] {
  return kills.filter(
    (kill) => kill.level === 'MUST' && kill.exempt === undefined && kill.mechanisms.length < minimum,
  );
}

export function renderRuleKills(kills: readonly RuleKill[]): string {
  const width = Math.max(4, ...kills.map((kill) => kill.rule.length));
  const lines = [`${'RULE'.padEnd(width)}  LEVEL   FAULTS  MECHANISMS`];
  for (const kill of kills) {
    const mechanisms = kill.mechanisms.length > 0 ? ` (${kill.mechanisms.join(', ')})` : '';
    lines.push(
      `${kill.rule.padEnd(width)}  ${kill.level.padEnd(6)}  ${String(kill.faults.length).padStart(6)}  ${kill.mechanisms.length}${mechanisms}${kill.exempt ? `  [exempt: ${kill.exempt}]` : ''}`,
    );
  }
  return lines.join('\n');
}

/**
 * Per rule, its listed threats: which were killed and by which faults, which are still to do
 * (no fault of the mechanism kills the rule yet), and which mechanisms killed it unlisted.
 */
export function renderThreatKills(kills: readonly RuleKill[]): string {
  const width = Math.max(4, ...kills.map((kill) => kill.rule.length));
  const lines = [`${'RULE'.padEnd(width)}  KILLED  THREATS`];
  for (const kill of kills) {
    const killed = kill.threats.filter((threat) => threat.status === 'killed');
    const parts = [
      ...(killed.length > 0
        ? [
            `killed: ${killed.map((threat) => `${threat.mechanism} (${threat.killedBy.join(', ')})`).join(', ')}`,
          ]
        : []),
      ...(killed.length < kill.threats.length
        ? [
            `to do: ${kill.threats
              .filter((threat) => threat.status !== 'killed')
              .map((threat) => `${threat.mechanism}${threat.status === 'no-fault' ? ' [no fault yet]' : ''}`)
              .join(', ')}`,
          ]
        : []),
      ...(kill.unlistedMechanisms.length > 0 ? [`unlisted: ${kill.unlistedMechanisms.join(', ')}`] : []),
    ];
    lines.push(
      `${kill.rule.padEnd(width)}  ${`${killed.length}/${kill.threats.length}`.padStart(6)}  ${parts.join('; ')}${kill.exempt ? `  [exempt: ${kill.exempt}]` : ''}`,
    );
  }
  return lines.join('\n');
}

/** Threats over the whole catalogue. */
export interface ThreatTotals {
  readonly listed: number;
  /** Killed by at least one fault of their mechanism. */
  readonly killed: number;
  /** Of a mechanism no sandbox fault has yet. */
  readonly withoutFault: number;
}

export function threatTotals(kills: readonly RuleKill[]): ThreatTotals {
  const threats = kills.flatMap((kill) => kill.threats);
  return {
    listed: threats.length,
    killed: threats.filter((threat) => threat.status === 'killed').length,
    withoutFault: threats.filter((threat) => threat.status === 'no-fault').length,
  };
}
