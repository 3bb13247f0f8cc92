#ifndef DYN_CHIREDIS_SHIM_H
#define DYN_CHIREDIS_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <uv.h>
#include <hiredis/hiredis.h>
#include <hiredis/async.h>

/// The context's error text (a fixed-size char array Swift imports as a tuple).
static inline const char *dyn_redis_errstr(const redisAsyncContext *ac) { return ac->errstr; }

/// Whether hiredis still waits for the TCP connect to finish.
static inline int dyn_redis_is_connected(const redisAsyncContext *ac) { return (ac->c.flags & REDIS_CONNECTED) != 0; }

/// Told when hiredis frees a context (after a failed connect, a disconnect, `redisAsyncFree`): the owner
/// forgets its pointer then, so it never frees the same context twice.
typedef void (*dyn_redis_freed_fn)(void *owner);

/// hiredis' libuv adapter (hiredis/adapters/libuv.h of 0.14), with its error path fixed: when the poll
/// reports an error (a refused or reset connection: POLLERR/POLLHUP), hiredis is still asked to read and
/// write for the events it waits for, so it sees the socket error and calls the connect or disconnect
/// callback. The stock adapter returns early there, so a refused connect never called back and the context
/// stayed forever (hiredis 1.0 made the same fix). The cleanup also tells the owner the context is gone.
typedef struct dynRedisEvents {
    redisAsyncContext *context;
    uv_poll_t handle;
    int events;
    void *owner;
    dyn_redis_freed_fn freed;
} dynRedisEvents;

static void dynRedisPoll(uv_poll_t *handle, int status, int events) {
    dynRedisEvents *p = (dynRedisEvents *)handle->data;
    int ev = status != 0 ? p->events : events;
    if (p->context != NULL && (ev & UV_READABLE)) redisAsyncHandleRead(p->context);
    if (p->context != NULL && (ev & UV_WRITABLE)) redisAsyncHandleWrite(p->context);
}

static void dynRedisUpdate(dynRedisEvents *p) {
    if (p->events) {
        uv_poll_start(&p->handle, p->events, dynRedisPoll);
    } else {
        uv_poll_stop(&p->handle);
    }
}

static void dynRedisAddRead(void *privdata) { dynRedisEvents *p = privdata; p->events |= UV_READABLE; dynRedisUpdate(p); }
static void dynRedisDelRead(void *privdata) { dynRedisEvents *p = privdata; p->events &= ~UV_READABLE; dynRedisUpdate(p); }
static void dynRedisAddWrite(void *privdata) { dynRedisEvents *p = privdata; p->events |= UV_WRITABLE; dynRedisUpdate(p); }
static void dynRedisDelWrite(void *privdata) { dynRedisEvents *p = privdata; p->events &= ~UV_WRITABLE; dynRedisUpdate(p); }

static void dynRedisClosed(uv_handle_t *handle) { free(handle->data); }

static void dynRedisCleanup(void *privdata) {
    dynRedisEvents *p = (dynRedisEvents *)privdata;
    p->context = NULL;
    if (p->freed) p->freed(p->owner);
    p->freed = NULL;
    uv_close((uv_handle_t *)&p->handle, dynRedisClosed);
}

/// Attaches `ac` to `loop`; `freed(owner)` runs when hiredis frees the context. REDIS_ERR leaves nothing
/// allocated behind (the caller frees the context).
static inline int dyn_redis_attach(redisAsyncContext *ac, uv_loop_t *loop, void *owner, dyn_redis_freed_fn freed) {
    if (ac->ev.data != NULL) return REDIS_ERR;
    dynRedisEvents *p = (dynRedisEvents *)calloc(1, sizeof(*p));
    if (!p) return REDIS_ERR;
    if (uv_poll_init(loop, &p->handle, ac->c.fd) != 0) {
        free(p);
        return REDIS_ERR;
    }
    p->handle.data = p;
    p->context = ac;
    p->owner = owner;
    p->freed = freed;
    ac->ev.addRead = dynRedisAddRead;
    ac->ev.delRead = dynRedisDelRead;
    ac->ev.addWrite = dynRedisAddWrite;
    ac->ev.delWrite = dynRedisDelWrite;
    ac->ev.cleanup = dynRedisCleanup;
    ac->ev.data = p;
    return REDIS_OK;
}
#endif
