#ifndef DYN_CNETTLE_SHIM_H
#define DYN_CNETTLE_SHIM_H
#include <nettle/sha1.h>
#include <nettle/base64.h>
#endif
