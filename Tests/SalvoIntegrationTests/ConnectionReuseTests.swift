import Foundation
import Synchronization
import XCTest
import Salvo
import SalvoTestSupport

/// How many connections a run of requests opens, counted by nginx (`stub_status`): as many as
/// requests in flight over HTTP/1.1, plain or TLS; one over HTTP/2; no more than the server's
/// stream limit calls for; and a reconnect resumes the TLS session.
final class ConnectionReuseTests: XCTestCase {
    /// Sends `total` GETs of `url`, keeping `inFlight` of them outstanding (each answer sends
    /// the next, as a server under steady load does); returns how many failed, with the first
    /// failure.
    private func run(_ session: Session, _ url: URL, total: Int, inFlight: Int) -> (failures: Int, first: AFError?) {
        let sent = Atomic<Int>(0)
        let failures = Mutex<(count: Int, first: AFError?)>((0, nil))
        let done = expectation(description: "all answered")
        done.expectedFulfillmentCount = total
        @Sendable func sendNext() {
            guard sent.add(1, ordering: .relaxed).newValue <= total else { return }
            session.request(url).validate().responseData(queue: .global()) { response in
                if let error = response.error {
                    failures.withLock { state in
                        state.count += 1
                        if state.first == nil { state.first = error }
                    }
                }
                done.fulfill()
                sendNext()
            }
        }
        for _ in 0..<inFlight { sendNext() }
        wait(for: [done], timeout: 300)
        return failures.withLock { ($0.count, $0.first) }
    }

    /// Runs `bursts` runs of `total` GETs of `url` at `inFlight` (with `pause` seconds between
    /// them), checks that none failed, and returns the connections nginx accepted meanwhile
    /// (its own status reads not counted).
    private func connectionsOpened(_ session: Session, _ url: URL, total: Int, inFlight: Int, bursts: Int = 1,
                                   pause: TimeInterval = 0, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let before = try TestServers.shared.nginxAcceptedConnections()
        for burst in 0..<bursts {
            if burst > 0 { Thread.sleep(forTimeInterval: pause) }
            let result = run(session, url, total: total, inFlight: inFlight)
            XCTAssertEqual(result.failures, 0, String(describing: result.first), file: file, line: line)
        }
        let after = try TestServers.shared.nginxAcceptedConnections()
        return after - before - 1
    }

    private func session(inFlight: Int, _ httpVersion: HTTPVersionPolicy = .automatic, tls: Bool) throws -> Session {
        let transport = TransportConfiguration(httpVersion: httpVersion, caBundlePath: tls ? try TestServers.shared.tlsCABundle : nil)
        return testSession({ $0.httpMaximumConnectionsPerHost = inFlight }, transport: transport)
    }

    /// 2,000 requests at 8 in flight over plain HTTP/1.1 take 8 connections, also across a
    /// 2 s pause between two bursts: libcurl keeps every idle connection the session may use.
    func testHTTP1KeepsOneConnectionPerRequestInFlight() throws {
        let session = try session(inFlight: 8, tls: false)
        let opened = try connectionsOpened(session, try TestServers.shared.url(.nginx, "/small"), total: 1000, inFlight: 8,
                                           bursts: 2, pause: 2)
        XCTAssertEqual(opened, 8)
    }

    /// The same over TLS with HTTP/1.1: 8 connections, 8 handshakes.
    func testHTTP1OverTLSKeepsOneConnectionPerRequestInFlight() throws {
        let session = try session(inFlight: 8, .http1_1, tls: true)
        XCTAssertEqual(try connectionsOpened(session, try TestServers.shared.url(.nginxTLS, "/small"), total: 2000, inFlight: 8), 8)
    }

    /// HTTPS where ALPN picks HTTP/2: the first request finds out, the others then go as
    /// streams of its one connection.
    func testHTTP2OverTLSUsesOneConnection() throws {
        let session = try session(inFlight: 64, tls: true)
        XCTAssertEqual(try connectionsOpened(session, try TestServers.shared.url(.nginxTLS, "/small"), total: 2000, inFlight: 64), 1)
    }

