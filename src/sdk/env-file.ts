// The .env family: `.env`, `.env.local`, `.env-prod`, `.env_test`, `prod.env`, `.envrc`, and editor
// backups of them (`.env~`, `#.env#`, `.env.swp`, `.env.bak`); templates are not secrets. One
// definition for the permission engine and for the tools that leave such files out of a search.
const ENV_FILE = /^(?:\.?#)?(?:\.env(?:rc)?(?:[._~#-].*)?|.*\.env(?:rc)?(?:[~#]|\.(?:bak|old|orig|save|swp|swo|tmp))?)$/i;
const ENV_TEMPLATE = /^\.env[._-](?:example|sample|template)$/i;

/** `.env`, `.env.local`, `.envrc`, `.env~`...; not `.env.example`, `.env.sample`, `.env.template`. */
export function envFile(name: string): boolean {
  return ENV_FILE.test(name) && !ENV_TEMPLATE.test(name);
}
