import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Salvo

/// Freshness and storability as RFC 9111 has them, on fixed dates.
final class HTTPCacheRulesTests: XCTestCase {
    private let stored = Date(timeIntervalSince1970: 1_800_000_000)

    private func response(_ fields: [String: String], status: Int = 200) -> HTTPURLResponse {
        var fields = fields
        if fields["Date"] == nil { fields["Date"] = httpDate(stored) }
        return HTTPURLResponse(url: URL(string: "https://example.com/a")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)!
    }

    private func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    func testMaxAgeWinsOverExpiresAndCountsTheAgeHeader() {
        let fresh = response(["Cache-Control": "max-age=60", "Expires": httpDate(stored.addingTimeInterval(3600))])
        XCTAssertTrue(HTTPCacheRules.isFresh(fresh, storedAt: stored, now: stored.addingTimeInterval(59)))
        XCTAssertFalse(HTTPCacheRules.isFresh(fresh, storedAt: stored, now: stored.addingTimeInterval(61)))
        let aged = response(["Cache-Control": "max-age=60", "Age": "50"])
        XCTAssertFalse(HTTPCacheRules.isFresh(aged, storedAt: stored, now: stored.addingTimeInterval(11)))
    }

    func testExpiresAndTheLastModifiedHeuristic() {
        let expires = response(["Expires": httpDate(stored.addingTimeInterval(100))])
        XCTAssertTrue(HTTPCacheRules.isFresh(expires, storedAt: stored, now: stored.addingTimeInterval(99)))
        XCTAssertFalse(HTTPCacheRules.isFresh(response(["Expires": "0"]), storedAt: stored, now: stored))
        // Changed 1,000 s before it was served: fresh for 100 s.
        let modified = response(["Last-Modified": httpDate(stored.addingTimeInterval(-1000))])
        XCTAssertTrue(HTTPCacheRules.isFresh(modified, storedAt: stored, now: stored.addingTimeInterval(99)))
        XCTAssertFalse(HTTPCacheRules.isFresh(modified, storedAt: stored, now: stored.addingTimeInterval(101)))
        XCTAssertFalse(HTTPCacheRules.isFresh(response(["ETag": "\"x\""]), storedAt: stored, now: stored))
    }

    func testNoCacheIsNeverFresh() {
        XCTAssertFalse(HTTPCacheRules.isFresh(response(["Cache-Control": "no-cache, max-age=600"]), storedAt: stored, now: stored))
    }

    func testWhatMayBeStored() {
        XCTAssertTrue(HTTPCacheRules.isStorable(response(["Cache-Control": "max-age=60"])))
        XCTAssertTrue(HTTPCacheRules.isStorable(response(["ETag": "\"x\""])))
        XCTAssertTrue(HTTPCacheRules.isStorable(response(["Cache-Control": "max-age=60"], status: 404)))
        XCTAssertFalse(HTTPCacheRules.isStorable(response([:])), "nothing to reuse it by")
        XCTAssertFalse(HTTPCacheRules.isStorable(response(["Cache-Control": "no-store, max-age=60"])))
        XCTAssertFalse(HTTPCacheRules.isStorable(response(["Cache-Control": "max-age=60", "Vary": "*"])))
        XCTAssertFalse(HTTPCacheRules.isStorable(response(["Cache-Control": "max-age=60"], status: 500)))
    }

    func testWhatTheRequestAsks() {
        XCTAssertTrue(HTTPCacheRules.requestWantsRevalidation(["Cache-Control": "no-cache"]))
        XCTAssertTrue(HTTPCacheRules.requestWantsRevalidation(["Cache-Control": "max-age=0"]))
        XCTAssertTrue(HTTPCacheRules.requestWantsRevalidation(["Pragma": "no-cache"]))
        XCTAssertFalse(HTTPCacheRules.requestWantsRevalidation(["Cache-Control": "max-age=30"]))
        XCTAssertTrue(HTTPCacheRules.requestForbidsStoring(["Cache-Control": "no-store"]))
        XCTAssertTrue(HTTPCacheRules.isConditional(["If-None-Match": "\"x\""]))
        XCTAssertEqual(HTTPCacheRules.directives(#"max-age="60", private"#)["max-age"], "60")
    }
}
