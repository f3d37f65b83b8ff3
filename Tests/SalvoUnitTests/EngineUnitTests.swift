import XCTest
@testable import Salvo
@testable import SalvoEngine

/// The engine's pure parts, without sockets.
final class EngineUnitTests: XCTestCase {
    func testCurlCodesMapToURLSessionErrors() {
        let expected: [(Int, URLError.Code)] = [
            (6, .cannotFindHost), (7, .cannotConnectToHost), (28, .timedOut), (35, .secureConnectionFailed),
            (60, .serverCertificateUntrusted), (52, .networkConnectionLost), (56, .networkConnectionLost),
            (18, .networkConnectionLost), (8, .badServerResponse), (42, .cancelled), (3, .badURL), (1, .unsupportedURL),
            (47, .httpTooManyRedirects), (61, .cannotDecodeContentData), (65, .requestBodyStreamExhausted),
            (26, .cannotLoadFromNetwork), (23, .cannotWriteToFile),
        ]
        for (code, urlCode) in expected {
            XCTAssertEqual(CurlError.urlErrorCode(for: code), urlCode, "curl code \(code)")
        }
        XCTAssertEqual(CurlError.urlErrorCode(for: 1, message: "Received HTTP/0.9 when not allowed"), .badServerResponse)
        // libcurl 7.88 with OpenSSL 3.0, against an expired certificate (checked by hand with
        // `openssl ca -enddate` and `openssl s_server`): curl: (60) and this text.
        XCTAssertEqual(CurlError.urlErrorCode(for: 60, message: "SSL certificate problem: certificate has expired"), .serverCertificateHasBadDate)
        XCTAssertEqual(CurlError.urlErrorCode(for: 60, message: "SSL certificate problem: certificate is not yet valid"),
                       .serverCertificateNotYetValid)
        XCTAssertEqual(CurlError.urlErrorCode(for: 60, message: "SSL certificate problem: self-signed certificate"), .serverCertificateUntrusted)
        let error = CurlError(code: 7, message: "Failed to connect")
        XCTAssertEqual(error.urlError.code, .cannotConnectToHost)
        XCTAssertEqual(error.urlError.userInfo["SalvoCurlCode"] as? Int, 7)
        XCTAssertEqual(error.description, "curl: (7) Failed to connect")
    }

    private final class Item: HostQueueMember {
        var hostProbe = HostProbe.none
    }

    func testHostQueueAdmitsUpToTheLimitAndHandsOverInOrder() {
        var queue = HostQueue<Item>(connectionsPerHost: 2, totalLimit: 0)
        let items = (0..<5).map { _ in Item() }
        let host: Substring = "http://a:80"
        XCTAssertTrue(queue.admit(items[0], host: host))
        XCTAssertTrue(queue.admit(items[1], host: host))
        XCTAssertFalse(queue.admit(items[2], host: host))
        XCTAssertFalse(queue.admit(items[3], host: host))
        XCTAssertTrue(queue.admit(Item(), host: "http://b:80"), "another host has its own limit")
        XCTAssertEqual(queue.totalWaiting, 2)
        XCTAssertTrue(queue.remove(items[2], host: host), "a cancelled waiter leaves the queue")
        let next = queue.finish(host: host)
        XCTAssertEqual(next.count, 1)
        XCTAssertTrue(next.first === items[3])
        XCTAssertEqual(queue.finish(host: host).count, 0)
        XCTAssertEqual(queue.totalWaiting, 0)
    }

    func testHostQueueTotalLimitAndMultiplexing() {
        var queue = HostQueue<Item>(connectionsPerHost: 1, totalLimit: 2, streamsPerConnection: 3)
        let a: Substring = "http://a:80", b: Substring = "http://b:80"
        XCTAssertTrue(queue.admit(Item(), host: a))
        XCTAssertTrue(queue.admit(Item(), host: b))
        let waiting = Item()
        XCTAssertFalse(queue.admit(waiting, host: b), "total limit reached")
        // A finishes: the total limit frees a slot, but b's own limit (1) still holds it back.
        XCTAssertEqual(queue.finish(host: a).count, 0)
        // b turns out to speak HTTP/2: up to 3 streams on its one connection.
        let ready = queue.finish(host: b, multiplexed: true)
        XCTAssertTrue(ready.first === waiting)
        var h2c = HostQueue<Item>(connectionsPerHost: 6, totalLimit: 0, streamsPerConnection: 2)
        XCTAssertTrue(h2c.admit(Item(), host: a, singleConnection: true))
        XCTAssertTrue(h2c.admit(Item(), host: a, singleConnection: true))
        XCTAssertFalse(h2c.admit(Item(), host: a, singleConnection: true), "one prior-knowledge connection's streams")
    }

