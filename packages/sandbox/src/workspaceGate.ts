import type { SandboxBehaviour } from './sandboxBehaviour.js';
import type { SandboxProfile } from './sandboxProfile.js';
import type { ParameterContract } from './specContract.js';
import type { Caller } from './tokenAuthenticator.js';

export type WorkspaceFormOutcome =
  | { readonly ok: true; readonly workspaceId: string }
  | { readonly ok: false; readonly status: number; readonly detail: string };

/** What Python's `str.isdigit()` passes, as far as the fault needs: decimal digits and superscripts. */
const ISDIGIT = /^[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079]+$/u;
/** A superscript digit, which `int()` refuses. */
const SUPERSCRIPT_DIGIT = /[\u00b2\u00b3\u00b9\u2070\u2074-\u2079]/u;

/** Validates `workspace_id` and decides whether a caller may enter a workspace. */
export class WorkspaceGate {
  /** Every workspace of the sandbox's one organization. */
  readonly organizationWorkspaces: ReadonlySet<string>;
  readonly primary: string;

  constructor(
    profile: SandboxProfile,
    private readonly behaviour: SandboxBehaviour,
  ) {
    const workspaces = new Set<string>([profile.workspaces.primary, profile.workspaces.secondary]);
    if (profile.workspaces.billingDenied) workspaces.add(profile.workspaces.billingDenied);
    for (const identity of Object.values(profile.identities)) {
      if (identity.workspaces !== 'all') for (const id of identity.workspaces) workspaces.add(id);
    }
    // The workspace-policy-substring-match fault's organization also has a workspace whose id is
    // a part of the primary's (a team's 104 beside 1042), as real organizations have many.
    if (behaviour.fault === 'workspace-policy-substring-match' && profile.workspaces.primary.length > 1)
      workspaces.add(profile.workspaces.primary.slice(0, -1));
    this.organizationWorkspaces = workspaces;
    this.primary = profile.workspaces.primary;
  }

  /**
   * Checks the form of `workspace_id` with the spec's parameter schema. The WS faults let one
   * class of invalid value through, served in the primary workspace as a careless default would.
   */
  checkForm(
    parameter: ParameterContract,
    value: string | undefined,
    duplicated: boolean,
  ): WorkspaceFormOutcome {
    const status = this.behaviour.invalidWorkspaceStatus;
    if (!duplicated) {
      const parsed = this.faultyParse(value);
      if (parsed) return parsed;
    }
    if (value === undefined) {
      if (this.behaviour.fault === 'accept-missing-workspace-id')
        return { ok: true, workspaceId: this.primary };
      return {
        ok: false,
        status,
        detail: `Missing required query parameter ${parameter.name}: send the workspace ID, e.g. ?${parameter.name}=${parameter.example ?? '1042'}.`,
      };
    }
    if (duplicated) {
      return { ok: false, status, detail: `Query parameter ${parameter.name} must be given once.` };
    }
    if (parameter.validate(value)) return { ok: true, workspaceId: value };
    if (this.faultAccepts(value)) return { ok: true, workspaceId: this.primary };
    return {
      ok: false,
      status,
      detail: `Invalid query parameter ${parameter.name}: it must be a positive decimal integer (e.g. ${parameter.example ?? '1042'}); zero, negative and non-numeric values are rejected.`,
    };
  }

