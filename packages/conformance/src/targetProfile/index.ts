// The target profile is defined once, in @cloud-api/target-profile (schema, types, validator,
// ${NAME} expansion); the sandbox reads profiles with the same package. What stays here is the
// suite's own: the loader bound to the run's secret redactor and this CLI's advice, and redaction.
export {
  expandEnvironmentReferences,
  fieldPath,
  type Identity,
  MIN_SECRET_LENGTH,
  MissingEnvironmentVariableError,
  type NatRuleRef,
  type ProfileResources,
  ProfileValidationError,
  type ProvisionCommand,
  resourcesProblems,
  ShortSecretError,
  scopeNames,
  type TargetProfile,
  type TargetProfileSchema,
  targetProfileSchema,
  validateProfile,
} from '@cloud-api/target-profile';
export { loadProfileFile, ProfileFileError, parseProfileText } from './loadProfile.js';
export { maskToken, profileSecrets, profileTokens, redactProfile } from './redaction.js';
