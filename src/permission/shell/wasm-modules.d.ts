// `import path from "x.wasm" with { type: "file" }` gives the file's path: on disk under `bun run`,
// inside the executable ($bunfs) in the compiled binary.
declare module "*.wasm" {
  const path: string;
  export default path;
}
