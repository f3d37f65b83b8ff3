import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

/// `URLSessionConfiguration.urlCache` and `requestCachePolicy` honoured as URLSession honours
/// them, with `CachedResponseHandler`s, against httpbin's `/cache` routes and nginx's files.
/// An answer from the cache is told apart by its metrics: nothing was sent, so it took no time.
final class ResponseCacheTests: XCTestCase {
    private func cachingSession(policy: URLRequest.CachePolicy = .useProtocolCachePolicy,
                                handler: (any CachedResponseHandler)? = nil) -> (Session, URLCache) {
        let cache = URLCache(memoryCapacity: 4 << 20, diskCapacity: 0, diskPath: nil)
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = cache
        configuration.requestCachePolicy = policy
        let session = Session(configuration: configuration, cachedResponseHandler: handler,
                              responseQueue: DispatchQueue(label: "test.cache.responses"))
        return (session, cache)
    }

    private func fromCache(_ response: AFDataResponse<Data>) -> Bool {
        response.metrics.map { $0.total == 0 && $0.bytesReceived == 0 } ?? false
    }

    func testAFreshResponseIsAnsweredFromTheCache() throws {
        let (session, _) = cachingSession()
        let url = try TestServers.shared.url(.httpbin, "/cache/60")
        let first = awaitData(session.request(url).validate())
        XCTAssertNil(first.error)
        XCTAssertFalse(fromCache(first))
        let second = awaitData(session.request(url).validate())
        XCTAssertNil(second.error)
        XCTAssertTrue(fromCache(second), "a response fresh for 60 s is not fetched again")
        XCTAssertEqual(second.data, first.data)
        XCTAssertEqual(second.response?.statusCode, 200)
        XCTAssertEqual(second.response?.value(forHTTPHeaderField: "Cache-Control"), "public, max-age=60")
    }

    func testAStaleResponseIsRevalidatedAndA304AnsweredWithTheStoredBody() throws {
        let (session, _) = cachingSession()
        // httpbin's /cache: Last-Modified now and an ETag, so no lifetime; a conditional
        // request gets a 304.
        let url = try TestServers.shared.url(.httpbin, "/cache")
        let first = awaitData(session.request(url).validate())
        XCTAssertNil(first.error)
        let second = awaitData(session.request(url).validate())
        XCTAssertNil(second.error, "a 304 must not reach validation")
        XCTAssertFalse(fromCache(second), "a stale response is revalidated with the origin")
        XCTAssertEqual(second.response?.statusCode, 200)
        XCTAssertEqual(second.data, first.data, "the 304 is answered with the stored body")
    }

    /// As URLSession's delegate does, `onHTTPResponse` handlers see the stored 200 a
    /// revalidation's 304 is answered with, not the 304.
    func testHTTPResponseHandlersSeeTheStoredResponseOfARevalidation() throws {
        let (session, _) = cachingSession()
        let url = try TestServers.shared.url(.httpbin, "/cache")
        XCTAssertNil(awaitData(session.request(url).validate()).error)
        let seen = Collector<Int>()
        let request = session.request(url).onHTTPResponse(on: .global()) { response in seen.append(response.statusCode) }
        let second = awaitData(request.validate())
        XCTAssertNil(second.error)
        XCTAssertFalse(fromCache(second), "revalidated with the origin")
        XCTAssertEqual(seen.values, [200])
    }

    func testANginxFileIsRevalidatedWhenTheRequestAsksAndA304AnsweredFromTheCache() throws {
        let (session, _) = cachingSession()
        let url = try TestServers.shared.url(.nginx, "/small")
        let first = awaitData(session.request(url).validate())
        XCTAssertNil(first.error)
        // Fresh for a tenth of the file's age (HTTPCacheRulesTests); the request insists on
        // the origin, and nginx answers the ETag with a 304.
        let revalidated = awaitData(session.request(url, headers: ["Cache-Control": "max-age=0"]).validate())
        XCTAssertNil(revalidated.error)
        XCTAssertFalse(fromCache(revalidated))
        XCTAssertEqual(revalidated.response?.statusCode, 200)
        XCTAssertEqual(revalidated.data, first.data)
    }

    func testNoStoreIsRespected() throws {
        let (session, cache) = cachingSession()
        let url = try TestServers.shared.url(.httpbin, "/response-headers?Cache-Control=no-store")
        XCTAssertNil(awaitData(session.request(url).validate()).error)
        XCTAssertNil(cache.cachedResponse(for: URLRequest(url: url)))
        XCTAssertFalse(fromCache(awaitData(session.request(url).validate())))

        let fresh = try TestServers.shared.url(.httpbin, "/cache/60")
        XCTAssertNil(awaitData(session.request(fresh, headers: ["Cache-Control": "no-store"]).validate()).error)
        XCTAssertNil(cache.cachedResponse(for: URLRequest(url: fresh)), "the request's no-store keeps it out too")
    }

    func testReloadPoliciesSkipTheStoredResponse() throws {
        let (session, _) = cachingSession()
        let url = try TestServers.shared.url(.httpbin, "/cache/60")
        XCTAssertNil(awaitData(session.request(url)).error)
        var reload = URLRequest(url: url)
        reload.cachePolicy = .reloadIgnoringLocalCacheData
        XCTAssertFalse(fromCache(awaitData(session.request(reload))))
        XCTAssertFalse(fromCache(awaitData(session.request(url, headers: ["Cache-Control": "no-cache"]))))
        XCTAssertTrue(fromCache(awaitData(session.request(url))))
    }

