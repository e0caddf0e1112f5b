// The memory store as the front ends reach it (`rein memory`, `#` in the terminal): they may not
// import memory/ themselves.
export { findMemory, listMemories, memoryDirs, removeMemory, saveMemory, type Memory, type MemoryDirs, type MemoryScope } from "../memory/store.ts";
export { quickMemory } from "../memory/quick.ts";
export { parseMemory } from "../memory/front-matter.ts";
export { autoMemories, type AutoMemoryOutcome } from "../memory/auto.ts";
