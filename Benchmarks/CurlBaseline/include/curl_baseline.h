#ifndef SALVO_CURL_BASELINE_H
#define SALVO_CURL_BASELINE_H

// A raw C driver of libcurl's multi interface: the ceiling any libcurl
// wrapper can reach. salvo-bench runs it in a child process next to Salvo.
//
// Two event loops, the two an engine can choose between:
//   CB_LOOP_SOCKET_ACTION  epoll + curl_multi_socket_action, with
//                          CURLMOPT_SOCKETFUNCTION and CURLMOPT_TIMERFUNCTION;
//   CB_LOOP_POLL           curl_multi_perform + curl_multi_poll.
// Easy handles are created once per in-flight slot and reused (removed from
// the multi and added again), so connections stay in the multi's cache.

#include <stdint.h>

typedef enum { CB_LOOP_SOCKET_ACTION = 0, CB_LOOP_POLL = 1 } cb_loop;
// CB_H1S: HTTP/1.1 over TLS. CB_H2: HTTP/2 over TLS, offered by ALPN, with
// new transfers waiting for a connection to multiplex on (CURLOPT_PIPEWAIT).
typedef enum { CB_HTTP1 = 0, CB_H2C = 1, CB_H1S = 2, CB_H2 = 3 } cb_protocol;

typedef struct cb_driver cb_driver;

/// A driver with its multi handle. NULL when libcurl cannot be set up.
cb_driver *cb_driver_create(cb_loop loop, cb_protocol protocol);

/// Adds request header lines ("Name: value") to every request, with response
/// decoding on (CURLOPT_ACCEPT_ENCODING ""), the way Salvo sends its session's
/// default headers. Call before the first run; returns 0, or -1 on failure.
int cb_driver_send_headers(cb_driver *driver, const char *const *lines, long count);

/// Verifies servers against the CA certificates in the PEM file at `path`
/// (CURLOPT_CAINFO) instead of libcurl's built-in bundle. Call before the
/// first run; returns 0, or -1 on failure.
int cb_driver_set_ca_file(cb_driver *driver, const char *path);

/// Runs `count` GETs of `url`, keeping `inflight` running until all are done.
/// With `times_ns` (room for `count`), also records each request's time in
/// nanoseconds (CLOCK_MONOTONIC), in completion order: from just before its
/// handle is added to the multi to when curl_multi_info_read reports it done.
/// NULL records nothing. Returns how many failed (a curl error or a status
/// other than 200); negative when the loop itself failed.
long cb_driver_run(cb_driver *driver, const char *url, long count, long inflight, uint64_t *times_ns);

/// Bytes of response bodies received so far (a check that bodies arrived).
uint64_t cb_driver_body_bytes(const cb_driver *driver);

/// Frees the handles and the driver.
void cb_driver_destroy(cb_driver *driver);

/// libcurl's built-in CA bundle (CURLINFO_CAINFO), the file a program that
/// sets no CURLOPT_CAINFO verifies against; NULL when it has none.
const char *cb_default_ca_file(void);

// Fresh connections: `count` GETs of one URL started at once over HTTP/1.1,
// each easy handle with CURLOPT_FRESH_CONNECT, on a multi handle of their own
// that keeps every connection (CURLMOPT_MAXCONNECTS = count): one new
// connection per request, TLS handshake and verification included. Making
// and freeing the handles stay out of cb_fresh_batch_run, so that a caller
// timing it times the connections alone.

typedef struct cb_fresh_batch cb_fresh_batch;

/// The handles for one batch; NULL when libcurl cannot make them. `ca_file`
/// may be NULL for libcurl's built-in bundle.
cb_fresh_batch *cb_fresh_batch_create(const char *url, const char *ca_file, long count);

/// Runs the batch once, over curl_multi_poll. Returns how many requests
/// failed (a curl error or a status other than 200); negative when the loop
/// itself failed.
long cb_fresh_batch_run(cb_fresh_batch *batch);

/// Closes the connections and frees the handles.
void cb_fresh_batch_destroy(cb_fresh_batch *batch);

/// libcurl's version string, e.g. "7.88.1".
const char *cb_curl_version(void);

#endif