    func testReturnCacheDataDontLoadAnswersOnlyFromTheCache() throws {
        let (session, _) = cachingSession(policy: .returnCacheDataDontLoad)
        let url = try TestServers.shared.url(.httpbin, "/cache")
        let missing = awaitData(session.request(url))
        XCTAssertEqual(urlErrorCode(missing.error), .resourceUnavailable)

        var load = URLRequest(url: url)
        load.cachePolicy = .reloadIgnoringLocalCacheData
        XCTAssertNil(awaitData(session.request(load)).error)
        let stored = awaitData(session.request(url))
        XCTAssertNil(stored.error)
        XCTAssertTrue(fromCache(stored), "even a stale response is used, without asking the origin")
    }

    func testResponseCachersDecideWhatIsStored() throws {
        let url = try TestServers.shared.url(.httpbin, "/cache/60")
        let (skipping, skippingCache) = cachingSession(handler: .doNotCache)
        XCTAssertNil(awaitData(skipping.request(url)).error)
        XCTAssertNil(skippingCache.cachedResponse(for: URLRequest(url: url)))
        // The request's own handler is asked instead of the session's.
        XCTAssertNil(awaitData(skipping.request(url).cacheResponse(using: .cache)).error)
        XCTAssertNotNil(skippingCache.cachedResponse(for: URLRequest(url: url)))

        let (modifying, modifyingCache) = cachingSession(handler: .modify { _, response in
            CachedURLResponse(response: response.response, data: Data("changed".utf8), userInfo: response.userInfo,
                              storagePolicy: response.storagePolicy)
        })
        XCTAssertNil(awaitData(modifying.request(url)).error)
        XCTAssertEqual(modifyingCache.cachedResponse(for: URLRequest(url: url))?.data, Data("changed".utf8))
        let answered = awaitData(modifying.request(url))
        XCTAssertTrue(fromCache(answered))
        XCTAssertEqual(answered.data, Data("changed".utf8))
    }

    func testOnlyGETDataRequestsUseTheCache() throws {
        let (session, cache) = cachingSession()
        // httpbin answers both methods here with the same cacheable headers.
        let url = try TestServers.shared.url(.httpbin, "/response-headers?Cache-Control=max-age%3D60")
        let posted = awaitData(session.request(url, method: .post))
        XCTAssertEqual(posted.response?.value(forHTTPHeaderField: "Cache-Control"), "max-age=60")
        XCTAssertNil(cache.cachedResponse(for: URLRequest(url: url)), "a POST's response is not stored")
        XCTAssertNil(awaitData(session.request(url)).error)
        XCTAssertNotNil(cache.cachedResponse(for: URLRequest(url: url)), "the same response to a GET is")
        let download = session.download(url)
        let downloaded = expectation(description: "download")
        download.response(queue: .global()) { response in
            if let file = response.fileURL { try? FileManager.default.removeItem(at: file) }
            downloaded.fulfill()
        }
        wait(for: [downloaded], timeout: 10)
        XCTAssertGreaterThan(download.metrics?.total ?? 0, 0, "a download is not answered from the cache")
    }

    /// Foundation's URLCache on Linux files entries by host, port and path: a response is still
    /// only ever used for its own URL, query and scheme included.
    func testAStoredResponseAnswersOnlyItsOwnURL() throws {
        let (session, _) = cachingSession()
        let first = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cache/60?id=1")))
        XCTAssertNil(first.error)
        let other = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cache/60?id=2")))
        XCTAssertFalse(fromCache(other), "another query is another resource")
        XCTAssertEqual((json(other.data)["args"] as? [String: Any])?["id"] as? String, "2")
    }

    /// A redirect's final response is stored under its own URL, not the first one's.
    func testARedirectedResponseIsStoredUnderItsOwnURL() throws {
        let (session, cache) = cachingSession()
        let target = try TestServers.shared.url(.httpbin, "/cache/60")
        let redirecting = try TestServers.shared.url(.httpbin, "/redirect-to?url=\(target.absoluteString)")
        XCTAssertNil(awaitData(session.request(redirecting)).error)
        XCTAssertEqual(cache.cachedResponse(for: URLRequest(url: target))?.response.url, target)
        XCTAssertNil(cache.cachedResponse(for: URLRequest(url: redirecting)))
    }

    func testTheSessionsCacheControlHeaderCounts() throws {
        let cache = URLCache(memoryCapacity: 4 << 20, diskCapacity: 0, diskPath: nil)
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = cache
        configuration.headers.update(name: "Cache-Control", value: "no-store")
        let session = Session(configuration: configuration, responseQueue: DispatchQueue(label: "test.cache.responses"))
        let url = try TestServers.shared.url(.httpbin, "/cache/60")
        XCTAssertNil(awaitData(session.request(url)).error)
        XCTAssertNil(cache.cachedResponse(for: URLRequest(url: url)), "the session's no-store keeps it out")
    }

    func testSalvosDefaultConfigurationHasNoCache() {
        XCTAssertNil(URLSessionConfiguration.af.default.urlCache)
    }
}
