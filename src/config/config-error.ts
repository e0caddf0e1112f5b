/** A configuration problem the user must fix. The message is one complete line, ready to print. */
export class ConfigError extends Error {
  override name = "ConfigError";
  readonly file?: string;
  readonly key?: string;

  constructor(message: string, where: { file?: string; key?: string } = {}) {
    super(message);
    this.file = where.file;
    this.key = where.key;
  }
}