    /// A server allowing 4 streams per connection, 16 requests in flight: at most
    /// ceil(16 / 4) connections. libcurl 7.88 alone opens one for nearly every request above
    /// the limit; Salvo finds the limit and keeps the rest in its queue.
    func testHTTP2RequestsBeyondTheServersStreamLimitWaitForAStream() throws {
        let session = try session(inFlight: 16, tls: true)
        let opened = try connectionsOpened(session, try TestServers.shared.url(.nginxTLSFewStreams, "/small"), total: 1000, inFlight: 16)
        XCTAssertGreaterThanOrEqual(opened, 1)
        XCTAssertLessThanOrEqual(opened, 4)
    }

    /// New connections to a server the session spoke to resume its TLS session, also from a
    /// handle that never connected before: the session's handles share their TLS sessions.
    func testANewConnectionResumesTheTLSSessionFromAnyHandle() throws {
        let lines = Collector<String>()
        let transport = TransportConfiguration(httpVersion: .http1_1, caBundlePath: try TestServers.shared.tlsCABundle,
                                               verboseLogger: { lines.append($0) })
        let session = testSession(transport: transport)
        let url = try TestServers.shared.url(.nginxTLS, "/small")
        // "Connection: close" makes nginx close each connection after its answer. The first
        // request's handle learns the TLS session; of the next two, sent together, one takes
        // that handle again and the other a new one.
        XCTAssertNil(awaitData(session.request(url, headers: ["Connection": "close"]).validate()).error)
        let both = expectation(description: "both")
        both.expectedFulfillmentCount = 2
        for _ in 0..<2 {
            session.request(url, headers: ["Connection": "close"]).validate().responseData(queue: .global()) { response in
                XCTAssertNil(response.error)
                XCTAssertEqual(response.metrics?.connectionReused, false)
                both.fulfill()
            }
        }
        wait(for: [both], timeout: 30)
        // The logger runs on its own queue: wait for both handshakes' lines.
        let resumed = { lines.values.filter { $0.contains("SSL re-using session ID") }.count }
        let deadline = Date().addingTimeInterval(10)
        while resumed() < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(resumed(), 2, lines.values.joined())
    }

    /// Sessions with different anchors verify against different stores: the one given the
    /// run's CA reaches the server, the one left with the system's does not, in any order.
    func testSessionsWithDifferentAnchorsNeverShareAStore() throws {
        let url = try TestServers.shared.url(.nginxTLS, "/small")
        let trusting = try session(inFlight: 4, .http1_1, tls: true)
        let untrusting = testSession(transport: TransportConfiguration(httpVersion: .http1_1))
        for _ in 0..<3 {
            XCTAssertNil(awaitData(trusting.request(url).validate()).error)
            XCTAssertEqual(urlErrorCode(awaitData(untrusting.request(url)).error), .serverCertificateUntrusted)
        }
    }

    /// The first HTTPS request to a host finds out its protocol from the handshake, not from
    /// its answer: a first request the server holds back does not hold back the others.
    func testASlowFirstAnswerDoesNotHoldBackTheHostsOtherRequests() throws {
        // nginx's /throttled answers one request every 2 s: after this one, the next waits.
        let primer = try session(inFlight: 1, tls: false)
        XCTAssertEqual(awaitData(primer.request(try TestServers.shared.url(.nginx, "/throttled"))).response?.statusCode, 200)
        let session = try session(inFlight: 8, tls: true)
        let order = Collector<String>()
        let both = expectation(description: "both")
        both.expectedFulfillmentCount = 2
        session.request(try TestServers.shared.url(.nginxTLS, "/throttled")).validate().responseData(queue: .global()) { response in
            XCTAssertNil(response.error)
            order.append("held back")
            both.fulfill()
        }
        session.request(try TestServers.shared.url(.nginxTLS, "/small")).validate().responseData(queue: .global()) { response in
            XCTAssertNil(response.error)
            order.append("small")
            both.fulfill()
        }
        wait(for: [both], timeout: 30)
        XCTAssertEqual(order.values, ["small", "held back"])
    }
}
