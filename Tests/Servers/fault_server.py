#!/usr/bin/env python3
"""A small HTTP/1.1 server that misbehaves on purpose, for Salvo's tests.

Well-behaved servers (httpbin, nginx) never reset a connection mid-request,
lie about Content-Length or stall; this one does, on request. Python standard
library only (asyncio), so it runs with any python3 >= 3.8.

Usage:
    fault_server.py [--host 127.0.0.1] [--port 0]

It binds (port 0 = a free port chosen by the kernel), then prints the port it
listens on as one line on stdout, e.g. "43817", and serves until SIGTERM or
SIGINT. Connections are persistent (HTTP/1.1 keep-alive) unless a route
closes them, or the request is HTTP/1.0 (or a version-less HTTP/0.9 line, which
carries no headers) without "Connection: keep-alive": those are answered, then
closed. Empty lines before a request line are skipped.

Routes (query parameters in brackets):
    /ok                        200, body "ok\\n"
    /one-per-connection        200, body "fresh\\n" to a connection's first request; the
                               connection closes unanswered on its second (an idle timeout)
    /drop-every-other-reused   [key] 200 "ok\\n", except that every other request under `key`
                               arriving on a used connection is dropped unanswered
    /reset                     reads the request, then resets the connection
                               (SO_LINGER 0 -> RST) without answering
    /empty-reply               reads the request, then closes cleanly (FIN)
                               without answering
    /truncate                  Content-Length: 1000, sends 100 bytes, closes
    /close-after-headers       Content-Length: 100, sends the headers, closes
    /stall[?body=N]            sends the headers (Content-Length: 100) and the first N
                               (default 0, at most 99) body bytes, then nothing until the
                               client goes away
    /stall-upload              reads the request head, never its body, and never answers:
                               an upload whose server stops reading (the client's send
                               buffer fills); held until the server stops
    /stall-headers             reads the request and never answers
    /malformed-headers         a header line without a colon
    /malformed-status          a status line that is not HTTP ("HTTX/1.1 200")
    /slow-body[?chunks=N&interval=MS&size=BYTES]
                               Content-Length: N*BYTES, then N chunks of
                               BYTES bytes ("x"), one every MS milliseconds
                               (defaults: chunks=5, interval=100, size=10)
    /gzip-slow[?chunks=N&interval=MS]
                               Content-Encoding: gzip with a Content-Length: about 1 MB of
                               text compressed, sent in N pieces (default 5) one every MS
                               milliseconds (default 50)
    /slow-redirect?to=URL[&delay=MS][&body=TEXT]
                               waits MS milliseconds (default 500), then 302 to URL,
                               with TEXT as its body (default none)
    /flaky-file?key=K&size=N[&times=T][&auth=USER:PASSWORD]
                               per key K: answers 503 (body "busy\n") to the first T
                               (default 1) requests, then serves N bytes of
                               flaky_file_bytes(N) with ETag "flaky", honouring
                               "Range: bytes=S-" with a 206; with auth, a request without
                               that Basic credential gets a 401 challenge (body
                               "who are you\n") and does not count
    /no-ranges?size=N          200 with ETag "nr" and the N bytes of flaky_file_bytes(N)
                               whatever Range or If-Range was sent (a server that ignores
                               ranges)
    /slow-ranged?size=N[&chunks=C&interval=MS]
                               flaky_file_bytes(N) with ETag "slow", honouring
                               "Range: bytes=S-" with a 206 as /flaky-file does, the body sent
                               in C pieces (default 10) one every MS milliseconds (default 200)
    /ranged-count?key=K&size=N[&chunks=C&interval=MS]
                               flaky_file_bytes(N) with ETag "rc" and Accept-Ranges: bytes,
                               honouring "Range: bytes=A-B" and "bytes=A-" with a 206 (416
                               past the end), and If-Range: a value other than "rc" gets
                               the whole file; counts each request under K with its Range.
                               With C, the body goes in C pieces, one every MS milliseconds
                               (default 200)
    /ranged-count-hits?key=K   JSON {"key": K, "requests": n, "ranges": [...]}: the requests
                               /ranged-count has seen for K and each one's Range ("" for none)
    /wrong-range               206 with ETag "w" and Content-Range bytes 0-9/10 whatever
                               Range was asked for (a range answer that does not
                               continue the client's partial file)
    /fail-twice?key=K[&times=N][&status=S]
                               per key K: answers S (default 503) to the
                               first N (default 2) requests, then 200 with
                               JSON {"key": K, "attempt": n}
    /attempts?key=K            JSON {"key": K, "attempts": n}: how many
                               requests /fail-twice has seen for K
    /raw-headers               JSON {"lines": [...]}: the request's header lines as sent,
                               repeats and order kept
    /redirect?to=URL[&status=S]
                               S (default 302, any 3xx) with "Location: URL" byte for byte
                               as the query decodes (any scheme: file:, gopher:, dict:,
                               ftp:, another origin), Content-Length: 0
    /redirect?to=URL&cookie=NAME=VALUE
                               the same, also setting that cookie (Set-Cookie, path /)
    /hit/K[/...]               any method, any version, headers or none: counts a hit for
                               key K (the segment after /hit/, percent-decoded), 200 "hit\\n"
    /hits?key=K                JSON {"key": K, "hits": n}: how many hits K has had
    /drip[?interval=MS&count=N]
                               Content-Length: N, the headers at once, then one byte "x"
                               every MS milliseconds, the first MS after the headers
                               (defaults: interval=3000, count=3)
    /gzip-bomb[?size=N]        Content-Encoding: gzip, Content-Type: application/octet-stream,
                               the Content-Length of the compressed body: gzip of N zero
                               bytes (default 64 MiB), compressed once per N and cached
    /endless[?chunk=BYTES]     200, Connection: close, no Content-Length, then "x" in
                               BYTES-sized writes (default 65536) until the client goes
    /endless-chunked[?chunk=BYTES]
                               the same as Transfer-Encoding: chunked on a keep-alive
                               connection: one chunk of BYTES after another, forever
    /double-content-length     "Content-Length: 2" and "Content-Length: 5" in one
                               response, body "okabc", then closes
    /huge-content-length       Content-Length: 99999999999999999999999999 (past 64 bits),
                               body "ok", then closes
    /huge-header[?size=N]      200 with a header line "X-Huge: " and N "a"s (default
                               1048576), body "ok\\n"
    /many-headers[?count=N&size=M]
                               200 with N header lines "X-Many-<i>: " and M "a"s each
                               (defaults 100 and 50000: each line under libcurl's
                               100 KiB limit, 5 MB in all), body "ok\\n"
    /plain/...[?cd=TEXT]       matched on the raw target, never decoded nor normalised
                               (/plain/..%2F..%2Fx and /plain/%2e%2e reach it): 200, body
                               "plain\\n", text/plain; with cd, "Content-Disposition: TEXT"
                               byte for byte as the query decodes
    /count                     JSON {"count": n}: the requests for /count so far, this one
                               included
    /count-peek                the same n, without counting
A request with an absolute target (as sent to a forward proxy) gets JSON
{"proxied": TARGET, "host": HOST, "method": METHOD} instead of being forwarded.
CONNECT to a loopback host:port opens a tunnel there (HTTPS through a proxy);
    /connects                  JSON {"connects": [...]}: the CONNECT targets so far
Anything else is 404.
"""

