#ifndef SALVO_HEADER_BLOCK_H
#define SALVO_HEADER_BLOCK_H

// The one piece of logic kept in C: collecting a response's header lines, and
// counting how often a transfer's request was sent.
//
// libcurl calls its header function once per line, about ten times per
// response. Through a Swift closure each call cost ~300 instructions (context
// lookup, retain and release, array append); here a line is a memcpy, and
// Swift is called only twice per response: for the status line and for the
// blank line that ends the block.

#include <stddef.h>

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
    /// Whether a line of the current response may be a Set-Cookie line (its name, after
    /// leading blanks, starts with "set-cookie" in any case): when not, the request layer
    /// skips looking for cookies to store.
    int may_set_cookie;
} salvo_header_block;

/// The most bytes one response's header block may take, below libcurl 7.88's own limit
/// (300 KiB, which it checks per read: a block that arrives in many small reads reaches
/// this one first). Either way the caller sees a bad server response (see CurlError).
enum { SALVO_HEADER_BLOCK_LIMIT = 256 * 1024 };

/// Checks the value of one Content-Length line (after the colon) against the ones before
/// it in the same response. Returns 1 when it is invalid: not decimal numbers, beyond 63
/// bits, or differing from an earlier value. A list of equal values ("5, 5"), which RFC 9110
/// section 8.6 lets a recipient take as one, is valid.
int salvo_header_block_check_length(salvo_header_block *block, const unsigned char *value, size_t length);

/// CURLOPT_PREREQFUNCTION, with CURLOPT_PREREQDATA pointing at a salvo_header_block.
int salvo_count_request(void *user, char *primary_ip, char *local_ip, int primary_port, int local_port);

/// CURLOPT_HEADERFUNCTION, with CURLOPT_HEADERDATA pointing at a salvo_header_block.
size_t salvo_header_collect(char *buffer, size_t size, size_t nitems, void *user);

/// The value of the current response's first header line called `name` (any case; `name`
/// without the colon), leading spaces skipped, up to the line's end without CR LF; NULL
/// when there is none. `*length` receives the value's length.
const char *salvo_header_block_value(const salvo_header_block *block, const char *name, size_t *length);

/// Whether the current response has a header line called `name` (any case; `name` without
/// the colon). Used at the end of a header block, where libcurl 7.88 does not yet know the
/// redirect URL (CURLINFO_REDIRECT_URL is filled in only when the transfer ends).
int salvo_header_block_has(const salvo_header_block *block, const char *name);

#endif
