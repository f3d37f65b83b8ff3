// The raw libcurl baseline of salvo-bench: see include/curl_baseline.h.
//
// Kept as plain as a careful C programmer would write it: no per-request
// allocation, handles reused, bodies counted and dropped, headers left to
// libcurl. Whatever a wrapper does beyond this is its own cost.

#define _GNU_SOURCE
#include "curl_baseline.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

struct cb_driver {
    CURLM *multi;
    cb_loop loop;
    cb_protocol protocol;
    int epoll_fd;
    int64_t deadline_ms;       // when curl wants its timeout call; -1 for none
    CURL **handles;            // one per in-flight slot, reused
    uint64_t *issued_ns;       // per slot: when its handle was last added to the multi
    long handle_count;
    uint64_t *times_ns;        // the run's per-request times, or NULL (cb_driver_run)
    long times_recorded;
    int h2_connection_open;    // h2c: the prior-knowledge connection exists
    uint64_t body_bytes;
    long failures;
    int failure_reported;      // the first failure's reason went to stderr
    struct curl_slist *headers; // extra request headers, or NULL (cb_driver_send_headers)
    char *ca_file;             // CURLOPT_CAINFO, or NULL for libcurl's bundle (cb_driver_set_ca_file)
};

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static size_t write_body(char *data, size_t size, size_t count, void *user) {
    (void)data;
    cb_driver *driver = user;
    driver->body_bytes += size * count;
    return size * count;
}

// MARK: socket_action callbacks

static int on_socket(CURL *easy, curl_socket_t fd, int what, void *user, void *socket_user) {
    (void)easy;
    cb_driver *driver = user;
    if (what == CURL_POLL_REMOVE) {
        // curl may already have closed the descriptor; EBADF is harmless then.
        epoll_ctl(driver->epoll_fd, EPOLL_CTL_DEL, fd, NULL);
        curl_multi_assign(driver->multi, fd, NULL);
        return 0;
    }
    struct epoll_event event = {0};
    event.data.fd = fd;
    if (what & CURL_POLL_IN) event.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) event.events |= EPOLLOUT;
    if (socket_user == NULL) {
        if (epoll_ctl(driver->epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0 && errno == EEXIST) {
            epoll_ctl(driver->epoll_fd, EPOLL_CTL_MOD, fd, &event);
        }
        curl_multi_assign(driver->multi, fd, driver);
    } else {
        epoll_ctl(driver->epoll_fd, EPOLL_CTL_MOD, fd, &event);
    }
    return 0;
}

static int on_timer(CURLM *multi, long timeout_ms, void *user) {
    (void)multi;
    cb_driver *driver = user;
    driver->deadline_ms = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    return 0;
}

// MARK: setup

static void configure(cb_driver *driver, CURL *easy, long http_version) {
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, driver);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, http_version);
    if (driver->protocol == CB_H2C || driver->protocol == CB_H2) curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
    if (driver->ca_file) curl_easy_setopt(easy, CURLOPT_CAINFO, driver->ca_file);
    if (driver->headers) {
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, driver->headers);
        // Decoding on, as a client that asks for compressed bodies needs it.
        curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    }
}

int cb_driver_send_headers(cb_driver *driver, const char *const *lines, long count) {
    if (driver->handle_count > 0) return -1;
    for (long i = 0; i < count; i++) {
        struct curl_slist *list = curl_slist_append(driver->headers, lines[i]);
        if (!list) return -1;
        driver->headers = list;
    }
    return 0;
}

int cb_driver_set_ca_file(cb_driver *driver, const char *path) {
    if (driver->handle_count > 0) return -1;
    char *copy = strdup(path);
    if (!copy) return -1;
    free(driver->ca_file);
    driver->ca_file = copy;
    return 0;
}

// libcurl 7.88.1 fails a request that reuses an h2c prior-knowledge
// connection (fixed in 8.0). As Salvo does: only the request that opens the
// connection asks for prior knowledge; the others ask for HTTP/2 and join it.
static long reuse_http_version(const cb_driver *driver) {
    switch (driver->protocol) {
    case CB_H2C: return CURL_HTTP_VERSION_2_0;
    case CB_H2: return CURL_HTTP_VERSION_2TLS;
    default: return CURL_HTTP_VERSION_1_1;
    }
}

