#ifndef DYN_CWSLAY_SHIM_H
#define DYN_CWSLAY_SHIM_H
#include <wslay/wslay.h>
#endif
