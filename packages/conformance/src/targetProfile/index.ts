export { expandEnvironmentReferences, MissingEnvironmentVariableError } from './expandEnv.js';
export { loadProfileFile, ProfileFileError, parseProfileText } from './loadProfile.js';
export { scopeNames, targetProfileSchema } from './profileSchema.js';
export { maskToken, profileSecrets, profileTokens, redactProfile } from './redaction.js';
export type { Identity, NatRuleRef, ProfileResources, TargetProfile } from './types.js';
export { fieldPath, ProfileValidationError, validateProfile } from './validateProfile.js';