    /// The host used last is kept apart from the others; switching between hosts must keep
    /// every host's counts and waiters.
    func testHostQueueKeepsEachHostsStateWhenHostsAlternate() {
        var queue = HostQueue<Item>(connectionsPerHost: 1, totalLimit: 0)
        let a: Substring = "http://a:80", b: Substring = "http://b:80", c: Substring = "http://c:80"
        let waitingA = Item(), waitingB = Item(), lateA = Item()
        XCTAssertTrue(queue.admit(Item(), host: a))
        XCTAssertTrue(queue.admit(Item(), host: b))
        XCTAssertFalse(queue.admit(waitingA, host: a))
        XCTAssertFalse(queue.admit(waitingB, host: b))
        XCTAssertTrue(queue.admit(Item(), host: c))
        XCTAssertEqual(queue.finish(host: c).count, 0, "c is idle now")
        XCTAssertTrue(queue.finish(host: a).first === waitingA)
        XCTAssertTrue(queue.finish(host: b).first === waitingB)
        XCTAssertTrue(queue.admit(Item(), host: c), "an idle host met again starts afresh")
        XCTAssertFalse(queue.admit(lateA, host: a), "a's waiter holds a's one connection")
        XCTAssertEqual(queue.finish(host: "http://unknown:80").count, 0)
        XCTAssertFalse(queue.remove(Item(), host: b), "not waiting")
        XCTAssertEqual(queue.totalActive, 3)
        XCTAssertEqual(queue.totalWaiting, 1)
        let left = queue.removeAllWaiting()
        XCTAssertEqual(left.count, 1)
        XCTAssertTrue(left.first === lateA)
    }

    /// A host that may speak HTTP/2 gets one transfer until its protocol is known; over HTTP/2
    /// each step above the streams seen to work goes alone, until the server's limit shows.
    func testHostQueueProbesAHostsProtocolAndStreamLimit() {
        var queue = HostQueue<Item>(connectionsPerHost: 16, totalLimit: 0, streamsPerConnection: 10, probesStreamLimits: true)
        let host: Substring = "https://a:443"
        let items = (0..<16).map { _ in Item() }
        XCTAssertEqual(items.map { queue.admit($0, host: host, mayMultiplex: true) }, [true] + Array(repeating: false, count: 15))
        XCTAssertEqual(items[0].hostProbe, .protocolProbe)
        // The first answer's head says HTTP/2: one stream probe goes.
        var ready = queue.learn(host: host, multiplexed: true)
        XCTAssertEqual(ready.count, 1)
        XCTAssertEqual(ready.first?.hostProbe, .streamProbe)
        // It joined the connection and its answer began: the next step goes.
        ready = queue.settle(host: host, .joined)
        XCTAssertEqual(ready.map(\.hostProbe), [.streamProbe])
        // The server's limit (3) stopped the third: no more until streams end.
        XCTAssertEqual(queue.settle(host: host, .limited(3)).count, 0)
        XCTAssertEqual(queue.totalActive, 3)
        XCTAssertEqual(queue.admit(Item(), host: host, mayMultiplex: true), false)
        ready = queue.finish(host: host, multiplexed: true)
        XCTAssertEqual(ready.map(\.hostProbe), [.none], "a stream ended, one goes; the limit is known: no more probes")
        XCTAssertEqual(queue.totalActive, 3)
    }

    /// A stream probe that ended before its answer began teaches nothing: the same step goes
    /// out as a probe again.
    func testHostQueueLearnsNothingFromAStreamProbeThatEndedBeforeItsAnswer() {
        var queue = HostQueue<Item>(connectionsPerHost: 16, totalLimit: 0, streamsPerConnection: 10, probesStreamLimits: true)
        let host: Substring = "https://a:443"
        for item in (0..<4).map({ _ in Item() }) { _ = queue.admit(item, host: host, mayMultiplex: true) }
        var ready = queue.learn(host: host, multiplexed: true)
        XCTAssertEqual(ready.map(\.hostProbe), [.streamProbe])
        // The probe ends without an answer: it is still unsettled, so nothing else goes.
        XCTAssertEqual(queue.finish(host: host, multiplexed: nil).count, 0)
        ready = queue.settle(host: host, .inconclusive)
        XCTAssertEqual(ready.map(\.hostProbe), [.streamProbe])
        XCTAssertEqual(queue.totalActive, 2)
    }

