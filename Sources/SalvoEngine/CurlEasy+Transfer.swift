import Foundation
internal import CCurl
internal import CSalvoHeaders
internal import CSalvoTLS

// The C callbacks receive the `Transfer` as an unretained context pointer: the loop holds
// a retained reference in `CURLOPT_PRIVATE` for as long as the handle is attached.

private let writeCallback: salvo_data_callback = { buffer, size, count, context in
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.receiveBody(UnsafeRawPointer(buffer!), size * count)
}

// Header lines are collected in C (Sources/CSalvoHeaders); Swift hears of status lines and of the
// end of each header block.
private let headerEvent: salvo_header_event = { context, event, length in
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.headerEvent(statusLine: event == Int32(SALVO_HEADER_STATUS_LINE), length)
}

private let debugCallback: salvo_debug_callback = { _, type, data, size, context in
    guard type == CURLINFO_TEXT || type == CURLINFO_HEADER_IN || type == CURLINFO_HEADER_OUT, let data else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    if type == CURLINFO_TEXT && transfer.hostProbe != .none {
        let line = UnsafeRawBufferPointer(start: data, count: size)
        if transfer.hostProbe == .streamProbe {
            if let limit = CurlEasy.serverStreamLimit(inLogLine: line) { transfer.observedStreamLimit = limit }
        } else if let multiplexes = CurlEasy.negotiatedHTTP2(inLogLine: line) {
            transfer.observedHTTP2 = multiplexes
        }
    }
    guard let logger = transfer.verboseLogger else { return 0 }
    let prefix = type == CURLINFO_TEXT ? "* " : type == CURLINFO_HEADER_IN ? "< " : "> "
    let text = prefix + String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    // The logger is user code, which never runs on the loop thread.
    CurlEasy.logQueue.async { logger(text) }
    return 0
}

extension CurlEasy {
    package static let logQueue = DispatchQueue(label: "org.salvo.curl-verbose")

