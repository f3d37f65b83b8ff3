import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

// Redirects against httpbin: followed, method and body kept or dropped as URLSession does,
// refused and modified through `Redirector`, per session and per request, and credentials
// kept from another host.

private func redirectSession(redirectHandler: (any RedirectHandler)? = nil) -> Session {
    Session(redirectHandler: redirectHandler, responseQueue: DispatchQueue(label: "test.redirect.responses"))
}

/// The JSON object httpbin echoes.
private func echo(_ data: Data?) -> [String: Any] {
    guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
    return object
}

final class RedirectTests: XCTestCase {
    func testRedirectChainIsFollowed() throws {
        let session = redirectSession()
        let url = try TestServers.shared.url(.httpbin, "/redirect/3")
        let done = expectation(description: "response")
        session.request(url).validate().responseData { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(response.response?.statusCode, 200)
            XCTAssertEqual(response.response?.url?.path, "/get")
            XCTAssertEqual((echo(response.data)["url"] as? String).flatMap(URL.init(string:))?.path, "/get")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testRedirect307KeepsMethodAndBody() throws {
        let session = redirectSession()
        let url = try TestServers.shared.redirect(to: "/anything", status: 307)
        let done = expectation(description: "response")
        session.request(url, method: .post, parameters: ["a": 1], encoding: JSONEncoding.default).validate().responseData { response in
            XCTAssertNil(response.error)
            let object = echo(response.data)
            XCTAssertEqual(object["method"] as? String, "POST")
            XCTAssertEqual((object["json"] as? [String: Any])?["a"] as? Int, 1)
            XCTAssertEqual(echoedHeaders(response.data)["Content-Type"], "application/json")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testRedirect308KeepsMethodAndBody() throws {
        let session = redirectSession()
        let url = try TestServers.shared.redirect(to: "/anything", status: 308)
        let done = expectation(description: "response")
        session.request(url, method: .put, parameters: ["b": "x"], encoding: JSONEncoding.default).validate().responseData { response in
            let object = echo(response.data)
            XCTAssertEqual(object["method"] as? String, "PUT")
            XCTAssertEqual((object["json"] as? [String: Any])?["b"] as? String, "x")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testRedirect303TurnsPostIntoGetWithoutBody() throws {
        let session = redirectSession()
        let url = try TestServers.shared.redirect(to: "/anything", status: 303)
        let done = expectation(description: "response")
        session.request(url, method: .post, parameters: ["a": 1], encoding: JSONEncoding.default).validate().responseData { response in
            XCTAssertNil(response.error)
            let object = echo(response.data)
            XCTAssertEqual(object["method"] as? String, "GET")
            XCTAssertEqual(object["data"] as? String, "")
            XCTAssertNil(echoedHeaders(response.data)["Content-Type"])
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testDoNotFollowDeliversTheRedirectItself() throws {
        let session = redirectSession()
        let url = try TestServers.shared.redirect(to: "/get", status: 302)
        let done = expectation(description: "response")
        session.request(url).redirect(using: .doNotFollow).response { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(response.response?.statusCode, 302)
            XCTAssertEqual(response.response?.value(forHTTPHeaderField: "Location"), "/get")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testSessionRedirectorAppliesAndRequestRedirectorWins() throws {
        let session = redirectSession(redirectHandler: Redirector.doNotFollow)
        let refused = expectation(description: "session's handler")
        let followed = expectation(description: "request's handler")
        session.request(try TestServers.shared.redirect(to: "/get", status: 302)).response { response in
            XCTAssertEqual(response.response?.statusCode, 302)
            refused.fulfill()
        }
        session.request(try TestServers.shared.redirect(to: "/get", status: 302)).redirect(using: Redirector.follow).response { response in
            XCTAssertEqual(response.response?.statusCode, 200)
            XCTAssertEqual(response.response?.url?.path, "/get")
            followed.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [refused, followed], timeout: 10) }
    }

    func testModifyChangesTheTarget() throws {
        let session = redirectSession()
        let url = try TestServers.shared.redirect(to: "/get", status: 302)
        let replacement = try TestServers.shared.url(.httpbin, "/anything?modified=yes")
        let seen = Mutex<(taskID: Int?, original: URL?, status: Int?, proposed: String?)>((nil, nil, nil, nil))
        let done = expectation(description: "response")
        let request = session.request(url)
        request.redirect(using: .modify { redirected, proposed, response in
            seen.withLock { $0 = (redirected.taskIdentifier, redirected.originalRequest?.url, response.statusCode, proposed.url?.path) }
            var changed = proposed
            changed.url = replacement
            return changed
        }).validate().responseData { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(response.response?.url?.path, "/anything")
            XCTAssertEqual((echo(response.data)["args"] as? [String: Any])?["modified"] as? String, "yes")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        let observed = seen.withLock { $0 }
        XCTAssertEqual(observed.taskID, request.task?.taskIdentifier, "the closure receives the attempt's task, as in Alamofire")
        XCTAssertEqual(observed.original, url)
        XCTAssertEqual(observed.status, 302)
        XCTAssertEqual(observed.proposed, "/get")
    }

    func testModifyReturningNilStopsLikeDoNotFollow() throws {
        let session = redirectSession()
        let done = expectation(description: "response")
        session.request(try TestServers.shared.redirect(to: "/get", status: 301)).redirect(using: .modify { _, _, _ in nil }).response { response in
            XCTAssertEqual(response.response?.statusCode, 301)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testAuthorizationIsNotCarriedToAnotherHost() throws {
        let session = redirectSession()
        // httpbin listens on 127.0.0.1; "localhost" reaches the same server under another
        // host name, which is what counts for where credentials may go.
        let base = try TestServers.shared.httpbin
        XCTAssertEqual(base.host, "127.0.0.1")
        let otherHost = "http://localhost:\(base.port!)/headers"
        let headers: HTTPHeaders = [
            "Authorization": "Bearer secret",
            "Proxy-Authorization": "Basic c2VjcmV0",
            "Cookie": "session=secret",
            "X-Custom": "kept",
        ]
        let crossHost = expectation(description: "other host")
        let sameHost = expectation(description: "same host")
        session.request(try TestServers.shared.redirect(to: otherHost, status: 302), headers: headers).validate().responseData { response in
            XCTAssertNil(response.error)
            let echoed = echoedHeaders(response.data)
            XCTAssertEqual(echoed["Host"], "localhost:\(base.port!)")
            XCTAssertNil(echoed["Authorization"])
            XCTAssertNil(echoed["Proxy-Authorization"])
            XCTAssertNil(echoed["Cookie"])
            XCTAssertEqual(echoed["X-Custom"], "kept")
            crossHost.fulfill()
        }
        session.request(try TestServers.shared.redirect(to: "/headers", status: 302), headers: headers).validate().responseData { response in
            let echoed = echoedHeaders(response.data)
            XCTAssertEqual(echoed["Authorization"], "Bearer secret")
            XCTAssertEqual(echoed["Proxy-Authorization"], "Basic c2VjcmV0")
            XCTAssertEqual(echoed["X-Custom"], "kept")
            sameHost.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [crossHost, sameHost], timeout: 10) }
    }

    func testRedirectorStaticHelpers() {
        let follow: Redirector = .follow
        let refuse: Redirector = .doNotFollow
        let modify: Redirector = .modify { _, request, _ in request }
        guard case .follow = follow.behavior else { return XCTFail("follow") }
        guard case .doNotFollow = refuse.behavior else { return XCTFail("doNotFollow") }
        guard case .modify = modify.behavior else { return XCTFail("modify") }
        let asHandler: any RedirectHandler = .doNotFollow
        XCTAssertTrue(asHandler is Redirector)
    }
}

extension RedirectTests {
    /// `redirect(using:)` belongs to every request in Alamofire (it is declared on `Request`),
    /// so a download or a stream can refuse a redirect the session would follow.
    func testDownloadAndStreamTakeTheirOwnRedirectHandler() throws {
        let session = redirectSession()
        let url = try TestServers.shared.redirect(to: "/get", status: 302)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-redirect-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }

        let downloaded = expectation(description: "download")
        session.download(url, to: { _, _ in (file, []) }).redirect(using: .doNotFollow).response { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(response.response?.statusCode, 302, "the download's own handler refused the redirect")
            downloaded.fulfill()
        }
        let streamed = expectation(description: "stream")
        session.streamRequest(url).redirect(using: .doNotFollow).responseStream { stream in
            guard case let .complete(completion) = stream.event else { return }
            XCTAssertNil(completion.error)
            XCTAssertEqual(completion.response?.statusCode, 302, "the stream's own handler refused the redirect")
            streamed.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [downloaded, streamed], timeout: 10) }
    }

    /// A refused redirect is the answer, body included, as URLSession delivers it: a data
    /// request's data, a download's file, a stream's chunks (after its validators passed).
    func testARefusedRedirectsBodyIsTheAnswerOfEveryKindOfRequest() throws {
        let session = redirectSession()
        let url = try TestServers.shared.url(.fault, "/slow-redirect?delay=0&to=/ok&body=moved-elsewhere")
        let expected = Data("moved-elsewhere".utf8)

        let data = awaitData(session.request(url).redirect(using: .doNotFollow))
        XCTAssertEqual(data.response?.statusCode, 302)
        XCTAssertEqual(data.data, expected)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-redirect-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let download = awaitDownload(session.download(url, to: { _, _ in (file, []) }).redirect(using: .doNotFollow))
        XCTAssertNil(download.error)
        XCTAssertEqual(download.response?.statusCode, 302)
        XCTAssertEqual(try Data(contentsOf: file), expected)

        // Followed, the redirect's body is not in the file.
        let followedFile = file.appendingPathExtension("followed")
        defer { try? FileManager.default.removeItem(at: followedFile) }
        let followed = awaitDownload(session.download(url, to: { _, _ in (followedFile, []) }))
        XCTAssertEqual(followed.response?.statusCode, 200)
        XCTAssertEqual(try Data(contentsOf: followedFile), Data("ok\n".utf8))

        // A `Location` libcurl cannot use (blank) is not followed either: the body is the answer.
        let blank = try TestServers.shared.url(.fault, "/slow-redirect?delay=0&to=%20&body=moved-elsewhere")
        XCTAssertEqual(awaitData(session.request(blank)).data, expected)
        for (url, validates) in [(url, false), (url, true), (blank, false)] {
            let chunks = Collector<Data>()
            let done = expectation(description: "stream")
            let completion = Box<DataStreamRequest.Completion>()
            var stream = session.streamRequest(url).redirect(using: .doNotFollow)
            if validates { stream = stream.validate() }
            // A serial queue: on a concurrent one the completion may overtake the last chunk.
            stream.responseStream(on: DispatchQueue(label: "test.stream")) { event in
                switch event.event {
                case let .stream(result): if case let .success(chunk) = result { chunks.append(chunk) }
                case let .complete(end):
                    completion.set(end)
                    done.fulfill()
                }
            }
            wait(for: [done], timeout: 10)
            XCTAssertEqual(completion.value?.response?.statusCode, 302)
            if validates {
                XCTAssertTrue(completion.value?.error?.isResponseValidationError == true)
                XCTAssertEqual(chunks.values, [], "a failed validation streams nothing")
            } else {
                XCTAssertNil(completion.value?.error)
                XCTAssertEqual(chunks.values.reduce(Data(), +), expected)
            }
        }
    }

    /// A stream's refused redirect reaches its `onHTTPResponse` handlers and passing
    /// validators first, then its body, then the completion.
    func testARefusedRedirectStreamsItsBodyAfterItsHandlersAndValidators() throws {
        let session = redirectSession()
        let url = try TestServers.shared.url(.fault, "/slow-redirect?delay=0&to=/ok&body=moved-elsewhere")
        let events = Collector<String>()
        let done = expectation(description: "stream")
        session.streamRequest(url).redirect(using: .doNotFollow).validate(statusCode: [302])
            .onHTTPResponse(on: .global()) { events.append("head \($0.statusCode)") }
            .responseStream(on: DispatchQueue(label: "test.stream")) { event in
                switch event.event {
                case let .stream(.success(chunk)): events.append("chunk " + String(decoding: chunk, as: UTF8.self))
                case let .complete(end):
                    events.append("complete \(end.response?.statusCode ?? 0) \(end.error == nil)")
                    done.fulfill()
                }
            }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(events.values, ["head 302", "chunk moved-elsewhere", "complete 302 true"])
    }
}
