import XCTest
@testable import Salvo
@testable import SalvoBulk

/// Redirects of a bulk file, followed by the downloader itself on the engine: to `http` and
/// `https` only, at most sixteen, and an entry's credentials never carried to another origin;
/// and what goes out with each request: the entry's cookie on the jar's line, no header that
/// would split its line.
final class BulkDownloadRedirectTests: XCTestCase {
    private func runOne(_ entry: BulkEntry, into output: URL) async -> (BulkDownloader.Summary, BulkEventLog) {
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(next: BulkDownloadFixtures.source([entry]), onEvent: log.record)
        return (summary, log)
    }

    private func redirect(to target: String) throws -> URL {
        var components = URLComponents(url: try TestServers.shared.url(.httpbin, "/redirect-to"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "url", value: target)]
        return try XCTUnwrap(components?.url)
    }

    func testARedirectedFileArrivesWhole() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = try TestServers.shared.url(.nginx, "/100k.bin").absoluteString
        let (summary, log) = await runOne(BulkEntry(uris: [try redirect(to: target)], outputName: "moved.bin"), into: output)
        XCTAssertEqual(summary.succeeded, 1, String(describing: log.results.first?.failureReason))
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("moved.bin")),
                       try Data(contentsOf: try TestServers.shared.docroot.appendingPathComponent("100k.bin")))
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["moved.bin"])
    }

    func testARedirectToAFileURLFailsWithoutAnotherAttempt() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (summary, log) = await runOne(BulkEntry(uris: [try redirect(to: "file:///etc/passwd")], outputName: "passwd"),
                                          into: output)
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(log.results.first?.attempts, 1)
        let reason = try XCTUnwrap(log.results.first?.failureReason)
        XCTAssertTrue(reason.contains("only http and https"), reason)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), [])
    }

    func testSixteenRedirectsAreFollowedAndSeventeenFail() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (followed, _) = await runOne(BulkEntry(uris: [try TestServers.shared.url(.httpbin, "/redirect/16")], outputName: "ok.json"),
                                         into: output)
        XCTAssertEqual(followed.succeeded, 1)
        let (tooMany, log) = await runOne(BulkEntry(uris: [try TestServers.shared.url(.httpbin, "/redirect/17")], outputName: "no.json"),
                                          into: output)
        XCTAssertEqual(tooMany.failed, 1)
        XCTAssertEqual(log.results.first?.attempts, 1, "too many redirects is not retried")
        let reason = try XCTUnwrap(log.results.first?.failureReason)
        XCTAssertTrue(reason.contains("16 redirects"), reason)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["ok.json"])
    }

    func testAnEntrysAuthorizationStaysWithItsOrigin() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sameOrigin = try TestServers.shared.url(.httpbin, "/headers").absoluteString
        // The same server under another name is another origin.
        let otherOrigin = sameOrigin.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        XCTAssertNotEqual(sameOrigin, otherOrigin)
        let headers: HTTPHeaders = [.authorization(bearerToken: "secret-token")]
        let (summary, log) = await runOne(BulkEntry(uris: [try redirect(to: sameOrigin)], outputName: "same.json", headers: headers),
                                          into: output)
        XCTAssertEqual(summary.succeeded, 1, String(describing: log.results.first?.failureReason))
        let (other, otherLog) = await runOne(BulkEntry(uris: [try redirect(to: otherOrigin)], outputName: "other.json",
                                                       headers: headers), into: output)
        XCTAssertEqual(other.succeeded, 1, String(describing: otherLog.results.first?.failureReason))

        func sentHeaders(_ name: String) throws -> [String: String] {
            let data = try Data(contentsOf: output.appendingPathComponent(name))
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try XCTUnwrap(object["headers"] as? [String: String])
        }
        XCTAssertEqual(try sentHeaders("same.json")["Authorization"], "Bearer secret-token")
        XCTAssertNil(try sentHeaders("other.json")["Authorization"])
        XCTAssertNotNil(try sentHeaders("other.json")["User-Agent"])
    }

    /// An entry's `Cookie` and the cookie jar's (set by a redirect on the way) go out on one
    /// line, as RFC 6265 asks, not two.
    func testAnEntrysCookieAndTheJarsShareOneLine() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let uri = try TestServers.shared.url(.fault, "/redirect?to=/raw-headers&cookie=jar%3D1")
        let (summary, log) = await runOne(BulkEntry(uris: [uri], outputName: "lines.json", headers: ["Cookie": "own=2"]),
                                          into: output)
        XCTAssertEqual(summary.succeeded, 1, String(describing: log.results.first?.failureReason))
        let data = try Data(contentsOf: output.appendingPathComponent("lines.json"))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let lines = try XCTUnwrap(object["lines"] as? [String])
        let cookies = lines.filter { $0.lowercased().hasPrefix("cookie:") }
        XCTAssertEqual(cookies.count, 1, "\(lines)")
        XCTAssertTrue(cookies.first?.contains("own=2") == true && cookies.first?.contains("jar=1") == true, "\(cookies)")
    }

    /// A header a library caller gives that cannot be sent as it is (a value with CR LF, which
    /// would smuggle a header line) fails the file at once, for good, with nothing sent.
    func testAHeaderThatWouldSplitItsLineFailsTheFile() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let entry = BulkEntry(uris: [try TestServers.shared.url(.nginx, "/small")], outputName: "small",
                              headers: ["X-Note": "a\r\nInjected: 1"])
        let (summary, log) = await runOne(entry, into: output)
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(log.results.first?.attempts, 1)
        let reason = try XCTUnwrap(log.results.first?.failureReason)
        XCTAssertTrue(reason.contains("X-Note"), reason)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), [])
    }
}