    /// Applies everything a transfer needs after a reset.
    /// - Returns: Whether the handle was reset and configured in full (`false`: the fast path).
    @discardableResult
    package func configure(for transfer: Transfer, options: EngineOptions, context: UnsafeMutableRawPointer, priorKnowledge: Bool,
                   share: UnsafeMutableRawPointer?, shareHasCookies: Bool, trustStore: UnsafeMutableRawPointer?) -> Bool {
        errorBuffer[0] = 0
        headerBlock.pointee.count = 0
        headerBlock.pointee.requests_sent = 0
        headerBlock.pointee.bytes_seen = 0
        headerBlock.pointee.invalid_length = 0
        headerBlock.pointee.too_large = 0
        headerBlock.pointee.content_length_seen = 0
        headerBlock.pointee.may_set_cookie = 0
        headerBlock.pointee.context = context
        if headerBlock.pointee.capacity > Self.headerBlockKeptCapacity {
            // One response with a huge header block does not pin that much per pooled handle.
            free(headerBlock.pointee.bytes)
            headerBlock.pointee.bytes = nil
            headerBlock.pointee.capacity = 0
        }
        // A proxy chosen by scheme is set anew for each transfer.
        let profile = options.httpsProxy == nil
            ? Self.plainProfile(of: transfer, priorKnowledge: priorKnowledge, trustStore: trustStore) : nil
        if let profile, profile == plainProfile {
            // Everything else is already set: a reset and ~20 options cost ~6,000 instructions.
            set(CURLOPT_PRIVATE, pointer: context)
            set(CURLOPT_URL, string: transfer.url)
            set(CURLOPT_WRITEDATA, pointer: context)
            return false
        }
        reset()
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PRIVATE, pointer: context)
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        set(CURLOPT_URL, string: transfer.url)
        // HTTP and HTTPS only, asked for or redirected to: never a local file, nor raw bytes
        // to any port through gopher, dict or telnet. The request layer refuses other schemes
        // before they get here; this keeps libcurl to the same rule whatever reaches it.
        set(CURLOPT_PROTOCOLS_STR, string: "http,https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, string: "http,https")
        CurlCheck.easy(salvo_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, writeCallback), "curl_easy_setopt", CURLOPT_WRITEFUNCTION.rawValue)
        set(CURLOPT_WRITEDATA, pointer: context)
        headerBlock.pointee.event = headerEvent
        CurlCheck.easy(salvo_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, salvo_header_collect), "curl_easy_setopt", CURLOPT_HEADERFUNCTION.rawValue)
        set(CURLOPT_HEADERDATA, pointer: UnsafeMutableRawPointer(headerBlock))
        // Counting the sends is what makes skipping the reset safe (see `requestWasResent`);
        // a libcurl without CURLOPT_PREREQFUNCTION (< 7.80) resets before every transfer.
        if salvo_easy_setopt_prereq_callback(handle, salvo_count_request) == CURLE_OK {
            set(CURLOPT_PREREQDATA, pointer: UnsafeMutableRawPointer(headerBlock))
            plainProfile = profile
        }
        CurlCheck.easy(salvo_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, transfer.headers.list), "curl_easy_setopt", CURLOPT_HTTPHEADER.rawValue)

        switch transfer.method {
        case "GET" where transfer.body == nil && transfer.bodySource == nil:
            break
        case "HEAD":
            set(CURLOPT_NOBODY, 1)
        case "POST":
            // A body source must not be shadowed by POSTFIELDS, which libcurl prefers.
            if transfer.bodySource == nil { setBody(transfer.body ?? Data()) }
        default:
            set(CURLOPT_CUSTOMREQUEST, string: transfer.method)
            // An upload sends its source, never a `URLRequest.httpBody`, as URLSession does.
            if let body = transfer.body, transfer.bodySource == nil { setBody(body) }
        }

        if options.decompressesResponses {
            // "" turns decoding on; the Accept-Encoding line among the headers is what is sent
            // (libcurl adds its own only when the request has none).
            set(CURLOPT_ACCEPT_ENCODING, string: "")
        }
        if options.receiveBufferSize > 0 { set(CURLOPT_BUFFERSIZE, options.receiveBufferSize) }
        // Session-wide, so the fast path above (no reset) keeps it right: every handle of this
        // loop was given the same value here after its last reset.
        if options.maximumReceiveRate > 0 { set(CURLOPT_MAX_RECV_SPEED_LARGE, offset: options.maximumReceiveRate) }
        // Downloads, uploads and progress: one check on the data-request path.
        if transfer.sink != nil || transfer.bodySource != nil || transfer.progress != nil {
            configureStreaming(for: transfer, context: context, receiveBufferSize: options.receiveBufferSize)
        }

        switch options.httpVersion {
        case .http1_1:
            set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        case .automatic:
            set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
            // Waiting for a connection to multiplex on makes sense only where ALPN may offer
            // HTTP/2. Over plain http it made every request wait for the one before it (and a
            // connection whose first request failed before it was sent was waited on forever).
            if transfer.isHTTPS { set(CURLOPT_PIPEWAIT, 1) }
        case .http2PriorKnowledge:
            if priorKnowledge {
                set(CURLOPT_HTTP_VERSION, Int(SALVO_HTTP_VERSION_2_PRIOR_KNOWLEDGE))
            } else {
                set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2_0))
            }
            set(CURLOPT_PIPEWAIT, 1)
        }

        let resourceTimeout = transfer.resourceTimeout ?? options.resourceTimeout
        if resourceTimeout > 0 && resourceTimeout.isFinite {
            set(CURLOPT_TIMEOUT_MS, max(1, Self.milliseconds(resourceTimeout)))
        }
        // The idle timeout ("no bytes for this long") is the loop's (`EventLoop.watch`):
        // libcurl's low-speed limit counts whole seconds and an average, so a byte every few
        // seconds kept a shorter timeout from ever firing. A connection that never completes
        // is no bytes too, as URLSession sees it.
        var connectTimeout = options.connectTimeout
        if transfer.idleTimeoutNanoseconds > 0 {
            connectTimeout = connectTimeout > 0 ? min(connectTimeout, transfer.idleTimeout) : transfer.idleTimeout
        }
        set(CURLOPT_CONNECTTIMEOUT_MS, max(1, Self.milliseconds(connectTimeout)))

        if let credential = transfer.credential {
            // libcurl answers a Basic or Digest challenge, as URLSession answers one with a
            // credential: nothing is sent before the server asks.
            set(CURLOPT_USERNAME, string: credential.user)
            set(CURLOPT_PASSWORD, string: credential.password)
            set(CURLOPT_HTTPAUTH, Int(SALVO_AUTH_BASIC_DIGEST))
        }
        // Always set: a reset keeps a pooled handle's share, and with it the jar, which a
        // transfer without cookies must not see (its share holds TLS sessions only).
        CurlCheck.easy(salvo_easy_setopt_share(handle, CURLOPT_SHARE, share), "curl_easy_setopt", CURLOPT_SHARE.rawValue)
        if shareHasCookies && !cookieEngineStarted {
            set(CURLOPT_COOKIEFILE, string: "")
            cookieEngineStarted = true
        }
        // Also without a jar (the share could not be made): the caller's cookies still go.
        if let cookie = transfer.cookieHeader { set(CURLOPT_COOKIE, string: cookie) }
        if let httpsProxy = options.httpsProxy, transfer.hostKey.hasPrefix("https:") {
            set(CURLOPT_PROXY, string: httpsProxy)
        } else if let proxy = options.proxy {
            set(CURLOPT_PROXY, string: proxy)
        }
        if let noProxy = options.noProxy { set(CURLOPT_NOPROXY, string: noProxy) }
        if let proxy = transfer.proxy { set(CURLOPT_PROXY, string: proxy) }
        if let noProxy = transfer.noProxy { set(CURLOPT_NOPROXY, string: noProxy) }
        if let certificate = options.clientCertificatePath {
            set(CURLOPT_SSLCERT, string: certificate)
            set(CURLOPT_SSLCERTTYPE, string: "PEM")
        }
        if let key = options.clientKeyPath { set(CURLOPT_SSLKEY, string: key) }
        if let trustStore {
            CurlCheck.easy(CURLcode(UInt32(salvo_tls_use_store(handle, trustStore))), "curl_easy_setopt", CURLOPT_SSL_CTX_FUNCTION.rawValue)
        } else if let caBundle = options.caBundlePath {
            set(CURLOPT_CAINFO, string: caBundle)
        }
        hold(trustStore)
        if !options.validatesCertificates {
            set(CURLOPT_SSL_VERIFYPEER, 0)
            set(CURLOPT_SSL_VERIFYHOST, 0)
        }
        if let trust = transfer.trust { apply(trust) }
        if transfer.verboseLogger != nil || transfer.hostProbe != .none {
            set(CURLOPT_VERBOSE, 1)
            CurlCheck.easy(salvo_easy_setopt_debug_callback(handle, debugCallback), "curl_easy_setopt", CURLOPT_DEBUGFUNCTION.rawValue)
            set(CURLOPT_DEBUGDATA, pointer: context)
        }
        return true
    }

    /// The server's HTTP/2 stream limit from the line libcurl 7.88 logs when a transfer finds
    /// a connection it could join full by the server's `SETTINGS_MAX_CONCURRENT_STREAMS`:
    /// "MAX_CONCURRENT_STREAMS reached, skip (128)". The line for Salvo's own limit starts
    /// "client side" and says nothing of the server's; every other line is `nil`.
    package static func serverStreamLimit(inLogLine line: UnsafeRawBufferPointer) -> Int? {
        let marker = streamLimitMarker
        guard line.count > marker.count, line.starts(with: marker) else { return nil }
        var value = 0
        var digits = 0
        for byte in line[marker.count...] {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
                return byte == UInt8(ascii: ")") && digits > 0 && value > 0 ? value : nil
            }
            guard digits < 10 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return nil
    }

    /// Whether the TLS handshake's ALPN chose HTTP/2, from the line libcurl 7.88 logs right
    /// after the handshake ("ALPN: server accepted h2", "ALPN: server accepted http/1.1",
    /// "ALPN: server did not agree on a protocol. Uses default."); `nil` for every other line.
    /// It comes before the response, which a slow answer could hold back for long.
    package static func negotiatedHTTP2(inLogLine line: UnsafeRawBufferPointer) -> Bool? {
        if line.starts(with: alpnAccepted) {
            let rest = line[alpnAccepted.count...]
            return rest.starts(with: alpnHTTP2) && (rest.count == 2 || rest[rest.startIndex + 2] == 0x0A || rest[rest.startIndex + 2] == 0x0D)
        }
        return line.starts(with: alpnRefused) ? false : nil
    }

    // Made once: a probe's debug callback sees every line libcurl logs for it.
    private static let streamLimitMarker = Array("MAX_CONCURRENT_STREAMS reached, skip (".utf8)
    private static let alpnAccepted = Array("ALPN: server accepted ".utf8)
    private static let alpnHTTP2 = Array("h2".utf8)
    private static let alpnRefused = Array("ALPN: server did not agree".utf8)

    /// The most header-block storage a pooled handle keeps between transfers.
    package static let headerBlockKeptCapacity = 64 * 1024

    /// The profile of a plain transfer, or `nil` when the transfer sets anything more.
    private static func plainProfile(of transfer: Transfer, priorKnowledge: Bool, trustStore: UnsafeMutableRawPointer?) -> PlainProfile? {
        guard transfer.method == "GET", transfer.body == nil, transfer.bodySource == nil,
              transfer.progress == nil, transfer.credential == nil, transfer.verboseLogger == nil, transfer.hostProbe == .none,
              transfer.usesCookies,
              transfer.cookieHeader == nil,
              transfer.proxy == nil, transfer.noProxy == nil,
              transfer.resourceTimeout == nil, transfer.trust == nil else { return nil }
        // A stream's sink pauses the transfer when its consumer lags: those always reset.
        let toFile = transfer.fileSink != nil
        guard transfer.sink == nil || toFile else { return nil }
        return PlainProfile(headers: transfer.headers.list, idleTimeout: transfer.idleTimeoutNanoseconds, priorKnowledge: priorKnowledge,
                            toFile: toFile, isHTTPS: transfer.isHTTPS, trustStore: trustStore)
    }

    /// Server trust evaluation's checks, over the session's.
    private func apply(_ trust: TLSTrust) {
        set(CURLOPT_SSL_VERIFYPEER, trust.verifiesChain ? 1 : 0)
        set(CURLOPT_SSL_VERIFYHOST, trust.verifiesHost ? 2 : 0)
        if let anchors = trust.anchorsPEM {
            // Only these anchors: libcurl would load the file and directory as well.
            CurlCheck.easy(salvo_easy_setopt_string(handle, CURLOPT_CAINFO, nil), "curl_easy_setopt", CURLOPT_CAINFO.rawValue)
            CurlCheck.easy(salvo_easy_setopt_string(handle, CURLOPT_CAPATH, nil), "curl_easy_setopt", CURLOPT_CAPATH.rawValue)
            let code = anchors.utf8CString.withUnsafeBufferPointer { text in
                salvo_easy_setopt_blob(handle, CURLOPT_CAINFO_BLOB, text.baseAddress, text.count - 1)
            }
            CurlCheck.easy(code, "curl_easy_setopt", CURLOPT_CAINFO_BLOB.rawValue)
        }
        if let pins = trust.pinnedPublicKeys { set(CURLOPT_PINNEDPUBLICKEY, string: pins) }
        if trust.requiresStapledStatus {
            set(CURLOPT_SSL_VERIFYSTATUS, 1)
            // A resumed TLS session carries no stapled response (libcurl 7.88), so every
            // handshake that must show one is a full one.
            set(CURLOPT_SSL_SESSIONID_CACHE, 0)
        }
    }

    private func setBody(_ body: Data) {
        set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
        if body.isEmpty {
            // COPYPOSTFIELDS: libcurl keeps its own (empty) copy; a temporary C string would dangle.
            set(CURLOPT_COPYPOSTFIELDS, string: "")
        } else {
            // COPYPOSTFIELDS: libcurl keeps its own copy, so the Data need not outlive this call.
            body.withUnsafeBytes { raw in
                CurlCheck.easy(salvo_easy_setopt_ptr(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress)),
                               "curl_easy_setopt", CURLOPT_COPYPOSTFIELDS.rawValue)
            }
        }
    }

    /// Reads what the request layer needs from a finished handle.
    func outcome(of transfer: Transfer, code: CURLcode, error: CurlError?) -> TransferOutcome {
        let status = getLong(CURLINFO_RESPONSE_CODE)
        let version = Self.version(getLong(CURLINFO_HTTP_VERSION))
        var head: ResponseHead?
        if status > 0 {
            head = ResponseHead(
                statusCode: status,
                httpVersion: version?.text ?? "1.1",
                // Salvo follows redirects itself, so the URL asked for is the one answered.
                url: transfer.url,
                contentType: getString(CURLINFO_CONTENT_TYPE),
                redirectURL: (300...399).contains(status) ? getString(CURLINFO_REDIRECT_URL) : nil,
                rawHeaders: headerBytes(),
                mayHaveSetCookie: headerBlock.pointee.may_set_cookie != 0
            )
        }
        var metrics = TransferMetrics(
            nameLookup: Self.seconds(getOffset(CURLINFO_NAMELOOKUP_TIME_T)),
            connect: Self.seconds(getOffset(CURLINFO_CONNECT_TIME_T)),
            secureConnect: Self.seconds(getOffset(CURLINFO_APPCONNECT_TIME_T)),
            preTransfer: Self.seconds(getOffset(CURLINFO_PRETRANSFER_TIME_T)),
            firstByte: Self.seconds(getOffset(CURLINFO_STARTTRANSFER_TIME_T)),
            total: Self.seconds(getOffset(CURLINFO_TOTAL_TIME_T)),
            bytesReceived: getOffset(CURLINFO_SIZE_DOWNLOAD_T),
            bytesSent: getOffset(CURLINFO_SIZE_UPLOAD_T),
            connectionReused: getLong(CURLINFO_NUM_CONNECTS) == 0,
            redirectCount: getLong(CURLINFO_REDIRECT_COUNT)
        )
        metrics.setHTTPVersion(version)
        var failure = error
        if failure == nil && transfer.bodyLimitExceeded {
            failure = CurlError(code: Int(CURLE_FILESIZE_EXCEEDED.rawValue),
                                message: transfer.sink == nil
                                    ? "the response body passed the \(transfer.bodyLimit)-byte limit for a body held in memory "
                                        + "(TransportConfiguration.maximumResponseBodySize)"
                                    : "the stream passed its \(transfer.bodyLimit)-byte limit (TransportConfiguration.maximumStreamedBodySize)")
        } else if failure == nil && headerBlock.pointee.invalid_length != 0 {
            failure = CurlError(code: Int(CURLE_WEIRD_SERVER_REPLY.rawValue),
                                message: "the response's Content-Length is invalid: values that differ, or one that is not a 63-bit number")
        } else if failure == nil && headerBlock.pointee.too_large != 0 {
            failure = CurlError(code: Int(CURLE_WEIRD_SERVER_REPLY.rawValue),
                                message: "the response's header block passed \(SALVO_HEADER_BLOCK_LIMIT) bytes")
        } else if failure == nil && code == CURLE_OUT_OF_MEMORY && headerBlock.pointee.bytes_seen > 0 {
            // libcurl refuses a header line over 100 KiB this way: the server's fault, not memory.
            failure = CurlError(code: Int(CURLE_WEIRD_SERVER_REPLY.rawValue),
                                message: "the response's header is too large (\(String(cString: errorBuffer)))")
        } else if failure == nil, let reason = transfer.bodySource?.failure {
            // The read callback aborted because the body could not be read, not because
            // anyone cancelled.
            failure = CurlError(code: Int(CURLE_READ_ERROR.rawValue), message: "the request body could not be read: \(reason)")
        } else if failure == nil && code != CURLE_OK {
            failure = CurlError.from(code: code, detail: errorBuffer)
            if code == CURLE_WRITE_ERROR, let sink = transfer.fileSink {
                if let mismatch = sink.rangeMismatch {
                    let received = mismatch.received.map { "at byte \($0)" } ?? "without a Content-Range"
                    failure = CurlError(code: Int(CURLE_RANGE_ERROR.rawValue),
                                        message: "the server's 206 answer starts \(received), not at byte \(mismatch.expected) where the partial file ends")
                } else if sink.writeError != 0 {
                    failure = failure?.withWriteErrno(sink.writeError)
                }
            }
        }
        let body = transfer.received.takeData()
        return TransferOutcome(head: head, body: body, error: failure, metrics: metrics)
    }

    /// `"1.0"`, `"1.1"`, `"2"`, `"3"` for a `CURLINFO_HTTP_VERSION` value, `nil` for none.
    package static func version(_ version: Int) -> TransferMetrics.KnownVersion? {
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): return .http1_0
        case Int(CURL_HTTP_VERSION_1_1): return .http1_1
        case Int(CURL_HTTP_VERSION_2_0): return .http2
        case Int(CURL_HTTP_VERSION_3): return .http3
        default: return nil
        }
    }

    private static func milliseconds(_ interval: TimeInterval) -> Int {
        interval >= Double(Int.max / 1000) ? 0 : Int((interval * 1000).rounded(.up))
    }

    private static func seconds(_ microseconds: Int64) -> TimeInterval {
        TimeInterval(microseconds) / 1_000_000
    }
}
