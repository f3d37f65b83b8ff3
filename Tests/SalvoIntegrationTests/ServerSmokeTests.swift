import Foundation
import XCTest

/// Proves that each test server starts and answers, independently of Salvo:
/// requests go through `RawHTTPClient`, a plain socket. When one of these
/// fails, integration tests against that server cannot pass either; look
/// here first.
final class ServerSmokeTests: XCTestCase {
    func testHTTPBinEchoesAGet() throws {
        let response = try RawHTTPClient.get(try TestServers.shared.url(.httpbin, "/get?salvo=smoke"))

        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual(json["args"] as? [String: String], ["salvo": "smoke"])
    }

    func testNginxServesTheSmallFileOverHTTP11() throws {
        let expected = try Data(contentsOf: try TestServers.shared.docroot.appendingPathComponent("small"))

        let response = try RawHTTPClient.get(try TestServers.shared.url(.nginx, "/small"))

        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Length"), "100")
        XCTAssertEqual(Data(response.body), expected)
    }

    func testNginxServesJSONAndNoContent() throws {
        let json = try RawHTTPClient.get(try TestServers.shared.url(.nginx, "/json"))
        XCTAssertEqual(json.status, 200)
        XCTAssertEqual(json.header("Content-Type"), "application/json")
        XCTAssertEqual(json.bodyString, #"{"hello":"salvo","numbers":[1,2,3],"ok":true}"#)

        let empty = try RawHTTPClient.get(try TestServers.shared.url(.nginx, "/status/204"))
        XCTAssertEqual(empty.status, 204)
        XCTAssertEqual(empty.body, [])
    }

    func testNginxServesOverH2CWithPriorKnowledge() throws {
        let docroot = try TestServers.shared.docroot

        let small = try RawHTTPClient.getH2C(try TestServers.shared.url(.nginxH2C, "/small"))
        XCTAssertEqual(small.status, 200)
        XCTAssertEqual(Data(small.body), try Data(contentsOf: docroot.appendingPathComponent("small")))

        // Larger than HTTP/2's default 64 KiB window: the body arrives in
        // many DATA frames.
        let large = try RawHTTPClient.getH2C(try TestServers.shared.url(.nginxH2C, "/1m.bin"))
        XCTAssertEqual(large.status, 200)
        XCTAssertEqual(Data(large.body), try Data(contentsOf: docroot.appendingPathComponent("1m.bin")))
    }

    func testNginxServesTheLargeFileOnDemand() throws {
        let url = try TestServers.shared.largeFile()
        let file = try FileHandle(forReadingFrom: try TestServers.shared.docroot.appendingPathComponent("256m.bin"))
        defer { try? file.close() }
        try file.seek(toOffset: 200 * 1024 * 1024)
        let expected = try XCTUnwrap(try file.read(upToCount: 32))

        // A range from the middle: proves size and content without moving 256 MiB.
        let response = try RawHTTPClient.get(url, headers: ["Range": "bytes=209715200-209715231"])

        XCTAssertEqual(response.status, 206)
        XCTAssertEqual(response.header("Content-Range"), "bytes 209715200-209715231/268435456")
        XCTAssertEqual(Data(response.body), expected)
    }

    func testFaultServerFailsTwiceThenSucceeds() throws {
        let key = UUID().uuidString
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(key)")

        XCTAssertEqual(try RawHTTPClient.get(url).status, 503)
        XCTAssertEqual(try RawHTTPClient.get(url).status, 503)
        let success = try RawHTTPClient.get(url)
        XCTAssertEqual(success.status, 200)
        XCTAssertEqual(success.bodyString, #"{"key": "\#(key)", "attempt": 3}"#)

        let attempts = try RawHTTPClient.get(try TestServers.shared.url(.fault, "/attempts?key=\(key)"))
        XCTAssertEqual(attempts.bodyString, #"{"key": "\#(key)", "attempts": 3}"#)
    }
}