import argparse
import base64
import asyncio
import gzip
import json
import signal
import socket
import struct
import sys
import threading
import zlib
from urllib.parse import parse_qs, unquote, urlsplit

# /gzip-slow's body: text that decodes to far more bytes than it is sent as.
GZIPPED_TEXT = gzip.compress(b"".join(b"line %d of salvo's compressible text\n" % n for n in range(30000)))

# Requests seen per /flaky-file key.
FLAKY = {}


def flaky_file_bytes(size):
    """The content /flaky-file serves: varied, so a misplaced range shows."""
    return bytes((i * 31 + (i >> 8)) & 0xFF for i in range(size))


# The Range header of each request seen per /ranged-count key.
RANGED = {}


def ranged_count(query, headers):
    """/ranged-count's answer: a file that honours byte ranges, counting what was asked
    (with `cd`, named by a Content-Disposition header of that value)."""
    key = query.get("key", [""])[0]
    size = int_param(query, "size", 1000, minimum=0)
    range_header = headers.get("range", "")
    RANGED.setdefault(key, []).append(range_header)
    body = flaky_file_bytes(size)
    extra = ('ETag: "rc"', "Accept-Ranges: bytes")
    disposition = query.get("cd", [None])[0]
    if disposition is not None:
        extra += (f"Content-Disposition: {disposition}",)
    if_range = headers.get("if-range")
    if not range_header.startswith("bytes=") or (if_range is not None and if_range != '"rc"'):
        return response(200, "OK", body, "application/octet-stream", extra=extra)
    first, _, last = range_header[6:].partition("-")
    try:
        start = int(first)
        end = min(int(last), size - 1) if last else size - 1
    except ValueError:
        return response(200, "OK", body, "application/octet-stream", extra=extra)
    if start >= size or end < start:
        return response(416, "Range Not Satisfiable", b"", extra=extra + (f"Content-Range: bytes */{size}",))
    return response(206, "Partial Content", body[start:end + 1], "application/octet-stream",
                    extra=extra + (f"Content-Range: bytes {start}-{end}/{size}",))


