#ifndef DYN_CHIREDIS_SHIM_H
#define DYN_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>
#include <hiredis/async.h>
#include <hiredis/adapters/libuv.h>

/// The context's error text (a fixed-size char array Swift imports as a tuple).
static inline const char *dyn_redis_errstr(const redisAsyncContext *ac) { return ac->errstr; }
#endif