cb_driver *cb_driver_create(cb_loop loop, cb_protocol protocol) {
    static int initialized = 0;
    if (!initialized) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return NULL;
        initialized = 1;
    }
    cb_driver *driver = calloc(1, sizeof *driver);
    if (!driver) return NULL;
    driver->loop = loop;
    driver->protocol = protocol;
    driver->deadline_ms = -1;
    driver->epoll_fd = -1;
    driver->multi = curl_multi_init();
    if (!driver->multi) {
        free(driver);
        return NULL;
    }
    curl_multi_setopt(driver->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    if (protocol == CB_H2C) curl_multi_setopt(driver->multi, CURLMOPT_MAX_HOST_CONNECTIONS, 1L);
    if (loop == CB_LOOP_SOCKET_ACTION) {
        driver->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
        if (driver->epoll_fd < 0) {
            cb_driver_destroy(driver);
            return NULL;
        }
        curl_multi_setopt(driver->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
        curl_multi_setopt(driver->multi, CURLMOPT_SOCKETDATA, driver);
        curl_multi_setopt(driver->multi, CURLMOPT_TIMERFUNCTION, on_timer);
        curl_multi_setopt(driver->multi, CURLMOPT_TIMERDATA, driver);
    }
    return driver;
}

static int ensure_handles(cb_driver *driver, long count) {
    if (count <= driver->handle_count) return 0;
    CURL **handles = realloc(driver->handles, (size_t)count * sizeof *handles);
    if (!handles) return -1;
    driver->handles = handles;
    uint64_t *issued = realloc(driver->issued_ns, (size_t)count * sizeof *issued);
    if (!issued) return -1;
    driver->issued_ns = issued;
    for (long i = driver->handle_count; i < count; i++) {
        handles[i] = curl_easy_init();
        if (!handles[i]) return -1;
        configure(driver, handles[i], reuse_http_version(driver));
        // The slot's index, so that a finished transfer finds its issue time without a search.
        curl_easy_setopt(handles[i], CURLOPT_PRIVATE, (void *)(intptr_t)i);
        driver->handle_count = i + 1;
    }
    return 0;
}

// MARK: the loops

// Adds a transfer to the multi; when the run records times, notes when.
static CURLMcode issue(cb_driver *driver, CURL *easy) {
    if (driver->times_ns) {
        char *slot = NULL;
        curl_easy_getinfo(easy, CURLINFO_PRIVATE, &slot);
        driver->issued_ns[(intptr_t)slot] = now_ns();
    }
    return curl_multi_add_handle(driver->multi, easy);
}

// Handles finished transfers: counts them, starts the next while any remain.
static void collect(cb_driver *driver, long count, long *issued, long *done) {
    CURLMsg *message;
    int pending;
    while ((message = curl_multi_info_read(driver->multi, &pending))) {
        if (message->msg != CURLMSG_DONE) continue;
        CURL *easy = message->easy_handle;
        if (driver->times_ns) {
            char *slot = NULL;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, &slot);
            driver->times_ns[driver->times_recorded++] = now_ns() - driver->issued_ns[(intptr_t)slot];
        }
        long status = 0;
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
        if (message->data.result != CURLE_OK || status != 200) {
            driver->failures++;
            if (!driver->failure_reported) {
                driver->failure_reported = 1;
                fprintf(stderr, "\n  [libcurl C] first failed request: %s, status %ld\n",
                        curl_easy_strerror(message->data.result), status);
            }
        }
        curl_multi_remove_handle(driver->multi, easy);
        (*done)++;
        if (*issued < count) {
            issue(driver, easy);
            (*issued)++;
        }
    }
}