# Requests seen per /fail-twice key. One event loop thread: no lock needed.
ATTEMPTS = {}
# Per key, requests /drop-every-other-reused saw on used connections.
REUSED = {}
# CONNECT targets tunnelled so far, in order (/connects).
CONNECTS = []
# Hits per /hit/K key.
HITS = {}
# Requests for /count so far.
COUNT = 0
# /gzip-bomb's compressed bodies per size: futures of bytes, so that concurrent requests for
# one size share one compression.
GZIP_BOMBS = {}
# What /gzip-bomb compresses, a MiB at a time.
ZERO_MIB = memoryview(bytes(1 << 20))
# Set at shutdown: a compression still running gives up rather than hold the exit.
STOPPING = threading.Event()

REDIRECT_REASONS = {300: "Multiple Choices", 301: "Moved Permanently", 302: "Found",
                    303: "See Other", 304: "Not Modified", 305: "Use Proxy",
                    307: "Temporary Redirect", 308: "Permanent Redirect"}

MAX_HEADER_BYTES = 64 * 1024


class BadRequest(Exception):
    pass


async def read_request(reader):
    """Reads one request head; returns (method, target, headers) or None at EOF.

    Line by line, so that a version-less HTTP/0.9 request line ("GET /hit/K"), which has no
    headers and no empty line after it, is answered too; empty lines before the request line
    (a gopher client's trailing CRLF) are skipped."""
    size = 0

    async def line():
        nonlocal size
        try:
            data = await reader.readuntil(b"\r\n")
        except asyncio.IncompleteReadError as error:
            if size == 0 and not error.partial.strip():
                return None
            raise BadRequest("connection closed inside the request head")
        except asyncio.LimitOverrunError:
            raise BadRequest("request head too large")
        size += len(data)
        if size > MAX_HEADER_BYTES:
            raise BadRequest("request head too large")
        return data[:-2].decode("latin-1")

    request_line = ""
    while not request_line:
        request_line = await line()
        if request_line is None:
            return None
    words = request_line.split(" ", 2)
    if len(words) == 2 and words[1]:
        words.append("")  # HTTP/0.9: no version, no headers
        lines = []
    elif len(words) == 3:
        lines = []
        while (header := await line()):
            lines.append(header)
    else:
        raise BadRequest("bad request line")
    method, target, version = words
    headers = {}
    for header in lines:
        name, _, value = header.partition(":")
        headers[name.strip().lower()] = value.strip()
    # The lines as sent, for /raw-headers (no header name can start with ':').
    headers[":lines"] = lines
    headers[":version"] = version
    return method, target, headers


async def read_body(reader, writer, headers):
    """Consumes the request body (Content-Length or chunked), honouring Expect."""
    if headers.get("expect", "").lower() == "100-continue":
        writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = bytearray()
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                # Trailers, if any, end with an empty line.
                while (await reader.readuntil(b"\r\n")) != b"\r\n":
                    pass
                return bytes(body)
            body += await reader.readexactly(size)
            await reader.readexactly(2)
    length = int(headers.get("content-length", "0") or "0")
    return await reader.readexactly(length) if length else b""


def response(status, reason, body=b"", content_type="text/plain", extra=()):
    head = [f"HTTP/1.1 {status} {reason}",
            f"Content-Length: {len(body)}",
            f"Content-Type: {content_type}"]
    head.extend(extra)
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


def json_response(status, reason, value):
    return response(status, reason, json.dumps(value).encode(), "application/json")


