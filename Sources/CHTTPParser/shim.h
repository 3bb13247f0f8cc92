#ifndef DYN_CHTTPPARSER_SHIM_H
#define DYN_CHTTPPARSER_SHIM_H
#include <http_parser.h>
#endif
