// What front ends reach of src/plugins/ through the session: the run's plugins, and the commands
// that install and enable them.
export { activePlugins, type ActivePlugins } from "../plugins/active.ts";
