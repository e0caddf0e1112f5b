// `import path from "x.wasm" with { type: "file" }` gives the file's path: on disk under `bun run`,
// inside the executable ($bunfs) in the compiled binary.
declare module "*.wasm" {
  const path: string;
  export default path;
}

// The grammar's tables, detached from its wasm (scripts/grammar/detach-data.ts): embedded the same way.
declare module "*.data" {
  const path: string;
  export default path;
}
