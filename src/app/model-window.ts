// What a front end shows about token counts, without loading the loop. A model's window comes from
// the session (Session.contextWindow), which knows the configured providers.
export { promptTokens } from "../agent/context-size.ts";