  /**
   * The parsing faults: how real servers turn the text into a number instead of validating its
   * form. Each reads the value as its parser would and serves the number it got; a value the
   * parser itself refuses falls through to the normal validation (and its 4xx).
   */
  private faultyParse(value: string | undefined): WorkspaceFormOutcome | undefined {
    const served = (n: number | bigint): WorkspaceFormOutcome | undefined =>
      n > 0 && (typeof n === 'bigint' || Number.isSafeInteger(n))
        ? { ok: true, workspaceId: String(n) }
        : undefined;
    switch (this.behaviour.fault) {
      case 'workspace-id-parse-int':
        return value === undefined ? undefined : served(Number.parseInt(value, 10));
      case 'workspace-id-number-coercion':
        // Number('') and Number(' ') are 0, refused as zero like the real parser's callers do.
        return value === undefined ? undefined : served(Number(value));
      case 'workspace-id-sign-dropped':
        return value === undefined ? undefined : served(Math.abs(Number(value)));
      case 'workspace-id-or-default':
        // 0, NaN (missing, empty, non-numeric) are falsy: the default workspace steps in.
        return served(Number(value) || Number(this.primary));
      case 'workspace-id-int32-wraparound':
        // A 32-bit cast of the digits: 2^32 + 1042 is read as 1042.
        return value === undefined || !/^[0-9]+$/.test(value) ? undefined : served(Number(value) >>> 0);
      case 'workspace-id-radix-prefix': {
        // Java's Long.decode: 0x, 0X or # for hexadecimal, a leading 0 for octal, decimal
        // otherwise (a negative number is never served, so its sign is not read).
        const m =
          value === undefined
            ? null
            : /^\+?(?:(?:0[xX]|#)([0-9a-fA-F]+)|0([0-7]+)|([1-9][0-9]*))$/.exec(value);
        if (!m) return undefined;
        const [, hex, octal, decimal] = m;
        return served(hex ? Number.parseInt(hex, 16) : octal ? Number.parseInt(octal, 8) : Number(decimal));
      }
      case 'workspace-id-line-anchored-pattern': {
        // Ruby's `^` and `$` (and /m elsewhere) anchor at line ends: any line of the value that is
        // all digits passes the pattern, and to_i then reads the value's leading digits.
        if (value === undefined || !/^[1-9][0-9]*$/m.test(value)) return undefined;
        return served(Number.parseInt(value, 10));
      }
      case 'workspace-id-unicode-digits': {
        // A Unicode-aware digit class (Python's int(), \d with the u flag in some engines): any
        // script's decimal digits, after NFKC folds full-width forms, are read as their values.
        const folded = value?.normalize('NFKC').trim();
        if (!folded || !/^\p{Nd}+$/u.test(folded)) return undefined;
        return served(Number([...folded].map(digitValue).join('')));
      }
      case 'workspace-id-isdigit-then-int':
        // str.isdigit() passes superscript digits, which int() then refuses with a ValueError
        // that reaches the generic handler; every other value goes on as the correct gate reads it.
        if (value !== undefined && ISDIGIT.test(value) && SUPERSCRIPT_DIGIT.test(value))
          return { ok: false, status: 500, detail: 'Internal Server Error' };
        return undefined;
      case 'workspace-id-bigint-throws': {
        if (value === undefined) return undefined;
        let id: bigint;
        try {
          id = BigInt(value);
        } catch {
          // The SyntaxError reaches the framework's generic handler.
          return { ok: false, status: 500, detail: 'Internal Server Error' };
        }
        return served(id);
      }
      default:
        return undefined;
    }
  }

  private faultAccepts(value: string): boolean {
    switch (this.behaviour.fault) {
      case 'accept-zero-workspace-id':
        return /^[+-]?0+$/.test(value);
      case 'accept-negative-workspace-id':
        return /^-[0-9]*[1-9][0-9]*$/.test(value);
      case 'accept-non-numeric-workspace-id':
        return !/^[+-]?[0-9]+$/.test(value);
      default:
        return false;
    }
  }

  /**
   * Organization membership, then the caller's workspace policy; a detail string means 403.
   * `safeMethod` (GET) matters only to the fault that checks the policy in the write guard.
   */
  refusal(caller: Caller, workspaceId: string, safeMethod: boolean): string | undefined {
    if (!this.organizationWorkspaces.has(workspaceId)) {
      return `Workspace ${workspaceId} is not a workspace of your organization.`;
    }
    const fault = this.behaviour.fault;
    if (caller.policy === 'entire-organization') {
      if (fault === 'entire-organization-limited-to-primary' && workspaceId !== this.primary) {
        return `This token may not access workspace ${workspaceId}.`;
      }
      return undefined;
    }
    if (caller.policyAllows(workspaceId) || fault === 'ignore-workspace-policy') return undefined;
    // `selected.join(',').includes(id)`: any part of a selected id passes.
    if (
      fault === 'workspace-policy-substring-match' &&
      caller.selectedWorkspaces?.join(',').includes(workspaceId)
    )
      return undefined;
    if (fault === 'policy-checked-on-writes-only' && safeMethod) return undefined;
    return `This token's workspace policy (specific workspaces) does not include workspace ${workspaceId}.`;
  }
}

/** The value of one Unicode decimal digit: digits come in runs of whole blocks of ten, zero first. */
function digitValue(digit: string): number {
  let code = digit.codePointAt(0) ?? 0;
  let steps = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(code - 1))) {
    code--;
    steps++;
  }
  return steps % 10;
}