static int run_socket_action(cb_driver *driver, long count, long *issued, long *done) {
    struct epoll_event events[256];
    int running = 0;
    while (*done < count) {
        int wait_ms = 1000;
        if (driver->deadline_ms >= 0) {
            int64_t left = driver->deadline_ms - now_ms();
            wait_ms = left < 0 ? 0 : (left < 1000 ? (int)left : 1000);
        }
        int ready = epoll_wait(driver->epoll_fd, events, 256, wait_ms);
        if (ready < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        for (int i = 0; i < ready; i++) {
            int flags = 0;
            if (events[i].events & EPOLLIN) flags |= CURL_CSELECT_IN;
            if (events[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
            if (events[i].events & (EPOLLERR | EPOLLHUP)) flags |= CURL_CSELECT_ERR;
            curl_multi_socket_action(driver->multi, events[i].data.fd, flags, &running);
        }
        if (driver->deadline_ms >= 0 && now_ms() >= driver->deadline_ms) {
            driver->deadline_ms = -1;
            curl_multi_socket_action(driver->multi, CURL_SOCKET_TIMEOUT, 0, &running);
        }
        collect(driver, count, issued, done);
    }
    return 0;
}

static int run_poll(cb_driver *driver, long count, long *issued, long *done) {
    int running = 0;
    while (*done < count) {
        if (curl_multi_perform(driver->multi, &running) != CURLM_OK) return -1;
        collect(driver, count, issued, done);
        if (*done < count && curl_multi_poll(driver->multi, NULL, 0, 1000, NULL) != CURLM_OK) return -1;
    }
    return 0;
}

static int run_batch(cb_driver *driver, CURL **handles, long count, long inflight) {
    long issued = 0, done = 0;
    for (; issued < inflight && issued < count; issued++) {
        if (issue(driver, handles[issued]) != CURLM_OK) return -1;
    }
    return driver->loop == CB_LOOP_SOCKET_ACTION ? run_socket_action(driver, count, &issued, &done)
                                                 : run_poll(driver, count, &issued, &done);
}

long cb_driver_run(cb_driver *driver, const char *url, long count, long inflight, uint64_t *times_ns) {
    if (count <= 0) return 0;
    if (inflight < 1) inflight = 1;
    if (inflight > count) inflight = count;
    driver->failures = 0;
    driver->times_ns = NULL; // the h2c opener below is not one of the run's requests
    driver->times_recorded = 0;
    if (driver->protocol == CB_H2C) {
        // Enough streams on the one connection for every request in flight.
        curl_multi_setopt(driver->multi, CURLMOPT_MAX_CONCURRENT_STREAMS, inflight > 100 ? inflight : 100L);
        if (!driver->h2_connection_open) {
            CURL *opener = curl_easy_init();
            if (!opener) return -1;
            configure(driver, opener, CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE);
            curl_easy_setopt(opener, CURLOPT_URL, url);
            int status = run_batch(driver, &opener, 1, 1);
            curl_easy_cleanup(opener);
            if (status != 0) return -1;
            driver->h2_connection_open = 1;
        }
    } else {
        curl_multi_setopt(driver->multi, CURLMOPT_MAXCONNECTS, inflight * 2);
    }
    if (ensure_handles(driver, inflight) != 0) return -1;
    for (long i = 0; i < inflight; i++) curl_easy_setopt(driver->handles[i], CURLOPT_URL, url);
    driver->times_ns = times_ns;
    int status = run_batch(driver, driver->handles, count, inflight);
    driver->times_ns = NULL;
    return status != 0 ? -1 : driver->failures;
}

uint64_t cb_driver_body_bytes(const cb_driver *driver) { return driver->body_bytes; }

void cb_driver_destroy(cb_driver *driver) {
    if (!driver) return;
    for (long i = 0; i < driver->handle_count; i++) curl_easy_cleanup(driver->handles[i]);
    free(driver->handles);
    free(driver->issued_ns);
    if (driver->multi) curl_multi_cleanup(driver->multi);
    curl_slist_free_all(driver->headers);
    free(driver->ca_file);
    if (driver->epoll_fd >= 0) close(driver->epoll_fd);
    free(driver);
}

const char *cb_default_ca_file(void) {
    // A copy: libcurl answers with the handle's own string, freed with the handle.
    static char path[4096];
    CURL *easy = curl_easy_init();
    if (!easy) return NULL;
    char *built_in = NULL;
    curl_easy_getinfo(easy, CURLINFO_CAINFO, &built_in);
    int fits = built_in && strlen(built_in) < sizeof path;
    if (fits) strcpy(path, built_in);
    curl_easy_cleanup(easy);
    return fits ? path : NULL;
}

const char *cb_curl_version(void) { return curl_version_info(CURLVERSION_NOW)->version; }
