// What front ends reach of src/plugins/ through the session: the run's plugins, and the commands
// that install and enable them.
export { activePlugins, type ActivePlugins } from "../plugins/active.ts";
export { prepareInstall, prepareUpdate, finishInstall, findInstalled, removeInstalled, type Prepared } from "../plugins/install.ts";
export { addMarketplace, listMarketplaces, refreshMarketplace, removeMarketplace, describe as describeSource } from "../plugins/marketplaces.ts";
export { runsSummary, bringsSummary } from "../plugins/summary.ts";
export { setEnabled } from "../plugins/enabled.ts";
export { pluginStore, readInstalled, readMarketplaces, type InstalledPlugin } from "../plugins/store.ts";
export { prepareClaudeImport, finishClaudeImport } from "../plugins/claude-import.ts";
