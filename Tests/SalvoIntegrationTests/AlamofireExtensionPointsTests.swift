import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

// Alamofire API written the way Alamofire callers write it: open parameter encoders, AFInfo,
// DownloadRequest.responseJSON, request notifications, AlamofireExtended, and UploadRequest's
// upload and fileManager.

// MARK: Subclassed encoders

/// Wraps the parameters in an envelope and marks the request, then lets the superclass
/// write the JSON body, as an Alamofire subclass would.
private final class EnvelopeJSONEncoder: JSONParameterEncoder, @unchecked Sendable { // no state of its own
    private struct Envelope<Payload: Encodable>: Encodable {
        let data: Payload
        let version: Int
    }

    override func encode<Parameters: Encodable>(_ parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
        var request = try super.encode(parameters.map { Envelope(data: $0, version: 2) }, into: request)
        request.setValue("envelope", forHTTPHeaderField: "X-Encoder")
        return request
    }
}

/// Encodes the form as the superclass does, then marks the request.
private final class MarkingFormEncoder: URLEncodedFormParameterEncoder, @unchecked Sendable { // no state of its own
    override func encode<Parameters: Encodable>(_ parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
        var request = try super.encode(parameters, into: request)
        request.setValue("form", forHTTPHeaderField: "X-Encoder")
        return request
    }
}

// MARK: AlamofireExtended on a user type

private struct Temperature: AlamofireExtended {
    var celsius: Double
}

extension AlamofireExtension where ExtendedType == Temperature {
    fileprivate var fahrenheit: Double { type.celsius * 9 / 5 + 32 }
    fileprivate static var freezing: Temperature { Temperature(celsius: 0) }
}

private func extensionPoint<T: AlamofireExtended>(of value: T) -> AlamofireExtension<T.ExtendedType> { value.af }

// MARK: UploadConvertible on a user type

private struct GreetingUpload: UploadConvertible {
    let url: URL

    func asURLRequest() throws -> URLRequest { try URLRequest(url: url, method: .put) }
    func createUploadable() throws -> UploadRequest.Uploadable { .data(Data("hello".utf8)) }
}

// MARK: Deprecated API without deprecation warnings

/// Reaches the deprecated `DownloadRequest.responseJSON` through a requirement that is not
/// deprecated, so the test compiles without warnings while still calling it.
private protocol DownloadJSONCaller {
    func callResponseJSON(queue: DispatchQueue, completionHandler: @escaping @Sendable (AFDownloadResponse<Any>) -> Void)
}

extension DownloadRequest: DownloadJSONCaller {
    @available(*, deprecated)
    fileprivate func callResponseJSON(queue: DispatchQueue, completionHandler: @escaping @Sendable (AFDownloadResponse<Any>) -> Void) {
        responseJSON(queue: queue, completionHandler: completionHandler)
    }
}

// MARK: Notifications

/// Records, in order, the names of the request notifications posted about one request, and
/// fulfils an expectation when a given name arrives.
private final class NotificationRecorder: Sendable {
    static let names: [Notification.Name] = [
        Request.didResumeNotification, Request.didSuspendNotification, Request.didCancelNotification,
        Request.didFinishNotification, Request.didResumeTaskNotification, Request.didSuspendTaskNotification,
        Request.didCancelTaskNotification, Request.didCompleteTaskNotification,
    ]

    private struct State {
        var target: Request?
        var names: [Notification.Name] = []
        var waiters: [(name: Notification.Name, expectation: XCTestExpectation)] = []
        var identityMismatches = 0
    }

    private let state = Mutex(State())

    /// Starts observing every request notification; pass the result to `stop(_:)`.
    func start() -> [any NSObjectProtocol] {
        Self.names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [self] note in
                record(note)
            }
        }
    }

    func stop(_ tokens: [any NSObjectProtocol]) {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    func watch(_ request: Request) { state.withLock { $0.target = request } }

    func expect(_ name: Notification.Name, _ expectation: XCTestExpectation) {
        state.withLock { $0.waiters.append((name, expectation)) }
    }

    var names: [Notification.Name] { state.withLock { $0.names } }
    var identityMismatches: Int { state.withLock { $0.identityMismatches } }

    private func record(_ note: Notification) {
        let fulfil = state.withLock { state -> [XCTestExpectation] in
            guard let target = state.target, let request = note.request, request === target else { return [] }
            // The userInfo key is Alamofire's string.
            if (note.userInfo?["org.alamofire.notification.key.request"] as? Request) !== target { state.identityMismatches += 1 }
            state.names.append(note.name)
            return state.waiters.filter { $0.name == note.name }.map(\.expectation)
        }
        fulfil.forEach { $0.fulfill() }
    }
}

