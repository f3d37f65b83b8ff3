import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// The session's cookie jar against httpbin: what a response sets goes back to the same host,
/// also on the redirect that follows it, never to another host, and not at all when the
/// configuration or the request turns cookies off.
final class CookieTests: XCTestCase {
    /// The `cookies` object httpbin's `/cookies` echoes.
    private func echoedCookies(_ response: AFDataResponse<Data>) -> [String: String] {
        (json(response.data)["cookies"] as? [String: Any])?.compactMapValues { $0 as? String } ?? [:]
    }

    func testACookieSetByARedirectIsSentOnTheHopItLeadsTo() throws {
        let session = testSession()
        // httpbin answers /cookies/set with Set-Cookie and a 302 to /cookies.
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies/set?flavour=oat")).validate())
        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.url?.path, "/cookies")
        XCTAssertEqual(echoedCookies(response), ["flavour": "oat"])
    }

    /// Header names are compared ignoring case: the engine's quick look for a possible
    /// `Set-Cookie` line, which lets a response without one skip the store, must see it too.
    func testACookieSetUnderAMixedCaseHeaderNameIsKept() throws {
        let session = testSession()
        // httpbin sends each query item back as a header under the name as written.
        let setting = awaitData(session.request(try TestServers.shared.url(.httpbin, "/response-headers?SET-cookie=flavour%3Doat")).validate())
        XCTAssertNil(setting.error)
        let echoed = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies")).validate())
        XCTAssertEqual(echoedCookies(echoed), ["flavour": "oat"])
    }

    func testACookieIsNotSentToAnotherHost() throws {
        let session = testSession()
        _ = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies/set?flavour=oat")))
        let base = try TestServers.shared.httpbin
        XCTAssertEqual(base.host, "127.0.0.1")
        // The same server under another host name.
        let other = awaitData(session.request("http://localhost:\(base.port!)/cookies").validate())
        XCTAssertNil(other.error)
        XCTAssertEqual(echoedCookies(other), [:])
        let same = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies")).validate())
        XCTAssertEqual(echoedCookies(same), ["flavour": "oat"])
    }

    /// `URLRequest.httpShouldHandleCookies = false`: the jar neither sends its cookies with
    /// the request nor keeps the ones its response sets; other requests still use it.
    func testARequestThatTurnsCookiesOffNeitherSendsNorKeepsThem() throws {
        let session = testSession()
        _ = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies/set?flavour=oat")))
        var anonymous = URLRequest(url: try TestServers.shared.url(.httpbin, "/cookies"))
        anonymous.httpShouldHandleCookies = false
        let withoutJar = awaitData(session.request(anonymous).validate())
        XCTAssertNil(withoutJar.error)
        XCTAssertEqual(echoedCookies(withoutJar), [:], "the jar's cookie went with a request that turned cookies off")
        XCTAssertEqual(withoutJar.request?.httpShouldHandleCookies, false)

        var setting = URLRequest(url: try TestServers.shared.url(.httpbin, "/cookies/set?topping=salt"))
        setting.httpShouldHandleCookies = false
        _ = awaitData(session.request(setting))
        let after = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies")).validate())
        XCTAssertEqual(echoedCookies(after), ["flavour": "oat"], "a cookie set in answer to such a request was kept")
    }

    func testNoCookiesWhenTheConfigurationTurnsThemOff() throws {
        let session = testSession { $0.httpShouldSetCookies = false }
        _ = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies/set?flavour=oat")))
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies")).validate())
        XCTAssertNil(response.error)
        XCTAssertEqual(echoedCookies(response), [:])
    }

    /// The `Cookie` lines the fault server saw.
    private func cookieLines(_ response: AFDataResponse<Data>) -> [String] {
        ((json(response.data)["lines"] as? [String]) ?? []).filter { $0.lowercased().hasPrefix("cookie:") }
    }

    /// A caller's own `Cookie` header and the jar's cookies go on one line (RFC 6265 allows
    /// one), and the caller's cookie does not stay with the pooled handle for the next request.
    func testACallersCookieHeaderAndTheJarsCookiesShareOneLine() throws {
        let session = testSession { $0.httpMaximumConnectionsPerHost = 1 }
        let raw = try TestServers.shared.url(.fault, "/raw-headers")
        // Nothing in the jar yet: the caller's header alone.
        XCTAssertEqual(cookieLines(awaitData(session.request(raw, headers: ["Cookie": "own=1"]))), ["Cookie: own=1"])
        // httpbin and the fault server share 127.0.0.1, and cookies ignore the port.
        _ = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies/set?flavour=oat")))
        // libcurl writes the jar's cookies first, then the request's.
        XCTAssertEqual(cookieLines(awaitData(session.request(raw, headers: ["cookie": "own=1; more=2"]))),
                       ["Cookie: flavour=oat; own=1; more=2"])
        // The next request on the same handle sends the jar's cookie only.
        XCTAssertEqual(cookieLines(awaitData(session.request(raw))), ["Cookie: flavour=oat"])
        // Without the jar, the caller's header is sent as it is.
        let own = awaitData(session.request(raw, headers: ["Cookie": "own=1"]) { $0.httpShouldHandleCookies = false })
        XCTAssertEqual(cookieLines(own), ["Cookie: own=1"])
    }

    /// The session's own `Cookie` header joins the jar's line too; a request's own replaces
    /// it, as a request header replaces a session header of the same name; without the jar it
    /// is a line of its own.
    func testASessionCookieHeaderSharesTheJarsLine() throws {
        let session = testSession { $0.httpAdditionalHeaders = ["Cookie": "session=1"] }
        let raw = try TestServers.shared.url(.fault, "/raw-headers")
        XCTAssertEqual(cookieLines(awaitData(session.request(raw))), ["Cookie: session=1"])
        _ = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies/set?flavour=oat")))
        XCTAssertEqual(cookieLines(awaitData(session.request(raw))), ["Cookie: flavour=oat; session=1"])
        XCTAssertEqual(cookieLines(awaitData(session.request(raw, headers: ["X-Other": "1"]))), ["Cookie: flavour=oat; session=1"])
        XCTAssertEqual(cookieLines(awaitData(session.request(raw, headers: ["Cookie": "own=1"]))), ["Cookie: flavour=oat; own=1"])
        let withoutJar = awaitData(session.request(raw) { $0.httpShouldHandleCookies = false })
        XCTAssertEqual(cookieLines(withoutJar), ["Cookie: session=1"])
    }

    /// The configuration's `HTTPCookieStorage` is the jar, as URLSession's: a cookie put
    /// there goes with the request (and shows in its cURL description), and a response's
    /// `Set-Cookie` lands there.
    func testTheConfigurationsCookieStorageIsReadAndWritten() throws {
        let session = testSession()
        let storage = try XCTUnwrap(session.sessionConfiguration.httpCookieStorage)
        let base = try TestServers.shared.httpbin
        let cookie = try XCTUnwrap(HTTPCookie(properties: [.domain: base.host!, .path: "/", .name: "token", .value: "abc"]))
        storage.setCookie(cookie)
        // A `Secure` one for the same host stays back over plain HTTP, in the description too.
        storage.setCookie(try XCTUnwrap(HTTPCookie(properties: [.domain: base.host!, .path: "/", .name: "tls", .value: "only",
                                                                .secure: "TRUE"])))
        let request = session.request(try TestServers.shared.url(.httpbin, "/cookies")).validate()
        let sent = awaitData(request)
        XCTAssertEqual(echoedCookies(sent), ["token": "abc"])
        XCTAssertTrue(request.cURLDescription().contains("-b \"token=abc\""), request.cURLDescription())

        _ = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies/set?flavour=oat")))
        let stored = storage.cookies(for: base)?.reduce(into: [String: String]()) { $0[$1.name] = $1.value }
        XCTAssertEqual(stored, ["token": "abc", "tls": "only", "flavour": "oat"])

        storage.deleteCookie(cookie)
        let afterDelete = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies")).validate())
        XCTAssertEqual(echoedCookies(afterDelete), ["flavour": "oat"], "a cookie deleted from the storage is not sent")
    }

    /// The storage's accept policy decides, as for URLSession: `.never` keeps nothing.
    func testTheStoragesAcceptPolicyIsHonoured() throws {
        let session = testSession()
        let storage = try XCTUnwrap(session.sessionConfiguration.httpCookieStorage)
        storage.cookieAcceptPolicy = .never
        _ = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies/set?flavour=oat")))
        XCTAssertEqual(storage.cookies?.count ?? 0, 0)
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies")).validate())
        XCTAssertEqual(echoedCookies(response), [:])
    }

    /// Two sessions on one storage share its cookies: what one is given, the other sends.
    func testSessionsOnOneStorageShareItsCookies() throws {
        let configure: (URLSessionConfiguration) -> Void = { _ in }
        let first = testSession(configure)
        let storage = first.sessionConfiguration.httpCookieStorage
        let second = testSession { $0.httpCookieStorage = storage }
        _ = awaitData(first.request(try TestServers.shared.url(.httpbin, "/cookies/set?flavour=oat")))
        let response = awaitData(second.request(try TestServers.shared.url(.httpbin, "/cookies")).validate())
        XCTAssertEqual(echoedCookies(response), ["flavour": "oat"])
    }
}
