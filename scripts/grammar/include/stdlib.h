/* The few libc declarations tree-sitter-bash's C needs when built as a wasm side module: each is
   imported from web-tree-sitter's runtime, exactly as in the upstream build (see ../build.ts). */
#pragma once
#include <stddef.h>
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
