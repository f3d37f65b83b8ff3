// The header collector's definitions; salvo_header_block.h says what each does.

#include "salvo_header_block.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// Inlined into salvo_header_collect, its one caller on the request path.
static inline int check_length(salvo_header_block *block, const unsigned char *value, size_t length) {
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

// A line is looked at again in Swift when this says it may set a cookie; a false "yes"
// costs only that look (Set-Cookie2, a name with blanks before its colon).
static inline int may_be_set_cookie(const char *line, size_t length) {
    size_t start = 0;
    while (start < length && (line[start] == ' ' || line[start] == '\t')) start++;
    return length - start >= 10 && (line[start] | 0x20) == 's' && strncasecmp(line + start, "set-cookie", 10) == 0;
}

int salvo_header_block_check_length(salvo_header_block *block, const unsigned char *value, size_t length) {
    return check_length(block, value, length);
}

int salvo_count_request(void *user, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)primary_ip; (void)local_ip; (void)primary_port; (void)local_port;
    ((salvo_header_block *)user)->requests_sent++;
    return CURL_PREREQFUNC_OK;
}

size_t salvo_header_collect(char *buffer, size_t size, size_t nitems, void *user) {
    salvo_header_block *block = (salvo_header_block *)user;
    size_t length = size * nitems;
    // A new status line starts a new response (after 100 Continue, a redirect
    // followed by libcurl, or an authentication round): only the last is kept.
    int status = length >= 5 && memcmp(buffer, "HTTP/", 5) == 0;
    if (status) {
        block->count = 0;
        block->content_length_seen = 0;
        block->may_set_cookie = 0;
    } else if (!block->may_set_cookie && may_be_set_cookie(buffer, length)) {
        block->may_set_cookie = 1;
    } else if (length > 15 && (buffer[0] | 0x20) == 'c' && buffer[14] == ':' &&
               strncasecmp(buffer, "content-length:", 15) == 0 &&
               check_length(block, (const unsigned char *)buffer + 15, length - 15)) {
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

const char *salvo_header_block_value(const salvo_header_block *block, const char *name, size_t *length) {
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

int salvo_header_block_has(const salvo_header_block *block, const char *name) {
    size_t length;
    return salvo_header_block_value(block, name, &length) != NULL;
}
