/** Bad options or a refused profile: printed as one clear message, never a stack trace; exit 2. */
export class RunSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunSetupError';
  }
}
