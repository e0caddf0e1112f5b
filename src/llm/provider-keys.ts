// The environment variables that hold a provider's credentials. rein reads them; no process it
// starts for a tool ever gets them (src/permission/child-env.ts), even when named in env.passthrough.
// A provider added to rein adds its variables here; a configured provider's `env:VAR` is added to
// these for its runs (keyVariables in providers.ts).
export const PROVIDER_KEY_ENV: readonly string[] = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY", "OPENROUTER_API_KEY"];
