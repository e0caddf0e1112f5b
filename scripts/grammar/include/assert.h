/* Assertions stay on, as upstream: a failed one calls the runtime's __assert_fail. */
#pragma once
_Noreturn void __assert_fail(const char *, const char *, int, const char *);
#define assert(x) ((x) ? (void)0 : __assert_fail(#x, __FILE__, __LINE__, __func__))
