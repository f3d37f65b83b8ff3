#ifndef SALVO_CCURL_HEADER_BLOCK_H
#define SALVO_CCURL_HEADER_BLOCK_H

// The one piece of logic kept in C: collecting a response's header lines, and
// counting how often a transfer's request was sent.
//
// libcurl calls its header function once per line, about ten times per
// response. Through a Swift closure each call cost ~300 instructions (context
// lookup, retain and release, array append); here a line is a memcpy, and
// Swift is called only twice per response: for the status line and for the
// blank line that ends the block.

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { SALVO_HEADER_STATUS_LINE = 0, SALVO_HEADER_BLOCK_END = 1 };

/// Returns `length` to go on, anything else to abort the transfer.
typedef size_t (*salvo_header_event)(void *context, int event, size_t length);

/// The header lines of the current response, status line first, as received.
/// One per easy handle, reused from transfer to transfer.
typedef struct salvo_header_block {
    unsigned char *bytes;
    size_t count;
    size_t capacity;
    void *context;
    salvo_header_event event;
    /// How many times the current transfer's request went out (CURLOPT_PREREQFUNCTION):
    /// more than once means libcurl re-sent it after a reused connection died, which
    /// advances a per-handle retry counter only curl_easy_reset clears.
    long requests_sent;
    /// Header bytes received by the current transfer, all responses together: part of what
    /// the idle timeout counts as bytes moving.
    size_t bytes_seen;
    /// The current response's Content-Length, once a line gave one.
    unsigned long long content_length;
    int content_length_seen;
    /// Set when the current response's Content-Length lines disagree or a value is not a
    /// 63-bit decimal number; the transfer was aborted then (RFC 9112 section 6.3).
    int invalid_length;
    /// Set when the current response's header block passed SALVO_HEADER_BLOCK_LIMIT; the
    /// transfer was aborted then.
    int too_large;
} salvo_header_block;

/// The most bytes one response's header block may take, below libcurl 7.88's own limit
/// (300 KiB, which it checks per read: a block that arrives in many small reads reaches
/// this one first). Either way the caller sees a bad server response (see CurlError).
enum { SALVO_HEADER_BLOCK_LIMIT = 256 * 1024 };

/// Checks the value of one Content-Length line (after the colon) against the ones before
/// it in the same response. Returns 1 when it is invalid: not decimal numbers, beyond 63
/// bits, or differing from an earlier value. A list of equal values ("5, 5"), which RFC 9110
/// section 8.6 lets a recipient take as one, is valid.
static inline int salvo_header_block_check_length(salvo_header_block *block, const unsigned char *value, size_t length) {
    size_t position = 0, end = length;
    while (end > 0 && (value[end - 1] == '\r' || value[end - 1] == '\n' || value[end - 1] == ' ' || value[end - 1] == '\t')) end--;
    for (;;) {
        while (position < end && (value[position] == ' ' || value[position] == '\t')) position++;
        unsigned long long number = 0;
        size_t digits = 0;
        while (position < end && value[position] >= '0' && value[position] <= '9') {
            unsigned digit = value[position] - '0';
            if (number > (0x7FFFFFFFFFFFFFFFULL - digit) / 10) return 1;
            number = number * 10 + digit;
            position++;
            digits++;
        }
        if (digits == 0) return 1;
        if (block->content_length_seen && number != block->content_length) return 1;
        block->content_length_seen = 1;
        block->content_length = number;
        while (position < end && (value[position] == ' ' || value[position] == '\t')) position++;
        if (position == end) return 0;
        if (value[position] != ',') return 1;
        position++;
    }
}

/// CURLOPT_PREREQFUNCTION, with CURLOPT_PREREQDATA pointing at a salvo_header_block.
static inline int salvo_count_request(void *user, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)primary_ip; (void)local_ip; (void)primary_port; (void)local_port;
    ((salvo_header_block *)user)->requests_sent++;
    return CURL_PREREQFUNC_OK;
}

/// CURLOPT_HEADERFUNCTION, with CURLOPT_HEADERDATA pointing at a salvo_header_block.
static inline size_t salvo_header_collect(char *buffer, size_t size, size_t nitems, void *user) {
    salvo_header_block *block = (salvo_header_block *)user;
    size_t length = size * nitems;
    // A new status line starts a new response (after 100 Continue, a redirect
    // followed by libcurl, or an authentication round): only the last is kept.
    int status = length >= 5 && memcmp(buffer, "HTTP/", 5) == 0;
    if (status) {
        block->count = 0;
        block->content_length_seen = 0;
    } else if (length > 15 && (buffer[0] | 0x20) == 'c' && buffer[14] == ':' &&
               strncasecmp(buffer, "content-length:", 15) == 0 &&
               salvo_header_block_check_length(block, (const unsigned char *)buffer + 15, length - 15)) {
        block->invalid_length = 1;
        return 0;
    }
    if (block->count + length > SALVO_HEADER_BLOCK_LIMIT) {
        block->too_large = 1;
        return 0;
    }
    if (block->count + length > block->capacity) {
        size_t capacity = block->capacity * 2;
        if (capacity < block->count + length) capacity = block->count + length;
        if (capacity < 512) capacity = 512;
        unsigned char *bytes = (unsigned char *)realloc(block->bytes, capacity);
        if (!bytes) return 0;
        block->bytes = bytes;
        block->capacity = capacity;
    }
    memcpy(block->bytes + block->count, buffer, length);
    block->count += length;
    block->bytes_seen += length;
    if (status) return block->event(block->context, SALVO_HEADER_STATUS_LINE, length);
    if (length <= 2) return block->event(block->context, SALVO_HEADER_BLOCK_END, length);
    return length;
}

/// The value of the current response's first header line called `name` (any case; `name`
/// without the colon), leading spaces skipped, up to the line's end without CR LF; NULL
/// when there is none. `*length` receives the value's length.
static inline const char *salvo_header_block_value(const salvo_header_block *block, const char *name, size_t *length) {
    size_t name_length = strlen(name);
    size_t index = 0;
    while (index < block->count && block->bytes[index] != '\n') index++;
    index++;
    while (index < block->count) {
        size_t start = index;
        while (index < block->count && block->bytes[index] != '\n') index++;
        if (index - start > name_length && block->bytes[start + name_length] == ':' &&
            strncasecmp((const char *)block->bytes + start, name, name_length) == 0) {
            size_t value = start + name_length + 1;
            size_t end = index;
            while (value < end && (block->bytes[value] == ' ' || block->bytes[value] == '\t')) value++;
            while (end > value && (block->bytes[end - 1] == '\r' || block->bytes[end - 1] == ' ')) end--;
            *length = end - value;
            return (const char *)block->bytes + value;
        }
        index++;
    }
    return NULL;
}

/// Whether the current response has a header line called `name` (any case; `name` without
/// the colon). Used at the end of a header block, where libcurl 7.88 does not yet know the
/// redirect URL (CURLINFO_REDIRECT_URL is filled in only when the transfer ends).
static inline int salvo_header_block_has(const salvo_header_block *block, const char *name) {
    size_t length;
    return salvo_header_block_value(block, name, &length) != NULL;
}

#endif