    /// Over HTTP/1.1 the first answer lets the rest go, one connection each up to the limit.
    func testHostQueueLetsAnHTTP1HostsTransfersGoOnceItsProtocolIsKnown() {
        var queue = HostQueue<Item>(connectionsPerHost: 4, totalLimit: 0, streamsPerConnection: 10, probesStreamLimits: true)
        let host: Substring = "https://a:443"
        let items = (0..<6).map { _ in Item() }
        XCTAssertEqual(items.map { queue.admit($0, host: host, mayMultiplex: true) }, [true, false, false, false, false, false])
        let ready = queue.learn(host: host, multiplexed: false)
        XCTAssertEqual(ready.count, 3)
        XCTAssertTrue(ready.allSatisfy { $0.hostProbe == .none })
    }

    /// A protocol probe that ends without an answer does not make the rest go one by one:
    /// they go at once, up to the host's connections.
    func testHostQueueLetsTheRestGoWhenTheProtocolProbeGetsNoAnswer() {
        var queue = HostQueue<Item>(connectionsPerHost: 4, totalLimit: 0, streamsPerConnection: 10, probesStreamLimits: true)
        let host: Substring = "https://a:443"
        let items = (0..<6).map { _ in Item() }
        XCTAssertEqual(items.map { queue.admit($0, host: host, mayMultiplex: true) }, [true, false, false, false, false, false])
        XCTAssertEqual(queue.finish(host: host, multiplexed: nil).count, 4)
    }

    /// The text libcurl 7.88 logs right after a handshake, saying what ALPN chose.
    func testALPNsChoiceIsReadFromLibcurlsLogLine() {
        func http2(_ line: String) -> Bool? {
            Array(line.utf8).withUnsafeBytes { CurlEasy.negotiatedHTTP2(inLogLine: $0) }
        }
        XCTAssertEqual(http2("ALPN: server accepted h2\n"), true)
        XCTAssertEqual(http2("ALPN: server accepted http/1.1\n"), false)
        XCTAssertEqual(http2("ALPN: server accepted h2c\n"), false)
        XCTAssertEqual(http2("ALPN: server did not agree on a protocol. Uses default.\n"), false)
        XCTAssertNil(http2("ALPN: offers h2,http/1.1\n"))
        XCTAssertNil(http2("SSL connection using TLSv1.3\n"))
    }

    /// The text libcurl 7.88 logs when a stream probe meets the server's limit.
    func testTheServersStreamLimitIsReadFromLibcurlsLogLine() {
        func limit(_ line: String) -> Int? {
            Array(line.utf8).withUnsafeBytes { CurlEasy.serverStreamLimit(inLogLine: $0) }
        }
        XCTAssertEqual(limit("MAX_CONCURRENT_STREAMS reached, skip (128)\n"), 128)
        XCTAssertEqual(limit("MAX_CONCURRENT_STREAMS reached, skip (4)"), 4)
        XCTAssertNil(limit("client side MAX_CONCURRENT_STREAMS reached, skip (100)\n"))
        XCTAssertNil(limit("MAX_CONCURRENT_STREAMS reached, skip (0)\n"))
        XCTAssertNil(limit("MAX_CONCURRENT_STREAMS reached, skip (12a)\n"))
        XCTAssertNil(limit("MAX_CONCURRENT_STREAMS reached, skip (99999999999)\n"))
        XCTAssertNil(limit("Connection #0 to host 127.0.0.1 left intact\n"))
    }

    /// A host known to speak HTTP/2 stays known while idle, so a burst after a quiet spell
    /// goes out as streams at once instead of a connection's worth at a time; an answer
    /// without HTTP/2 takes that back.
    func testHostQueueRemembersAnIdleHostsHTTP2() {
        var queue = HostQueue<Item>(connectionsPerHost: 1, totalLimit: 0, streamsPerConnection: 4)
        let a: Substring = "https://a:443", b: Substring = "https://b:443"
        XCTAssertTrue(queue.admit(Item(), host: a))
        XCTAssertEqual(queue.finish(host: a, multiplexed: true).count, 0, "a is idle now, and known to multiplex")
        XCTAssertEqual((0..<5).map { _ in queue.admit(Item(), host: a) }, [true, true, true, true, false])
        for _ in 0..<4 { _ = queue.finish(host: a, multiplexed: true) }
        _ = queue.finish(host: a, multiplexed: true)
        // Idle again, and swapped out of the recent slot by another host.
        XCTAssertTrue(queue.admit(Item(), host: b))
        XCTAssertEqual(queue.finish(host: b, multiplexed: false).count, 0)
        XCTAssertEqual((0..<5).map { _ in queue.admit(Item(), host: a) }, [true, true, true, true, false])
        XCTAssertEqual((0..<2).map { _ in queue.admit(Item(), host: b) }, [true, false], "b speaks HTTP/1.1")
        // a answers without HTTP/2 (a new server behind the name): its limit is one connection again.
        for _ in 0..<5 { _ = queue.finish(host: a, multiplexed: false) }
        XCTAssertEqual(queue.totalActive, 1, "b's one transfer")
        _ = queue.finish(host: b)
        _ = queue.finish(host: b)
        XCTAssertEqual((0..<2).map { _ in queue.admit(Item(), host: a) }, [true, false])
    }