/// An adapter that holds each adaptation until the test lets it go.
private final class HeldAdapter: RequestInterceptor, Sendable {
    private let held = Mutex<[@Sendable () -> Void]>([])
    private let adapting: XCTestExpectation

    init(adapting: XCTestExpectation) { self.adapting = adapting }

    func adapt(_ urlRequest: URLRequest, for session: Session, completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        held.withLock { $0.append { completion(.success(urlRequest)) } }
        adapting.fulfill()
    }

    func release() {
        let waiting = held.withLock { held in
            defer { held = [] }
            return held
        }
        waiting.forEach { $0() }
    }
}

/// What Alamofire users extend or observe: encoder subclasses, notifications, `AFInfo`,
/// `AlamofireExtended`, an upload request's upload and file manager.
final class AlamofireExtensionPointsTests: XCTestCase {
    // MARK: Encoders (#17)

    func testJSONParameterEncoderSubclassEncodesARealRequest() throws {
        let session = testSession()
        let request = session.request(try TestServers.shared.url(.httpbin, "/anything"), method: .post,
                                      parameters: ["name": "salvo"], encoder: EnvelopeJSONEncoder())
        let response = awaitData(request)

        XCTAssertEqual(response.response?.statusCode, 200)
        let echo = json(response.data)
        let body = echo["json"] as? [String: Any]
        XCTAssertEqual(body?["version"] as? Int, 2)
        XCTAssertEqual((body?["data"] as? [String: Any])?["name"] as? String, "salvo")
        let headers = echo["headers"] as? [String: Any]
        XCTAssertEqual(headers?["X-Encoder"] as? String, "envelope")
        XCTAssertEqual(headers?["Content-Type"] as? String, "application/json")
    }

    func testURLEncodedFormParameterEncoderSubclassEncodesARealRequest() throws {
        let session = testSession()
        let request = session.request(try TestServers.shared.url(.httpbin, "/anything"), parameters: ["name": "salvo"],
                                      encoder: MarkingFormEncoder(destination: .queryString))
        let response = awaitData(request)

        XCTAssertEqual(response.response?.statusCode, 200)
        let echo = json(response.data)
        XCTAssertEqual((echo["args"] as? [String: Any])?["name"] as? String, "salvo")
        XCTAssertEqual((echo["headers"] as? [String: Any])?["X-Encoder"] as? String, "form")
    }

    func testSubclassesAreStillParameterEncoders() throws {
        let encoders: [any ParameterEncoder] = [EnvelopeJSONEncoder(), MarkingFormEncoder(), JSONParameterEncoder.default,
                                                URLEncodedFormParameterEncoder.default]
        let request = try URLRequest(url: "https://example.com/", method: .post)
        let encoded = try encoders.map { try $0.encode(["a": "b"], into: request) }
        XCTAssertEqual(encoded[0].httpBody.map { String(decoding: $0, as: UTF8.self) }.map { $0.contains("\"version\":2") }, true)
        XCTAssertEqual(encoded[1].httpBody.map { String(decoding: $0, as: UTF8.self) }, "a=b")
        XCTAssertEqual(encoded[1].value(forHTTPHeaderField: "X-Encoder"), "form")
        XCTAssertEqual(encoded[2].httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"a":"b"}"#)
        XCTAssertEqual(encoded[3].httpBody.map { String(decoding: $0, as: UTF8.self) }, "a=b")
    }

    // MARK: AFInfo (#18)

    func testAFInfoVersionIsSalvosVersion() {
        XCTAssertFalse(AFInfo.version.isEmpty)
        XCTAssertEqual(AFInfo.version, SalvoInfo.version)
        let userAgent = "MyApp/1.0 Alamofire/\(AFInfo.version)"
        XCTAssertTrue(userAgent.hasSuffix(SalvoInfo.version))
    }

    // MARK: DownloadRequest.responseJSON (#19)

