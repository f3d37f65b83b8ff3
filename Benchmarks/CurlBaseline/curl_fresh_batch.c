// Fresh connections for salvo-bench's tls-connect suite: see
// include/curl_baseline.h. What a C program does when every request must
// open a connection of its own: a multi handle, one easy handle per request,
// CURLOPT_FRESH_CONNECT on each.

#include "curl_baseline.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>

struct cb_fresh_batch {
    CURLM *multi;
    CURL **handles;
    long count;
    int failure_reported;  // the first failure's reason went to stderr
};

static size_t drop_body(char *data, size_t size, size_t count, void *user) {
    (void)data;
    (void)user;
    return size * count;
}

cb_fresh_batch *cb_fresh_batch_create(const char *url, const char *ca_file, long count) {
    // Once: every call would add to libcurl's count of initialisations to undo.
    static int initialized = 0;
    if (!initialized) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return NULL;
        initialized = 1;
    }
    if (count < 1) return NULL;
    cb_fresh_batch *batch = calloc(1, sizeof *batch);
    if (!batch) return NULL;
    batch->multi = curl_multi_init();
    batch->handles = calloc((size_t)count, sizeof *batch->handles);
    if (!batch->multi || !batch->handles) {
        cb_fresh_batch_destroy(batch);
        return NULL;
    }
    // Every connection stays in the cache until the batch is destroyed, so none is
    // closed (and its close_notify sent) while the others are being timed.
    curl_multi_setopt(batch->multi, CURLMOPT_MAXCONNECTS, count);
    for (long i = 0; i < count; i++) {
        CURL *easy = curl_easy_init();
        if (!easy) {
            cb_fresh_batch_destroy(batch);
            return NULL;
        }
        batch->handles[i] = easy;
        batch->count = i + 1;
        curl_easy_setopt(easy, CURLOPT_URL, url);
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, drop_body);
        curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
        curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
        if (ca_file) curl_easy_setopt(easy, CURLOPT_CAINFO, ca_file);
    }
    return batch;
}

long cb_fresh_batch_run(cb_fresh_batch *batch) {
    for (long i = 0; i < batch->count; i++) {
        if (curl_multi_add_handle(batch->multi, batch->handles[i]) != CURLM_OK) return -1;
    }
    long done = 0, failures = 0;
    int running = 0;
    while (done < batch->count) {
        if (curl_multi_perform(batch->multi, &running) != CURLM_OK) return -1;
        CURLMsg *message;
        int pending;
        while ((message = curl_multi_info_read(batch->multi, &pending))) {
            if (message->msg != CURLMSG_DONE) continue;
            long status = 0;
            curl_easy_getinfo(message->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result != CURLE_OK || status != 200) {
                failures++;
                if (!batch->failure_reported) {
                    batch->failure_reported = 1;
                    fprintf(stderr, "\n  [libcurl C] first failed request: %s, status %ld\n",
                            curl_easy_strerror(message->data.result), status);
                }
            }
            curl_multi_remove_handle(batch->multi, message->easy_handle);
            done++;
        }
        if (done < batch->count && curl_multi_poll(batch->multi, NULL, 0, 1000, NULL) != CURLM_OK) return -1;
    }
    return failures;
}

void cb_fresh_batch_destroy(cb_fresh_batch *batch) {
    if (!batch) return;
    // The multi handle first: its connection cache is closed with it, while the easy
    // handles that used the connections still exist.
    if (batch->multi) curl_multi_cleanup(batch->multi);
    for (long i = 0; i < batch->count; i++) curl_easy_cleanup(batch->handles[i]);
    free(batch->handles);
    free(batch);
}
