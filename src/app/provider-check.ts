// What `rein doctor` asks of the provider, for front ends that may not reach into llm/.
export { API_CHECK_TIMEOUT_MS, checkAnthropicApi, type ApiCheck } from "../llm/api-check.ts";
export { providerReport, type ProviderCheck } from "../llm/provider-report.ts";