    func testDownloadResponseJSONParsesTheFile() throws {
        let session = testSession()
        let done = expectation(description: "json")
        // `Any` is not Sendable: keep what the assertions need.
        let box = Box<(error: AFError?, status: Int?, hasSlideshow: Bool, file: URL?)>()
        let request: any DownloadJSONCaller = session.download(try TestServers.shared.url(.httpbin, "/json"))
        request.callResponseJSON(queue: .global()) { response in
            let object = response.value as? [String: Any]
            box.set((response.error, response.response?.statusCode, object?["slideshow"] is [String: Any], response.fileURL))
            done.fulfill()
        }
        wait(for: [done], timeout: 30)

        let result = try XCTUnwrap(box.value)
        // The default destination is the caller's to remove, as in Alamofire.
        if let file = result.file { try? FileManager.default.removeItem(at: file) }
        XCTAssertNil(result.error)
        XCTAssertEqual(result.status, 200)
        XCTAssertTrue(result.hasSlideshow)
    }

    // MARK: Notifications (#20)

    func testAlamofireNotificationsPostsResumeAndFinishForTheRequest() throws {
        let session = Session(eventMonitors: [AlamofireNotifications()], responseQueue: DispatchQueue(label: "test.notifications"))
        let recorder = NotificationRecorder()
        let tokens = recorder.start()
        defer { recorder.stop(tokens) }
        let resumed = expectation(description: "didResume")
        let finished = expectation(description: "didFinish")
        recorder.expect(Request.didResumeNotification, resumed)
        recorder.expect(Request.didFinishNotification, finished)

        let request = session.request(try TestServers.shared.url(.nginx, "/small"))
        recorder.watch(request)
        let response = awaitData(request)
        wait(for: [resumed, finished], timeout: 30, enforceOrder: true)

        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual(recorder.identityMismatches, 0)
        let names = recorder.names
        XCTAssertEqual(names.first, Request.didResumeNotification)
        XCTAssertEqual(names.last, Request.didFinishNotification)
        XCTAssertEqual(names.filter { $0 == Request.didResumeTaskNotification }.count, 1, "\(names)")
        XCTAssertEqual(names.filter { $0 == Request.didCompleteTaskNotification }.count, 1, "\(names)")
    }

    /// A session made as Alamofire users make it posts the notifications, as Alamofire's
    /// sessions do by default: resume, the attempt's resume and completion, finish, in order.
    func testADefaultSessionPostsAlamofiresNotifications() throws {
        let session = Session(responseQueue: DispatchQueue(label: "test.notifications"))
        let recorder = NotificationRecorder()
        let tokens = recorder.start()
        defer { recorder.stop(tokens) }
        let finished = expectation(description: "didFinish")
        recorder.expect(Request.didFinishNotification, finished)
        let request = session.request(try TestServers.shared.url(.nginx, "/small"))
        recorder.watch(request)
        XCTAssertNil(awaitData(request).error)
        wait(for: [finished], timeout: 30)
        XCTAssertEqual(recorder.names, [Request.didResumeNotification, Request.didResumeTaskNotification,
                                        Request.didCompleteTaskNotification, Request.didFinishNotification])
        XCTAssertEqual(recorder.identityMismatches, 0)
    }

    /// Monitors passed without `AlamofireNotifications` replace the default, as in
    /// Alamofire: no notification is posted, and the monitors still hear every event.
    func testASessionWithOtherMonitorsPostsNoNotifications() throws {
        let monitor = ClosureEventMonitor()
        let heard = expectation(description: "monitor heard the finish")
        monitor.requestDidFinish = { _ in heard.fulfill() }
        let session = Session(eventMonitors: [monitor], responseQueue: DispatchQueue(label: "test.notifications"))
        let recorder = NotificationRecorder()
        let tokens = recorder.start()
        defer { recorder.stop(tokens) }
        let request = session.request(try TestServers.shared.url(.nginx, "/small"))
        recorder.watch(request)
        XCTAssertNil(awaitData(request).error)
        wait(for: [heard], timeout: 30)
        // Anything posted would have been posted by now: the monitor heard the finish after it.
        monitor.queue.sync {}
        XCTAssertEqual(recorder.names, [])
    }

    func testAlamofireNotificationsPostsCancelForARunningRequest() throws {
        let session = Session(eventMonitors: [AlamofireNotifications()], responseQueue: DispatchQueue(label: "test.notifications"))
        let (names, response) = try notifications(around: { $0.cancel() }, path: "/delay/3", in: session, monitors: 1)

        XCTAssertEqual(response?.error?.isExplicitlyCancelledError, true)
        XCTAssertEqual(names.first, Request.didResumeNotification)
        XCTAssertEqual(names.last, Request.didFinishNotification)
        XCTAssertTrue(names.contains(Request.didCancelNotification), "\(names)")
        XCTAssertTrue(names.contains(Request.didCancelTaskNotification), "\(names)")
        // The cancelled attempt still completes, as Alamofire's cancelled task does.
        XCTAssertEqual(names.filter { $0 == Request.didCompleteTaskNotification }.count, 1, "\(names)")
    }

