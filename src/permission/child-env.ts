// The environment every process rein starts for a tool gets: the parent's, without what would hand
// a secret to the command (and, through `env` or `printenv`, to the model). rein's own keys never
// pass; other credentials (by the look of the name or of the value) pass only when named in the
// config's env.passthrough.

/** rein's own secrets (server token, REIN_*_KEY, REIN_*_TOKEN): never passed, whatever the config says. */
const REIN_SECRET = /^REIN_\w*(KEY|TOKEN|SECRET|PASSWORD)$/i;

/** Names that look like credentials (matched without regard to case). */
const SECRET_NAME: readonly RegExp[] = [
  /(^|_)API_?KEYS?$/i, // OPENAI_API_KEY, GOOGLE_APIKEY, API_KEY
  /(^|_)(ACCESS|PRIVATE|SIGNING|ENCRYPTION|MASTER|LICEN[CS]E)_?KEY_/i, // MINIO_ACCESS_KEY_ID
  /_KEY$/i, // STRIPE_KEY, SSH_KEY
  /TOKEN$/i, // GITHUB_TOKEN, NPM_TOKEN, npm_config_//registry.npmjs.org/:_authToken
  /(^|_)TOKEN_/i,
  /SECRET/i, // AWS_SECRET_ACCESS_KEY, CLIENT_SECRET, SECRET_KEY_BASE
  /PASSWORD|PASSWD|PASSPHRASE/i, // PGPASSWORD, MYSQL_PASSWORD
  /_(PASS|PWD)$/i, // SMTP_PASS, MYSQL_PWD (PWD and OLDPWD themselves are the working directories)
  /CREDENTIAL/i,
  /(^|_)(AUTH|COOKIE|JWT|DSN)(_(?!SOCK$)|$)/i, // npm_config__auth, DOCKER_AUTH_CONFIG, SENTRY_DSN (not SSH_AUTH_SOCK: a path, not a secret)
  /^(AWS|AZURE|ARM|GOOGLE_CLOUD|GCP|DIGITALOCEAN|HEROKU|VAULT|CLOUDFLARE|OP_SERVICE)_/i,
];

/** Values that are credentials whatever the name: a URL with a password in it, well-known token formats. */
const SECRET_VALUE: readonly RegExp[] = [
  /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i, // postgres://user:password@host
  /^(sk-[A-Za-z0-9_-]{16,}|sk-ant-|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_|glpat-|xox[abposr]-|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,}|-----BEGIN [A-Z ]*PRIVATE KEY)/,
];

/**
 * Set only where the user has not chosen: nothing may wait for a person. No editor (git commit
 * without -m fails instead of opening one), no pager, and no git password prompt (git reads it
 * from /dev/tty, not stdin; the child has no terminal anyway, this makes the failure say so).
 */
const NON_INTERACTIVE: Readonly<Record<string, string>> = { GIT_EDITOR: "true", GIT_PAGER: "cat", PAGER: "cat", GIT_TERMINAL_PROMPT: "0" };

export type ChildEnvOptions = {
  /** names of credential-looking variables the user lets through (config env.passthrough) */
  passthrough?: readonly string[];
  /** exact names that never pass, passthrough or not: the providers' keys */
  secrets?: readonly string[];
};

/** Whether a variable would be kept out of a child's environment unless passed through by name. */
export function looksSecret(name: string, value: string): boolean {
  return SECRET_NAME.some((pattern) => pattern.test(name)) || SECRET_VALUE.some((pattern) => pattern.test(value.trim()));
}

/** Whether a variable never reaches a child: rein's own keys and the providers' keys. */
export function neverPassed(name: string, secrets: readonly string[] = []): boolean {
  return REIN_SECRET.test(name) || secrets.includes(name);
}

/** The environment for a process rein starts on a tool's behalf. */
export function childEnv(parent: Readonly<Record<string, string | undefined>>, options: ChildEnvOptions = {}): Record<string, string> {
  const passthrough = new Set(options.passthrough ?? []);
  const env: Record<string, string> = { ...NON_INTERACTIVE };
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || neverPassed(name, options.secrets)) continue;
    if (looksSecret(name, value) && !passthrough.has(name)) continue;
    env[name] = value;
  }
  env.REIN = "1"; // lets a script tell it runs under rein
  // A non-interactive bash whose stdin is a socket reads ~/.bashrc when SHLVL is unset (its rule for
  // a shell started by sshd or rshd), and a stdin a child is fed through (a hook's payload, an MCP
  // server's requests) is a socket pair under Bun. A child of rein is never that shell.
  if (!/^[1-9]\d*$/.test(env.SHLVL ?? "")) env.SHLVL = "1";
  return env;
}