def reset(writer):
    """Closes with RST instead of FIN: SO_LINGER on, timeout 0."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def wait_for_client_close(reader):
    """Holds a connection open, reading and dropping input, until the peer leaves."""
    while await reader.read(65536):
        pass


async def close_gently(reader, writer):
    """Closes after an answer: FIN first, then up to a second of reading what the client still
    sends (a gopher client's trailing CRLF), so that unread input does not turn the close into
    a reset that could discard the answer."""
    try:
        await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
        await asyncio.wait_for(wait_for_client_close(reader), 1.0)
    except (OSError, asyncio.TimeoutError):
        pass
    writer.close()


async def send(writer, data):
    """Writes and flushes. Raises ConnectionResetError once the client has gone: asyncio
    otherwise goes on accepting writes to a closing transport (and logs about them)."""
    if writer.transport.is_closing():
        raise ConnectionResetError("the client went away")
    writer.write(data)
    await writer.drain()


def gzip_of_zeros(size):
    """gzip of `size` zero bytes, compressed a MiB at a time (never `size` bytes at once)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: a gzip header and trailer
    pieces = []
    left = size
    while left:
        if STOPPING.is_set():
            raise RuntimeError("shutting down")
        step = min(left, len(ZERO_MIB))
        pieces.append(compressor.compress(ZERO_MIB[:step]))
        left -= step
    pieces.append(compressor.flush())
    return b"".join(pieces)


async def gzip_bomb(size):
    """/gzip-bomb's body for `size`, compressed once (off the event loop) and kept."""
    if size not in GZIP_BOMBS:
        GZIP_BOMBS[size] = asyncio.get_running_loop().run_in_executor(None, gzip_of_zeros, size)
    return await GZIP_BOMBS[size]


def int_param(query, name, default, minimum=None):
    try:
        value = int(query.get(name, [default])[0])
    except ValueError:
        raise BadRequest(f"{name} must be an integer")
    if minimum is not None and value < minimum:
        raise BadRequest(f"{name} must be at least {minimum}")
    return value


def open_range_start(headers):
    """N of a `Range: bytes=N-` request header, else 0."""
    range_header = headers.get("range", "")
    if range_header.startswith("bytes=") and range_header.endswith("-"):
        return int(range_header[6:-1] or 0)
    return 0


def header_param(query_string, name):
    """A query parameter percent-decoded to the bytes it stands for, as a latin-1 str (or
    None): written into a header, it goes out byte for byte, whatever the bytes are."""
    return parse_qs(query_string, encoding="latin-1").get(name, [None])[0]


async def handle_request(method, target, headers, reader, writer, served):
    """Answers one request. Returns False when the connection must not be reused.

    `served` is how many requests this connection answered before this one."""
    global COUNT
    parts = urlsplit(target)
    path = parts.path
    query = parse_qs(parts.query)

    if parts.scheme:
        # An absolute target: asked as a forward proxy. It answers itself, with what it was
        # asked for, instead of forwarding.
        writer.write(json_response(200, "OK", {"proxied": target, "host": headers.get("host", ""),
                                               "method": method}))
    elif path == "/ok":
        writer.write(response(200, "OK", b"ok\n"))
    elif target.partition("?")[0].startswith("/plain/"):
        # Matched on the raw target: /plain/..%2F..%2Fx and /plain/%2e%2e arrive as sent.
        disposition = header_param(parts.query, "cd")
        extra = (f"Content-Disposition: {disposition}",) if disposition is not None else ()
        writer.write(response(200, "OK", b"plain\n", extra=extra))
    elif path.startswith("/hit/"):
        # Any method, any version, with headers or none (a gopher client's bare
        # "GET /hit/K HTTP/1.0"): whatever reached this server under K counts.
        key = unquote(path[len("/hit/"):].split("/", 1)[0])
        HITS[key] = HITS.get(key, 0) + 1
        answer = response(200, "OK", b"hit\n")
        writer.write(answer[:-len(b"hit\n")] if method == "HEAD" else answer)
    elif path == "/hits":
        key = query.get("key", [""])[0]
        writer.write(json_response(200, "OK", {"key": key, "hits": HITS.get(key, 0)}))
    elif path == "/count":
        COUNT += 1
        writer.write(json_response(200, "OK", {"count": COUNT}))
    elif path == "/count-peek":
        writer.write(json_response(200, "OK", {"count": COUNT}))
    elif path == "/redirect":
        location = header_param(parts.query, "to")
        if location is None:
            raise BadRequest("to is required")
        status = int_param(query, "status", 302)
        if not 300 <= status <= 399:
            raise BadRequest("status must be a 3xx")
        cookie = header_param(parts.query, "cookie")
        extra = (f"Location: {location}",) + ((f"Set-Cookie: {cookie}; Path=/",) if cookie else ())
        writer.write(response(status, REDIRECT_REASONS.get(status, "Redirection"), extra=extra))
    elif path == "/drip":
        interval = int_param(query, "interval", 3000, minimum=0) / 1000.0
        count = int_param(query, "count", 3, minimum=0)
        await send(writer, f"HTTP/1.1 200 OK\r\nContent-Length: {count}\r\n"
                           "Content-Type: application/octet-stream\r\n\r\n".encode("latin-1"))
        for _ in range(count):
            await asyncio.sleep(interval)  # the pacing is the point of this route
            await send(writer, b"x")  # ConnectionError when the client has gone: quiet
    elif path == "/gzip-bomb":
        body = await gzip_bomb(int_param(query, "size", 64 << 20, minimum=0))
        await send(writer, f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\nContent-Encoding: gzip\r\n"
                           "Content-Type: application/octet-stream\r\n\r\n".encode("latin-1"))
        view = memoryview(body)
        for index in range(0, len(body), 65536):
            await send(writer, view[index:index + 65536])
    elif path == "/endless":
        data = b"x" * int_param(query, "chunk", 65536, minimum=1)
        await send(writer, b"HTTP/1.1 200 OK\r\nConnection: close\r\n"
                           b"Content-Type: application/octet-stream\r\n\r\n")
        while True:  # until the client goes: send raises ConnectionError, caught quietly
            await send(writer, data)
    elif path == "/endless-chunked":
        size = int_param(query, "chunk", 65536, minimum=1)
        data = b"%x\r\n" % size + b"x" * size + b"\r\n"
        await send(writer, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
                           b"Content-Type: application/octet-stream\r\n\r\n")
        while True:  # until the client goes: send raises ConnectionError, caught quietly
            await send(writer, data)
    elif path == "/double-content-length":
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 5\r\n"
                     b"Content-Type: text/plain\r\n\r\nokabc")
        await writer.drain()
        writer.close()
        return False
    elif path == "/huge-content-length":
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999999\r\n"
                     b"Content-Type: text/plain\r\n\r\nok")
        await writer.drain()
        writer.close()
        return False
    elif path == "/huge-header":
        size = int_param(query, "size", 1048576, minimum=0)
        writer.write(response(200, "OK", b"ok\n", extra=("X-Huge: " + "a" * size,)))
    elif path == "/many-headers":
        count = int_param(query, "count", 100, minimum=0)
        size = int_param(query, "size", 50000, minimum=0)
        lines = tuple("X-Many-%d: %s" % (index, "a" * size) for index in range(count))
        writer.write(response(200, "OK", b"ok\n", extra=lines))
    elif path == "/no-ranges":
        body = flaky_file_bytes(int_param(query, "size", 1000, minimum=0))
        writer.write(response(200, "OK", body, "application/octet-stream", extra=('ETag: "nr"',)))
    elif path == "/slow-ranged":
        size = int_param(query, "size", 1000, minimum=1)
        chunks = max(1, int_param(query, "chunks", 10))
        interval = int_param(query, "interval", 200) / 1000.0
        body = flaky_file_bytes(size)
        start = open_range_start(headers)
        if 0 < start < size:
            head = (f"HTTP/1.1 206 Partial Content\r\nContent-Length: {size - start}\r\n"
                    f"Content-Range: bytes {start}-{size - 1}/{size}\r\n")
        else:
            start = 0
            head = f"HTTP/1.1 200 OK\r\nContent-Length: {size}\r\n"
        writer.write((head + 'ETag: "slow"\r\nContent-Type: application/octet-stream\r\n\r\n').encode("latin-1"))
        await writer.drain()
        rest = body[start:]
        step = -(-len(rest) // chunks)
        for index in range(0, len(rest), step):
            if index:
                await asyncio.sleep(interval)  # the pacing is the point of this route
            await send(writer, rest[index:index + step])
    elif path == "/ranged-count":
        answer = ranged_count(query, headers)
        chunks = int_param(query, "chunks", 1, minimum=1)
        interval = int_param(query, "interval", 200, minimum=0) / 1000.0
        head_end = answer.index(b"\r\n\r\n") + 4
        await send(writer, answer[:head_end])
        body = answer[head_end:]
        step = max(1, -(-len(body) // chunks))
        for index in range(0, len(body), step):
            if index:
                await asyncio.sleep(interval)  # the pacing is the point of this option
            await send(writer, body[index:index + step])
    elif path == "/ranged-count-hits":
        key = query.get("key", [""])[0]
        ranges = RANGED.get(key, [])
        writer.write(json_response(200, "OK", {"key": key, "requests": len(ranges), "ranges": ranges}))
    elif path == "/wrong-range":
        writer.write(response(206, "Partial Content", b"0123456789",
                              extra=("ETag: \"w\"", "Content-Range: bytes 0-9/10")))
    elif path == "/one-per-connection":
        # Answers the first request of a connection, keeping it alive, and closes on the
        # second without a reply: what a server's idle-connection timeout looks like to a
        # client that reuses the connection.
        if served > 0:
            writer.close()
            return False
        writer.write(response(200, "OK", b"fresh\n"))
    elif path == "/drop-every-other-reused":
        # Of the requests under one key that arrive on an already used connection, every
        # other one finds the connection closed (no reply): a client re-sends it, and may do
        # so on another idle connection it holds.
        key = query.get("key", [""])[0]
        if served > 0:
            count = REUSED.get(key, 0) + 1
            REUSED[key] = count
            if count % 2 == 1:
                writer.close()
                return False
        writer.write(response(200, "OK", b"ok\n"))
    elif path == "/reset":
        reset(writer)
        return False
    elif path == "/empty-reply":
        writer.close()
        return False
    elif path == "/truncate":
        head = b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nContent-Type: application/octet-stream\r\n\r\n"
        writer.write(head + b"t" * 100)
        await writer.drain()
        writer.close()
        return False
    elif path == "/close-after-headers":
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\n")
        await writer.drain()
        writer.close()
        return False
    elif path == "/stall":
        sent = min(int_param(query, "body", 0, minimum=0), 99)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\n" + b"s" * sent)
        await writer.drain()
        await wait_for_client_close(reader)
        return False
    elif path == "/stall-headers":
        await wait_for_client_close(reader)
        return False
    elif path == "/malformed-headers":
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nthis line has no colon\r\n\r\nok")
        await writer.drain()
        writer.close()
        return False
    elif path == "/malformed-status":
        writer.write(b"HTTX/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        await writer.drain()
        writer.close()
        return False
    elif path == "/slow-body":
        chunks = int_param(query, "chunks", 5)
        interval = int_param(query, "interval", 100) / 1000.0
        size = int_param(query, "size", 10)
        writer.write(f"HTTP/1.1 200 OK\r\nContent-Length: {chunks * size}\r\n"
                     "Content-Type: application/octet-stream\r\n\r\n".encode("latin-1"))
        await writer.drain()
        for index in range(chunks):
            if index:
                await asyncio.sleep(interval)  # the pacing is the point of this route
            writer.write(b"x" * size)
            await writer.drain()
    elif path == "/slow-redirect":
        target = query.get("to", [""])[0]
        if not target:
            raise BadRequest("to is required")
        await asyncio.sleep(int_param(query, "delay", 500) / 1000.0)  # the wait is the point of this route
        body = query.get("body", [""])[0].encode()
        writer.write(response(302, "Found", body, extra=(f"Location: {target}",)))
    elif path == "/flaky-file" and "auth" in query and headers.get("authorization", "") != \
            "Basic " + base64.b64encode(query["auth"][0].encode()).decode():
        writer.write(response(401, "Unauthorized", b"who are you\n", extra=('WWW-Authenticate: Basic realm="flaky"',)))
    elif path == "/flaky-file":
        key = query.get("key", [""])[0]
        times = int_param(query, "times", 1)
        size = int_param(query, "size", 1000)
        attempt = FLAKY.get(key, 0) + 1
        FLAKY[key] = attempt
        if attempt <= times:
            writer.write(response(503, "Busy", b"busy\n"))
        else:
            body = flaky_file_bytes(size)
            start = open_range_start(headers)
            if 0 < start < size:
                writer.write(response(206, "Partial Content", body[start:], "application/octet-stream",
                                      extra=('ETag: "flaky"', f"Content-Range: bytes {start}-{size - 1}/{size}")))
            else:
                writer.write(response(200, "OK", body, "application/octet-stream", extra=('ETag: "flaky"',)))
    elif path == "/gzip-slow":
        chunks = max(1, int_param(query, "chunks", 5))
        interval = int_param(query, "interval", 50) / 1000.0
        body = GZIPPED_TEXT
        writer.write(f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\nContent-Encoding: gzip\r\n"
                     "Content-Type: text/plain\r\n\r\n".encode("latin-1"))
        await writer.drain()
        step = -(-len(body) // chunks)
        for index in range(0, len(body), step):
            if index:
                await asyncio.sleep(interval)  # the pacing is the point of this route
            writer.write(body[index:index + step])
            await writer.drain()
    elif path == "/fail-twice":
        key = query.get("key", [""])[0]
        times = int_param(query, "times", 2)
        status = int_param(query, "status", 503)
        attempt = ATTEMPTS.get(key, 0) + 1
        ATTEMPTS[key] = attempt
        if attempt <= times:
            writer.write(json_response(status, "Failing On Purpose",
                                       {"key": key, "attempt": attempt}))
        else:
            writer.write(json_response(200, "OK", {"key": key, "attempt": attempt}))
    elif path == "/connects":
        writer.write(json_response(200, "OK", {"connects": CONNECTS}))
    elif path == "/raw-headers":
        # The request's header lines as they came, repeats and order kept (httpbin merges them).
        writer.write(json_response(200, "OK", {"lines": headers[":lines"]}))
    elif path == "/attempts":
        key = query.get("key", [""])[0]
        writer.write(json_response(200, "OK", {"key": key, "attempts": ATTEMPTS.get(key, 0)}))
    else:
        writer.write(response(404, "Not Found", b"no such route\n"))

    connection = headers.get("connection", "").lower()
    if connection == "close":
        await writer.drain()
        writer.close()
        return False
    if headers[":version"] != "HTTP/1.1" and connection != "keep-alive":
        # HTTP/1.0 and HTTP/0.9 close by default; a gopher client waits for the close.
        await close_gently(reader, writer)
        return False
    return True


async def pipe(source, sink):
    try:
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
    except ConnectionError:
        pass
    finally:
        sink.close()


async def tunnel(target, headers, reader, writer):
    """A forward proxy's CONNECT, to loopback targets only; each target is recorded for
    /connects."""
    host, _, port = target.rpartition(":")
    if host not in ("127.0.0.1", "localhost") or not port.isdigit():
        writer.write(response(403, "Forbidden", b"loopback targets only\n"))
        return
    CONNECTS.append(target)
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection(host, int(port))
    except OSError:
        writer.write(response(502, "Bad Gateway", b"cannot reach the target\n"))
        return
    writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
    await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))


async def serve_connection(reader, writer):
    served = 0
    try:
        while True:
            request = await read_request(reader)
            if request is None:
                break
            method, target, headers = request
            if method == "CONNECT":
                await tunnel(target, headers, reader, writer)
                break
            if urlsplit(target).path == "/stall-upload":
                # Never reads the body: asyncio stops reading the socket once its buffer
                # holds 2 x limit, and then the kernel's buffers fill.
                while not STOPPING.is_set():
                    await asyncio.sleep(0.5)
                break
            await read_body(reader, writer, headers)
            if not await handle_request(method, target, headers, reader, writer, served):
                break
            served += 1
            await writer.drain()
    except BadRequest as error:
        writer.write(response(400, "Bad Request", (str(error) + "\n").encode()))
    except (OSError, asyncio.IncompleteReadError):
        # ConnectionError among them: a client that went away, mid-body or not, ends its
        # connection quietly.
        pass
    except asyncio.CancelledError:
        # Shutdown cancels the connections. Ending normally keeps Python 3.11's stream
        # callback, which asks a cancelled task for its exception, from printing a traceback.
        pass
    finally:
        # Idempotent: a route may already have closed or aborted the transport.
        writer.close()


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()

    server = await asyncio.start_server(serve_connection, args.host, args.port,
                                        limit=MAX_HEADER_BYTES, backlog=1024)
    port = server.sockets[0].getsockname()[1]

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)

    # Ready: the socket listens. Whoever started us reads this line.
    print(port, flush=True)
    await stop.wait()
    STOPPING.set()
    # Stop listening and leave: asyncio.run() cancels the connection tasks
    # (a /stall connection would otherwise hold wait_closed() forever).
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
