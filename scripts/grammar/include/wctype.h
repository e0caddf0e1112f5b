/* iswspace/iswalpha/iswalnum come from the runtime (its musl tables); iswdigit is ASCII only in
   every libc, so it is inlined as upstream's build does. */
#pragma once
typedef unsigned int wint_t;
int iswspace(wint_t);
int iswalpha(wint_t);
int iswalnum(wint_t);
static inline int iswdigit(wint_t c) { return c - '0' < 10; }
