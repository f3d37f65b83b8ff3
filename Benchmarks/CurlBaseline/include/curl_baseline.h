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
typedef enum { CB_HTTP1 = 0, CB_H2C = 1 } cb_protocol;

typedef struct cb_driver cb_driver;

/// A driver with its multi handle. NULL when libcurl cannot be set up.
cb_driver *cb_driver_create(cb_loop loop, cb_protocol protocol);

/// Adds request header lines ("Name: value") to every request, with response
/// decoding on (CURLOPT_ACCEPT_ENCODING ""), the way Salvo sends its session's
/// default headers. Call before the first run; returns 0, or -1 on failure.
int cb_driver_send_headers(cb_driver *driver, const char *const *lines, long count);

/// Runs `count` GETs of `url`, keeping `inflight` running until all are done.
/// Returns how many failed (a curl error or a status other than 200);
/// negative when the loop itself failed.
long cb_driver_run(cb_driver *driver, const char *url, long count, long inflight);

/// Bytes of response bodies received so far (a check that bodies arrived).
uint64_t cb_driver_body_bytes(const cb_driver *driver);

/// Frees the handles and the driver.
void cb_driver_destroy(cb_driver *driver);

/// libcurl's version string, e.g. "7.88.1".
const char *cb_curl_version(void);

#endif
