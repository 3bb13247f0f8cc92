#ifndef DYN_CCURL_SHIM_H
#define DYN_CCURL_SHIM_H
#include <curl/curl.h>

static inline CURLcode dyn_curl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode dyn_curl_easy_setopt_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLMcode dyn_curl_multi_setopt_ptr(CURLM *m, CURLMoption o, const void *v) { return curl_multi_setopt(m, o, v); }

typedef int (*dyn_curl_socket_fn)(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp);
typedef int (*dyn_curl_timer_fn)(CURLM *multi, long timeout_ms, void *userp);
typedef size_t (*dyn_curl_write_fn)(char *ptr, size_t size, size_t nmemb, void *userdata);

static inline CURLMcode dyn_curl_multi_socket_fn(CURLM *m, dyn_curl_socket_fn f) { return curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, f); }
static inline CURLMcode dyn_curl_multi_timer_fn(CURLM *m, dyn_curl_timer_fn f) { return curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, f); }
static inline CURLcode dyn_curl_easy_write_fn(CURL *h, dyn_curl_write_fn f) { return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
static inline CURLcode dyn_curl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode dyn_curl_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
#endif
