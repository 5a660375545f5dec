// A configuration problem, named by its variable: reported before any request is sent.
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
    /** Where the variable was set ("set in the environment"), when the error says it itself. */
    readonly source?: string,
  ) {
    super(`Configuration error: ${variable} ${problem}${source ? ` (${source})` : ''}`);
    this.name = 'ConfigError';
  }
}