    /// A suspend while the request is still adapting happens before any attempt: no
    /// `didSuspendTask`, and the one attempt posts `didResumeTask` once, even when the
    /// monitor's queue (held here by a slow observer of an earlier notification) delivers the
    /// events after the attempt has started.
    func testSuspendBeforeTheAttemptPostsNoTaskNotificationsWhenObserversLag() throws {
        let monitor = AlamofireNotifications()
        let session = Session(eventMonitors: [monitor], responseQueue: DispatchQueue(label: "test.notifications"))
        let recorder = NotificationRecorder()
        let tokens = recorder.start()
        defer { recorder.stop(tokens) }
        let finished = expectation(description: "didFinish")
        recorder.expect(Request.didFinishNotification, finished)
        let observerGate = DispatchSemaphore(value: 0)
        monitor.queue.async { observerGate.wait() }

        let adapting = expectation(description: "adapting")
        let adapter = HeldAdapter(adapting: adapting)
        let request = session.request(try TestServers.shared.url(.nginx, "/small"), interceptor: adapter)
        recorder.watch(request)
        let responded = expectation(description: "response")
        let box = Box<AFDataResponse<Data>>()
        request.responseData(queue: .global()) { response in
            box.set(response)
            responded.fulfill()
        }
        wait(for: [adapting], timeout: 30)
        request.suspend()
        request.resume()
        adapter.release()
        wait(for: [responded], timeout: 30)
        observerGate.signal()
        wait(for: [finished], timeout: 30)

        XCTAssertEqual(box.value?.response?.statusCode, 200)
        let names = recorder.names
        XCTAssertFalse(names.contains(Request.didSuspendTaskNotification), "\(names)")
        XCTAssertEqual(names.filter { $0 == Request.didResumeTaskNotification }.count, 1, "\(names)")
    }

    /// Does `action` to a request of `session` for `path` on httpbin while its attempt runs, and
    /// returns the notifications posted about it (`monitors`: the session's notifications
    /// monitors, each of which posts them) and the response.
    private func notifications(around action: (Request) -> Void, path: String, in session: Session,
                               monitors: Int) throws -> ([Notification.Name], AFDataResponse<Data>?) {
        let recorder = NotificationRecorder()
        let tokens = recorder.start()
        defer { recorder.stop(tokens) }
        let started = expectation(description: "didResumeTask")
        started.expectedFulfillmentCount = monitors
        started.assertForOverFulfill = false  // posted again after the resume
        let finished = expectation(description: "didFinish")
        finished.expectedFulfillmentCount = monitors
        recorder.expect(Request.didResumeTaskNotification, started)
        recorder.expect(Request.didFinishNotification, finished)
        let request = session.request(try TestServers.shared.url(.httpbin, path))
        recorder.watch(request)
        let responded = expectation(description: "response")
        let box = Box<AFDataResponse<Data>>()
        request.responseData(queue: .global()) { response in
            box.set(response)
            responded.fulfill()
        }
        wait(for: [started], timeout: 30)
        action(request)
        wait(for: [responded, finished], timeout: 30)
        return (recorder.names, box.value)
    }

    private static func suspendAndResume(_ request: Request) {
        request.suspend()
        request.resume()
    }

    /// A suspend and a resume while the attempt runs post the task's notifications too, each
    /// after the request's own, as Alamofire's paused and resumed task does.
    func testSuspendingARunningRequestPostsTheTaskNotifications() throws {
        let session = Session(responseQueue: DispatchQueue(label: "test.notifications"))
        let (names, response) = try notifications(around: Self.suspendAndResume, path: "/delay/1", in: session, monitors: 1)
        XCTAssertEqual(response?.response?.statusCode, 200)
        XCTAssertEqual(names, [Request.didResumeNotification, Request.didResumeTaskNotification,
                               Request.didSuspendNotification, Request.didSuspendTaskNotification,
                               Request.didResumeNotification, Request.didResumeTaskNotification,
                               Request.didCompleteTaskNotification, Request.didFinishNotification])
    }

