import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
@testable import Salvo

/// Which stored cookies go with a request: the storage matches the host, and the session
/// applies the rest of RFC 6265 (secure, expiry, path).
final class SessionCookiesTests: XCTestCase {
    private func cookie(_ name: String, path: String = "/", secure: Bool = false, expires: Date? = nil) -> HTTPCookie {
        var properties: [HTTPCookiePropertyKey: Any] = [.domain: "example.com", .path: path, .name: name, .value: "1"]
        if secure { properties[.secure] = "TRUE" }
        if let expires { properties[.expires] = expires }
        return HTTPCookie(properties: properties)!
    }

    private func header(_ url: String, _ cookies: [HTTPCookie], at now: Date = Date()) -> String? {
        let storage = URLSessionConfiguration.ephemeral.httpCookieStorage!
        for cookie in cookies { storage.setCookie(cookie) }
        return SessionCookies(storage: storage).header(for: URL(string: url)!, now: now)
    }

    func testASecureCookieGoesOverHTTPSOnly() {
        let cookies = [cookie("plain"), cookie("secret", secure: true)]
        XCTAssertEqual(header("http://example.com/", cookies), "plain=1")
        XCTAssertEqual(header("https://example.com/", cookies).map { Set($0.components(separatedBy: "; ")) }, ["plain=1", "secret=1"])
    }

    /// Judged when the request goes: the storage drops a cookie that is already expired as it
    /// takes it, so the cookie here expires while stored.
    func testACookieThatExpiredWhileStoredIsNotSent() {
        let expiring = [cookie("soon", expires: Date(timeIntervalSinceNow: 3600))]
        XCTAssertEqual(header("http://example.com/", expiring), "soon=1")
        XCTAssertNil(header("http://example.com/", expiring, at: Date(timeIntervalSinceNow: 7200)))
    }

    func testACookieGoesToItsPathAndBelowLongerPathsFirst() {
        let cookies = [cookie("root"), cookie("api", path: "/api")]
        XCTAssertEqual(header("http://example.com/api/users", cookies), "api=1; root=1")
        XCTAssertEqual(header("http://example.com/api", cookies), "api=1; root=1")
        XCTAssertEqual(header("http://example.com/apis", cookies), "root=1")
        XCTAssertEqual(header("http://example.com/", cookies), "root=1")
        XCTAssertTrue(SessionCookies.path("/a/b", matches: "/a/"))
        XCTAssertFalse(SessionCookies.path("/ab", matches: "/a"))
    }

    func testAnotherHostGetsNothing() {
        XCTAssertNil(header("http://other.example/", [cookie("a")]))
    }
}
