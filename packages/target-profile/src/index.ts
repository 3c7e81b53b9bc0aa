export {
  expandEnvironmentReferences,
  MIN_SECRET_LENGTH,
  MissingEnvironmentVariableError,
  type MissingVariable,
  ShortSecretError,
  type ShortValue,
} from './expandEnv.js';
export {
  createProfileRedactor,
  describeFileError,
  loadProfileFile,
  type ParseProfileOptions,
  ProfileFileError,
  type ProfileRedactor,
  parseProfileText,
} from './loadProfile.js';
export {
  type Identity,
  type NatRuleRef,
  type ProfileEnvironment,
  type ProfileResources,
  type ProvisionCommand,
  profileResourcesSchema,
  scopeNames,
  type TargetProfile,
  type TargetProfileSchema,
  targetProfileSchema,
  tokenPrefixes,
} from './profileSchema.js';
export { renderTargetProfileSchemaFile, targetProfileSchemaPath } from './schemaFile.js';
export {
  fieldPath,
  ProfileValidationError,
  profileProblems,
  resourcesProblems,
  validateProfile,
} from './validateProfile.js';
