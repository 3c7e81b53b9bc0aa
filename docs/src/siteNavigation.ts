/** One guide: `guides/<slug>.md`, served as `guides/<slug>.html`. */
export interface GuideEntry {
  readonly slug: string;
  readonly title: string;
}

/** Guides in reading order: the sidebar, previous/next links and the browser test follow it. */
export const guideCatalogue: readonly GuideEntry[] = [
  { slug: 'getting-started', title: 'Getting started with the client' },
  { slug: 'authentication', title: 'Authentication' },
  { slug: 'async-operations', title: 'Async operations and idempotency' },
  { slug: 'billing-preflight', title: 'The billing preflight' },
  { slug: 'conformance', title: 'Running the conformance suite' },
  { slug: 'rule-catalogue', title: 'Rule catalogue' },
  { slug: 'rule-matrix', title: 'Traceability matrix' },
  { slug: 'unspecified', title: 'What the document leaves unspecified' },
];

/** The TypeDoc references: one per package, written to `api/<slug>/` by the build. */
export interface PackageReference {
  readonly slug: string;
  readonly title: string;
  readonly packageName: string;
  /** The package's entry point, relative to the repository root. */
  readonly entryPoint: string;
  readonly tsconfig: string;
}

export const packageReferences: readonly PackageReference[] = [
  {
    slug: 'client',
    title: 'Client API',
    packageName: '@cloud-api/client',
    entryPoint: 'packages/client/src/index.ts',
    tsconfig: 'packages/client/tsconfig.build.json',
  },
  {
    slug: 'conformance',
    title: 'Conformance API',
    packageName: '@cloud-api/conformance',
    entryPoint: 'packages/conformance/src/index.ts',
    tsconfig: 'packages/conformance/tsconfig.build.json',
  },
];

/** URL slug of an operation's reference page: `createCloudVm` → `create-cloud-vm`. */
export function operationSlug(operationId: string): string {
  return operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
