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
}