    /// The main queue is told apart from others whatever was asked before, though each
    /// `DispatchQueue.main` access makes a new wrapper on Linux.
    func testIsMainQueueWhateverWasAskedBefore() {
        let queue = DispatchQueue(label: "test.not-main")
        for _ in 0..<3 {
            XCTAssertFalse(queue.isMainQueue)
            XCTAssertFalse(queue.isMainQueue, "remembered")
            XCTAssertTrue(DispatchQueue.main.isMainQueue)
            XCTAssertFalse(DispatchQueue.global().isMainQueue)
            XCTAssertTrue(DispatchQueue.main.isMainQueue)
        }
    }

    /// A download whose write the system refuses (here `/dev/full`: ENOSPC) reports why, not
    /// only libcurl's "Failure writing output".
    func testAFailedWriteKeepsTheSystemsReason() throws {
        let sink = try ResponseFileSink.append(to: "/dev/full")
        defer { sink.close() }
        let written = withUnsafeBytes(of: UInt64(7)) { sink.write($0.baseAddress!, $0.count) }
        XCTAssertEqual(written, 0, "libcurl must see the write fail")
        XCTAssertEqual(sink.writeError, ENOSPC)
        let error = CurlError(code: 23, message: "Failure writing output to destination").withWriteErrno(sink.writeError)
        XCTAssertEqual(error.urlError.code, .cannotWriteToFile)
        XCTAssertEqual(error.message, "Failure writing output to destination: No space left on device (errno \(ENOSPC))")
        XCTAssertEqual(CurlError.systemMessage(for: EACCES), "Permission denied")
        XCTAssertTrue(CurlError.systemMessage(for: 9999).contains("9999"), CurlError.systemMessage(for: 9999))
    }

    /// Only a strong ETag or Last-Modified guards a resumed range (RFC 9110: a client must not
    /// send a weak ETag in If-Range).
    func testResumeDataNeedsAValidatorThatCanGuardARange() throws {
        // A partial file where Salvo keeps them (resume data naming anything else is refused).
        let partialFile = try PrivateTemporaryDirectory.folder("downloads").appendingPathComponent("none.partial").path
        func resume(etag: String?, lastModified: String?) -> DownloadResumeData {
            DownloadResumeData(url: "http://a.example/f", bytes: 10, partialFile: partialFile, etag: etag, lastModified: lastModified)
        }
        XCTAssertEqual(resume(etag: "\"s\"", lastModified: "Mon, 30 Nov 2026 10:00:00 GMT").ifRange, "\"s\"")
        XCTAssertEqual(resume(etag: "W/\"w\"", lastModified: "Mon, 30 Nov 2026 10:00:00 GMT").ifRange, "Mon, 30 Nov 2026 10:00:00 GMT")
        XCTAssertNil(resume(etag: "W/\"w\"", lastModified: nil).ifRange)
        XCTAssertThrowsError(try DownloadResumeData(resume(etag: "W/\"w\"", lastModified: nil).encoded))
        XCTAssertNoThrow(try DownloadResumeData(resume(etag: "W/\"w\"", lastModified: "x").encoded))
    }

    /// `TransferMetrics.httpVersion` keeps any text a caller sets, and equal texts compare
    /// equal, though the metrics store a number.
    func testTransferMetricsKeepTheirHTTPVersionText() {
        for text in [nil, "1.0", "1.1", "2", "3", "HTTP/9", "0.9"] as [String?] {
            var metrics = TransferMetrics(httpVersion: text)
            XCTAssertEqual(metrics.httpVersion, text)
            XCTAssertEqual(metrics, TransferMetrics(httpVersion: text))
            metrics.httpVersion = "2"
            XCTAssertEqual(metrics.httpVersion, "2")
            XCTAssertTrue(metrics.isHTTP2)
        }
        XCTAssertNotEqual(TransferMetrics(httpVersion: "HTTP/9"), TransferMetrics(httpVersion: "0.9"))
        XCTAssertNotEqual(TransferMetrics(httpVersion: "1.1"), TransferMetrics(httpVersion: nil))
        var fromCurl = TransferMetrics()
        fromCurl.setHTTPVersion(.http1_1)
        XCTAssertEqual(fromCurl, TransferMetrics(httpVersion: "1.1"))
    }
}
