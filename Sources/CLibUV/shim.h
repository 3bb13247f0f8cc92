#ifndef DYN_CLIBUV_SHIM_H
#define DYN_CLIBUV_SHIM_H
#include <uv.h>
#endif
