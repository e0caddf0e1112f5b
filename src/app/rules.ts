// How front ends write a rule (`bash(npm test *)`), without loading the permission engine.
export { formatRule } from "../permission/evaluate.ts";