    /// Two notifications monitors in one session each post every notification, the task's
    /// included, as two of Alamofire's would.
    func testEachOfTwoNotificationsMonitorsPostsEveryNotification() throws {
        let session = Session(eventMonitors: [AlamofireNotifications(), AlamofireNotifications()],
                              responseQueue: DispatchQueue(label: "test.notifications"))
        let (names, response) = try notifications(around: Self.suspendAndResume, path: "/delay/1", in: session, monitors: 2)
        XCTAssertEqual(response?.response?.statusCode, 200)
        for name in [Request.didSuspendNotification, Request.didSuspendTaskNotification,
                     Request.didCompleteTaskNotification, Request.didFinishNotification] {
            XCTAssertEqual(names.filter { $0 == name }.count, 2, "\(name): \(names)")
        }
        XCTAssertEqual(names.filter { $0 == Request.didResumeNotification }.count, 4, "\(names)")
        XCTAssertEqual(names.filter { $0 == Request.didResumeTaskNotification }.count, 4, "\(names)")
    }

    func testNotificationWithoutARequestHasNone() {
        let note = Notification(name: Request.didFinishNotification, object: nil, userInfo: ["other": 1])
        XCTAssertNil(note.request)
        XCTAssertEqual(Request.didFinishNotification.rawValue, "org.alamofire.notification.name.request.didFinish")
        XCTAssertFalse(AlamofireNotifications().queue === DispatchQueue.main)
    }

    // MARK: AlamofireExtended (#25)

    func testAlamofireExtendedOnAUserType() {
        XCTAssertEqual(Temperature(celsius: 100).af.fahrenheit, 212)
        XCTAssertEqual(Temperature.af.freezing.celsius, 0)
        XCTAssertEqual(extensionPoint(of: Temperature(celsius: -40)).fahrenheit, -40)

        var value = Temperature(celsius: 10)
        value.af = AlamofireExtension(Temperature(celsius: 99)) // the setter does nothing
        XCTAssertEqual(value.celsius, 10)

        let configuration = URLSessionConfiguration.af.default
        XCTAssertFalse(configuration.headers.isEmpty)
        XCTAssertTrue(extensionPoint(of: configuration).type === configuration)
    }

    // MARK: UploadRequest.upload and fileManager (#22)

    func testUploadRequestExposesItsUploadAndFileManager() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.httpbin, "/post")
        let request = session.upload(Data("hello".utf8), to: url, headers: ["Content-Type": "text/plain"])

        XCTAssertTrue(request.fileManager === FileManager.default)
        guard case let .data(data) = try request.upload.createUploadable() else { return XCTFail("not data") }
        XCTAssertEqual(data, Data("hello".utf8))
        let convertible = try XCTUnwrap(request.upload as? any URLRequestConvertible)
        XCTAssertEqual(try convertible.asURLRequest().url, url)

        let response = awaitData(request)
        XCTAssertEqual(json(response.data)["data"] as? String, "hello")
        guard case let .data(sent)? = request.uploadable else { return XCTFail("no uploadable") }
        XCTAssertEqual(sent, Data("hello".utf8))

        // The protocols are usable on their own, as with Alamofire.
        let custom: any UploadConvertible = GreetingUpload(url: url)
        XCTAssertEqual(try custom.asURLRequest().method, .put)
        let uploadable: any UploadableConvertible = UploadRequest.Uploadable.data(Data([1, 2]))
        guard case let .data(bytes) = try uploadable.createUploadable() else { return XCTFail("not data") }
        XCTAssertEqual(bytes, Data([1, 2]))
    }

    func testMultipartFileIsRemovedWithTheRequestsFileManager() throws {
        let session = testSession()
        let request = session.upload(multipartFormData: { form in form.append(Data("value".utf8), withName: "field") },
                                     to: try TestServers.shared.url(.httpbin, "/post"), usingThreshold: 0)
        let response = awaitData(request)

        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual((json(response.data)["form"] as? [String: Any])?["field"] as? String, "value")
        guard case let .file(file, shouldRemove)? = request.uploadable else { return XCTFail("not a file") }
        XCTAssertTrue(shouldRemove)
        XCTAssertFalse(request.fileManager.fileExists(atPath: file.path))
    }

    // MARK: SessionDelegate (#23)

    func testSessionDelegateTakesAFileManager() {
        let session = Session(delegate: SessionDelegate(fileManager: FileManager()), responseQueue: DispatchQueue(label: "test.delegate"))
        XCTAssertTrue(session.delegate.session === session)
        XCTAssertNotNil(SessionDelegate())
    }
}
