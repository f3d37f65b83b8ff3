#ifndef SALVO_CCURL_SHIM_H
#define SALVO_CCURL_SHIM_H

// Typed wrappers for libcurl's variadic entry points. Swift cannot call
// C variadic functions, so each argument type gets its own inline shim.
// No logic lives here.

#include <curl/curl.h>
#include <stdint.h>

// MARK: easy setopt

static inline CURLcode salvo_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode salvo_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode salvo_easy_setopt_ptr(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode salvo_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode salvo_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode salvo_easy_setopt_share(CURL *h, CURLoption o, CURLSH *v) { return curl_easy_setopt(h, o, v); }
// libcurl copies the bytes (CURL_BLOB_COPY), so they need not outlive the call.
static inline CURLcode salvo_easy_setopt_blob(CURL *h, CURLoption o, const void *bytes, size_t length) {
    struct curl_blob blob = { (void *)bytes, length, CURL_BLOB_COPY };
    return curl_easy_setopt(h, o, &blob);
}

typedef size_t (*salvo_data_callback)(char *buffer, size_t size, size_t nitems, void *userdata);
typedef int (*salvo_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
typedef int (*salvo_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);
typedef int (*salvo_seek_callback)(void *userdata, curl_off_t offset, int origin);

/// CURLOPT_WRITEFUNCTION, CURLOPT_READFUNCTION and CURLOPT_HEADERFUNCTION share this shape.
static inline CURLcode salvo_easy_setopt_data_callback(CURL *h, CURLoption o, salvo_data_callback f) { return curl_easy_setopt(h, o, f); }
static inline CURLcode salvo_easy_setopt_xferinfo_callback(CURL *h, salvo_xferinfo_callback f) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }
static inline CURLcode salvo_easy_setopt_debug_callback(CURL *h, salvo_debug_callback f) { return curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, f); }
static inline CURLcode salvo_easy_setopt_seek_callback(CURL *h, salvo_seek_callback f) { return curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, f); }
typedef int (*salvo_prereq_callback)(void *userdata, char *primary_ip, char *local_ip, int primary_port, int local_port);
static inline CURLcode salvo_easy_setopt_prereq_callback(CURL *h, salvo_prereq_callback f) { return curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, f); }

// MARK: easy getinfo

static inline CURLcode salvo_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode salvo_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode salvo_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode salvo_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }

// MARK: multi setopt

static inline CURLMcode salvo_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

// MARK: share setopt

static inline CURLSHcode salvo_share_setopt_long(CURLSH *s, CURLSHoption o, long v) { return curl_share_setopt(s, o, v); }

// MARK: constants that are macros of expressions Swift does not import

static const size_t SALVO_WRITEFUNC_PAUSE = CURL_WRITEFUNC_PAUSE;
static const size_t SALVO_READFUNC_PAUSE = CURL_READFUNC_PAUSE;
static const size_t SALVO_READFUNC_ABORT = CURL_READFUNC_ABORT;
static const int SALVO_PAUSE_ALL = CURLPAUSE_ALL;
static const int SALVO_PAUSE_CONT = CURLPAUSE_CONT;
static const long SALVO_HTTP_VERSION_2_PRIOR_KNOWLEDGE = CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE;
static const CURLversion SALVO_CURLVERSION_NOW = CURLVERSION_NOW;
static const unsigned long SALVO_AUTH_BASIC_DIGEST = CURLAUTH_BASIC | CURLAUTH_DIGEST;

#endif
