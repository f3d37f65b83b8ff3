import XCTest
@testable import Salvo
import SalvoTestSupport

/// Cancelling with resume data and resuming, against nginx (which sends an ETag and honours
/// `Range` with `If-Range`), and the one large download that bounds memory.
final class DownloadResumeTests: XCTestCase {
    private var made: [URL] = []

    override func tearDownWithError() throws {
        for url in made { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(DownloadRequestTests.partialFiles(), [], "partial downloads left behind")
    }

    /// A file of `size` bytes in nginx's docroot, varied enough that a misplaced range shows.
    private func servedFile(_ name: String, size: Int, seed: UInt8) throws -> (url: URL, local: URL) {
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 12) &+ seed }
        let local = try TestServers.shared.docroot.appendingPathComponent(name)
        try Data(bytes).write(to: local)
        made.append(local)
        return (try TestServers.shared.url(.nginx, "/" + name), local)
    }

    /// Resume data in Salvo's documented format for a partial file made here, with `partial`
    /// as its bytes, in the directory of partial downloads (which the tests check is left empty).
    private func handmadeResumeData(for url: URL, partial: Data, etag: String) throws -> Data {
        let directory = try PrivateTemporaryDirectory.folder("downloads")
        let file = directory.appendingPathComponent("\(UUID().uuidString).partial")
        try partial.write(to: file)
        let info: [String: Any] = [
            "format": "org.salvo.resume-data", "version": 1, "bytes": partial.count, "partialFile": file.path, "etag": etag,
            "url": url.absoluteString,
        ]
        return try JSONSerialization.data(withJSONObject: info)
    }

        private func destination(_ name: String) -> (URL, DownloadRequest.Destination) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-resume-\(UUID().uuidString)-\(name)")
        made.append(url)
        return (url, { _, _ in (url, [.removePreviousFile]) })
    }

    /// Starts a download and cancels it, asking for resume data, once bytes have arrived.
    ///
    /// On a loaded machine the whole file can arrive before the cancel does; the download
    /// then simply succeeds, and the next try cancels it mid-body.
    private func cancelledDownload(_ session: Session, _ url: URL) throws -> Data {
        for _ in 0..<5 {
            let request = session.download(url)
            let resume = expectation(description: "resume data")
            let box = Box<Data?>()
            request.onFirstBytes {
                request.cancel { data in
                    box.set(data)
                    resume.fulfill()
                }
            }
            let response = awaitDownload(request)
            wait(for: [resume], timeout: 60)
            if let fileURL = response.fileURL {
                // Finished before the cancel landed: try again.
                try? FileManager.default.removeItem(at: fileURL)
                continue
            }
            XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, String(describing: response.error))
            let data = try XCTUnwrap(box.value ?? nil, "no resume data")
            XCTAssertEqual(response.resumeData, data)
            XCTAssertEqual(request.resumeData, data)
            return data
        }
        throw NeverCutShort()
    }

    private struct NeverCutShort: Error, CustomStringConvertible {
        var description: String { "every download finished before its cancel arrived" }
    }

    func testCancelThenResumeIsByteIdentical() throws {
        let session = testSession()
        let served = try servedFile("resume-\(UUID().uuidString).bin", size: 64 << 20, seed: 1)
        let resumeData = try cancelledDownload(session, served.url)
        let resumeInfo = try XCTUnwrap(JSONSerialization.jsonObject(with: resumeData) as? [String: Any])
        let partialBytes = try XCTUnwrap(resumeInfo["bytes"] as? Int)
        XCTAssertGreaterThan(partialBytes, 0)
        XCTAssertLessThan(partialBytes, 64 << 20)

        let (target, destination) = self.destination("resumed.bin")
        let fractions = Collector<Double>()
        let progressQueue = DispatchQueue(label: "progress")
        let request = session.download(resumingWith: resumeData, to: destination)
            .downloadProgress(queue: progressQueue) { fractions.append($0.fractionCompleted) }
        let response = awaitDownload(request)
        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.statusCode, 206, "the rest was not asked for as a range")
        XCTAssertEqual(request.request?.headers["Range"], "bytes=\(partialBytes - 1)-", "from the last byte held")
        XCTAssertTrue(try Data(contentsOf: target) == Data(contentsOf: served.local), "resumed file differs from the source")
        progressQueue.sync {}
        XCTAssertEqual(fractions.values.last, 1.0)
        // Counting the bytes it already had, progress never starts below them.
        XCTAssertGreaterThan(fractions.values.first ?? 0, Double(partialBytes) / Double(64 << 20) - 0.01)
    }

    /// A cancel that arrives after the last byte but before the transfer ends leaves resume
    /// data for a partial file that is already whole. Resuming it must give the whole file
    /// (a range from its end would get nginx's 416 error page in its place).
    func testResumingAPartialFileThatIsAlreadyWholeKeepsIt() throws {
        let session = testSession()
        let served = try servedFile("whole-\(UUID().uuidString).bin", size: 32 << 20, seed: 3)
        let resumeData = try cancelledDownload(session, served.url)
        var info = try XCTUnwrap(JSONSerialization.jsonObject(with: resumeData) as? [String: Any])
        let partialFile = try XCTUnwrap(info["partialFile"] as? String)
        let whole = try Data(contentsOf: served.local)
        try whole.write(to: URL(fileURLWithPath: partialFile))
        info["bytes"] = whole.count
        let wholeResumeData = try JSONSerialization.data(withJSONObject: info)

        let (target, destination) = self.destination("whole.bin")
        let request = session.download(resumingWith: wholeResumeData, to: destination)
        let response = awaitDownload(request)
        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.statusCode, 206)
        XCTAssertEqual(request.request?.headers["Range"], "bytes=\(whole.count - 1)-")
        XCTAssertTrue(try Data(contentsOf: target) == whole, "the whole partial file was not kept")
    }

    /// A resumed download whose URL redirects keeps its partial file through the redirect
    /// hop: the redirect's own body is not the file's (libcurl 7.88 names the redirect URL only
    /// once the transfer ends, so the hop is told from its status and `Location`).
    func testResumingThroughARedirectKeepsThePartialFile() throws {
        let session = testSession()
        let served = try servedFile("redirected-\(UUID().uuidString).bin", size: 32 << 20, seed: 5)
        let resumeData = try cancelledDownload(session, served.url)
        var info = try XCTUnwrap(JSONSerialization.jsonObject(with: resumeData) as? [String: Any])
        info["url"] = try TestServers.shared.redirect(to: served.url.absoluteString).absoluteString
        let redirectedResumeData = try JSONSerialization.data(withJSONObject: info)

        let (target, destination) = self.destination("redirected.bin")
        let response = awaitDownload(session.download(resumingWith: redirectedResumeData, to: destination))
        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.statusCode, 206)
        XCTAssertTrue(try Data(contentsOf: target) == Data(contentsOf: served.local), "resumed file differs from the source")
    }

    /// A 206 that does not continue the partial file (here it starts at byte 0 whatever was
    /// asked) fails the download rather than append the wrong bytes.
    func testARangeAnswerThatDoesNotContinueTheFileFails() throws {
        let session = testSession()
        let resumeData = try handmadeResumeData(for: try TestServers.shared.url(.fault, "/wrong-range"), partial: Data("abcde".utf8), etag: "\"w\"")
        let (target, destination) = self.destination("wrong.bin")
        let response = awaitDownload(session.download(resumingWith: resumeData, to: destination))
        XCTAssertEqual(urlErrorCode(response.error), .badServerResponse, String(describing: response.error))
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
    }

    /// A resumed download answered with the whole body starts its file over; when that
    /// attempt breaks, the retries ask for the whole file again (they once asked for the old
    /// range and failed to cut the new, shorter file back to it).
    func testRetriesOfAResumeThatStartedOverAskForTheWholeFile() throws {
        // The adapter's own URLRequest properties stay on the attempts that drop the range.
        let marking = Adapter { urlRequest, _, completion in
            var marked = urlRequest
            marked.cachePolicy = .reloadIgnoringLocalCacheData
            completion(.success(marked))
        }
        let interceptor = Interceptor(adapters: [marking], retriers: [RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01)])
        let session = Session(configuration: .af.default, interceptor: interceptor, responseQueue: DispatchQueue(label: "test"))
        // /truncate answers 200 with Content-Length 1000, sends 100 bytes and closes.
        let resumeData = try handmadeResumeData(for: try TestServers.shared.url(.fault, "/truncate"), partial: Data(repeating: 7, count: 500),
                                                etag: "\"t\"")
        let (target, destination) = self.destination("restarted.bin")
        let request = session.download(resumingWith: resumeData, to: destination)
        let response = awaitDownload(request)
        XCTAssertEqual(urlErrorCode(response.error), .networkConnectionLost, String(describing: response.error))
        XCTAssertEqual(request.retryCount, 2)
        let ranges = request.requests.map { $0.value(forHTTPHeaderField: "Range") }
        XCTAssertEqual(ranges, ["bytes=499-", nil, nil])
        XCTAssertEqual(request.requests.map(\.cachePolicy), Array(repeating: .reloadIgnoringLocalCacheData, count: 3))
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
    }

    /// What the fault server's `/flaky-file` serves.
    private func flakyFileBytes(_ size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 8)) })
    }

    /// A transient error answering a resumed download leaves its partial file whole: the retry
    /// asks for the same range again and finishes the file (the error's body once replaced the
    /// partial file, and the retry started from zero).
    func testATransientErrorDoesNotCostAResumeItsPartialFile() throws {
        let size = 200_000, held = 150_000
        let url = try TestServers.shared.url(.fault, "/flaky-file?key=\(UUID().uuidString)&size=\(size)&times=1")
        let resumeData = try handmadeResumeData(for: url, partial: flakyFileBytes(size).prefix(held), etag: "\"flaky\"")
        let session = Session(interceptor: RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01),
                              responseQueue: DispatchQueue(label: "test"))
        let (target, destination) = self.destination("flaky.bin")
        let request = session.download(resumingWith: resumeData, to: destination).validate()
        let response = awaitDownload(request)
        XCTAssertNil(response.error)
        XCTAssertEqual(request.retryCount, 1)
        XCTAssertEqual(request.requests.map { $0.value(forHTTPHeaderField: "Range") }, ["bytes=\(held - 1)-", "bytes=\(held - 1)-"])
        XCTAssertEqual(response.response?.statusCode, 206)
        XCTAssertTrue(try Data(contentsOf: target) == flakyFileBytes(size), "resumed file differs from the source")
    }

    /// Without a retry, an error answering a resumed download is the download's file, as with
    /// URLSession, and the partial file goes.
    func testAnErrorEndingAResumeIsTheDownloadsFile() throws {
        let url = try TestServers.shared.url(.fault, "/flaky-file?key=\(UUID().uuidString)&size=1000&times=1")
        let resumeData = try handmadeResumeData(for: url, partial: flakyFileBytes(1000).prefix(600), etag: "\"flaky\"")
        let (target, destination) = self.destination("busy.txt")
        let session = testSession()
        let response = awaitDownload(session.download(resumingWith: resumeData, to: destination))
        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.statusCode, 503)
        XCTAssertEqual(try Data(contentsOf: target), Data("busy\n".utf8))
        let partial = try XCTUnwrap(JSONSerialization.jsonObject(with: resumeData) as? [String: Any])["partialFile"] as? String
        XCTAssertFalse(FileManager.default.fileExists(atPath: try XCTUnwrap(partial)), "the partial file was left behind")
    }

    /// A resume whose first answer is a challenge libcurl answers (401, then 206 in one
    /// transfer): the 206 continues the partial file, and nothing of the challenge is kept.
    func testAResumeAnsweredAfterAChallengeContinuesItsFile() throws {
        let size = 100_000, held = 60_000
        let url = try TestServers.shared.url(.fault, "/flaky-file?key=\(UUID().uuidString)&size=\(size)&times=0&auth=user:pw")
        let resumeData = try handmadeResumeData(for: url, partial: flakyFileBytes(size).prefix(held), etag: "\"flaky\"")
        let (target, destination) = self.destination("challenged.bin")
        let session = testSession()
        let response = awaitDownload(session.download(resumingWith: resumeData, to: destination)
            .authenticate(username: "user", password: "pw").validate())
        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.statusCode, 206)
        XCTAssertTrue(try Data(contentsOf: target) == flakyFileBytes(size), "resumed file differs from the source")
        let partial = try XCTUnwrap(JSONSerialization.jsonObject(with: resumeData) as? [String: Any])["partialFile"] as? String
        XCTAssertFalse(FileManager.default.fileExists(atPath: try XCTUnwrap(partial) + ".answer"), "the challenge's body was left behind")
    }

    /// A redirect answering a resume: followed, the next hop continues the partial file;
    /// refused, the redirect (its body) is the download's file and the partial file goes.
    func testARedirectAnsweringAResumeKeepsThePartialFileForTheNextHop() throws {
        let size = 100_000, held = 40_000
        let file = try TestServers.shared.url(.fault, "/flaky-file?key=\(UUID().uuidString)&size=\(size)&times=0")
        var components = URLComponents(url: try TestServers.shared.url(.fault, "/slow-redirect"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "delay", value: "0"), URLQueryItem(name: "to", value: file.absoluteString),
                                 URLQueryItem(name: "body", value: "moved")]
        let url = try XCTUnwrap(components.url)
        let session = testSession()

        let followedData = try handmadeResumeData(for: url, partial: flakyFileBytes(size).prefix(held), etag: "\"flaky\"")
        let (followedTarget, followedDestination) = self.destination("followed.bin")
        let followed = awaitDownload(session.download(resumingWith: followedData, to: followedDestination))
        XCTAssertNil(followed.error)
        XCTAssertEqual(followed.response?.statusCode, 206)
        XCTAssertTrue(try Data(contentsOf: followedTarget) == flakyFileBytes(size), "resumed file differs from the source")

        let refusedData = try handmadeResumeData(for: url, partial: flakyFileBytes(size).prefix(held), etag: "\"flaky\"")
        let (refusedTarget, refusedDestination) = self.destination("refused.txt")
        let refused = awaitDownload(session.download(resumingWith: refusedData, to: refusedDestination).redirect(using: .doNotFollow))
        XCTAssertNil(refused.error)
        XCTAssertEqual(refused.response?.statusCode, 302)
        XCTAssertEqual(try Data(contentsOf: refusedTarget), Data("moved".utf8))
        let partial = try XCTUnwrap(JSONSerialization.jsonObject(with: refusedData) as? [String: Any])["partialFile"] as? String
        XCTAssertFalse(FileManager.default.fileExists(atPath: try XCTUnwrap(partial)), "the partial file was left behind")
    }

    /// A resumed download cancelled before any answer came still makes resume data for its
    /// partial file (it once made none and deleted the file), and that data resumes.
    func testCancellingAResumeBeforeItsAnswerKeepsThePartialFile() throws {
        let session = testSession()
        let served = try servedFile("early-\(UUID().uuidString).bin", size: 32 << 20, seed: 9)
        let resumeData = try cancelledDownload(session, served.url)
        var info = try XCTUnwrap(JSONSerialization.jsonObject(with: resumeData) as? [String: Any])
        let partialFile = try XCTUnwrap(info["partialFile"] as? String)
        info["url"] = try TestServers.shared.url(.fault, "/stall-headers").absoluteString
        let again = expectation(description: "resume data")
        let box = Box<Data?>()
        // Cancelled once its transfer is on its way; /stall-headers never answers.
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "monitor"))
        monitor.requestDidCreateTransfer = { request, _ in
            (request as? DownloadRequest)?.cancel { data in
                box.set(data)
                again.fulfill()
            }
        }
        let monitored = Session(eventMonitors: [monitor], responseQueue: DispatchQueue(label: "test"))
        let stalled = monitored.download(resumingWith: try JSONSerialization.data(withJSONObject: info))
        let response = awaitDownload(stalled)
        wait(for: [again], timeout: 30)
        XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, String(describing: response.error))
        XCTAssertTrue(FileManager.default.fileExists(atPath: partialFile), "the partial file was deleted")
        var next = try XCTUnwrap(JSONSerialization.jsonObject(with: try XCTUnwrap(box.value ?? nil, "no resume data")) as? [String: Any])
        // Nothing arrived, so nothing changed: the file was not cut back (each such cancel once
        // cost the file its last byte).
        XCTAssertEqual(next["bytes"] as? Int, info["bytes"] as? Int)
        let size = try FileManager.default.attributesOfItem(atPath: partialFile)[.size] as? NSNumber
        XCTAssertEqual(size?.intValue, info["bytes"] as? Int)
        next["url"] = served.url.absoluteString

        let (target, destination) = self.destination("early.bin")
        let finished = awaitDownload(session.download(resumingWith: try JSONSerialization.data(withJSONObject: next), to: destination))
        XCTAssertNil(finished.error)
        XCTAssertTrue(try Data(contentsOf: target) == Data(contentsOf: served.local), "resumed file differs from the source")
    }

    /// A resumed download cancelled while it waits to retry makes resume data that matches
    /// its file.
    func testCancellingDuringARetryBackOffKeepsTheResumeDataTrue() throws {
        let served = try servedFile("backoff-\(UUID().uuidString).bin", size: 32 << 20, seed: 11)
        let resumeData = try cancelledDownload(testSession(), served.url)
        let got = expectation(description: "resume data")
        let box = Box<Data?>()
        // Cancelled a quarter of the way into the back-off.
        let retryOnceLater = Retrier { request, _, _, completion in
            guard request.retryCount == 0 else { return completion(.doNotRetry) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
                (request as? DownloadRequest)?.cancel { data in
                    box.set(data)
                    got.fulfill()
                }
            }
            completion(.retryWithDelay(0.2))
        }
        let session = Session(interceptor: retryOnceLater, responseQueue: DispatchQueue(label: "test"))
        // nginx serves .bin as application/octet-stream: the 206 fails this validation, and the
        // download waits to retry.
        let request = session.download(resumingWith: resumeData).validate(contentType: ["text/none"])
        let response = awaitDownload(request)
        // As in Alamofire, a request cancelled while it waits to retry keeps its attempt's error.
        XCTAssertTrue(request.isCancelled)
        XCTAssertTrue(response.error?.isResponseValidationError == true, String(describing: response.error))
        wait(for: [got], timeout: 30)
        // That the back-off's end starts nothing after a cancel is the lifecycle's rule
        // (RequestLifecycleTests); here the file must match the resume data.

        let data = try XCTUnwrap(box.value ?? nil, "no resume data")
        let info = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let partialFile = try XCTUnwrap(info["partialFile"] as? String)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: partialFile)[.size] as? NSNumber)
        XCTAssertEqual(info["bytes"] as? Int, size.intValue, "resume data and its file disagree")
        let (target, destination) = self.destination("backoff.bin")
        let resuming = testSession()
        let finished = awaitDownload(resuming.download(resumingWith: data, to: destination))
        XCTAssertNil(finished.error)
        XCTAssertTrue(try Data(contentsOf: target) == Data(contentsOf: served.local), "resumed file differs from the source")
    }

    func testResumeAfterTheFileChangedStartsOver() throws {
        let session = testSession()
        let name = "changing-\(UUID().uuidString).bin"
        let served = try servedFile(name, size: 32 << 20, seed: 1)
        let resumeData = try cancelledDownload(session, served.url)
        // Another size gives nginx's ETag (mtime-size) another value, whatever the clock.
        let changed = try servedFile(name, size: (32 << 20) + 4096, seed: 7)

        let (target, destination) = self.destination("changed.bin")
        let response = awaitDownload(session.download(resumingWith: resumeData, to: destination))
        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertTrue(try Data(contentsOf: target) == Data(contentsOf: changed.local), "the download did not start over")
    }

    func testResumeDataOfAnotherFormatFails() throws {
        let session = testSession()
        let response = awaitDownload(session.download(resumingWith: Data("not resume data".utf8)))
        XCTAssertTrue(response.error?.isCreateURLRequestError == true, String(describing: response.error))
    }

    /// Resuming writes to the partial file resume data names, and removes it when it cannot be
    /// continued: resume data naming a file outside Salvo's partial-download folders, or a
    /// link inside one, is refused before anything touches that file.
    func testResumeDataNamingAFileElsewhereIsRefused() throws {
        let session = testSession()
        let victim = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-victim-\(UUID().uuidString)")
        try Data("precious".utf8).write(to: victim)
        let link = try PrivateTemporaryDirectory.folder("downloads").appendingPathComponent("\(UUID().uuidString).partial")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        defer {
            try? FileManager.default.removeItem(at: victim)
            try? FileManager.default.removeItem(at: link)
        }
        let url = try TestServers.shared.url(.fault, "/flaky-file?key=victim&size=1000&times=0")
        for path in [victim.path, link.path, "/etc/passwd", try PrivateTemporaryDirectory.folder("downloads").path + "/../x.partial"] {
            let info: [String: Any] = ["format": "org.salvo.resume-data", "version": 1, "bytes": 3, "partialFile": path,
                                       "etag": "\"flaky\"", "url": url.absoluteString]
            let resumeData = try JSONSerialization.data(withJSONObject: info)
            let response = awaitDownload(session.download(resumingWith: resumeData))
            XCTAssertTrue(response.error?.isCreateURLRequestError == true, "\(path): \(String(describing: response.error))")
        }
        XCTAssertEqual(try Data(contentsOf: victim), Data("precious".utf8))
    }

    /// The body goes to disk, never to memory: a 256 MiB download grows the peak resident
    /// set by far less than its size.
    func testLargeDownloadKeepsMemoryFlat() throws {
        let session = testSession()
        let url = try TestServers.shared.largeFile()
        let (target, destination) = self.destination("256m.bin")
        // Reset the peak (VmHWM) so earlier tests do not hide or inflate this one's.
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = try Self.residentPeakKiB()
        let response = awaitDownload(session.download(url, to: destination), timeout: 120)
        let after = try Self.residentPeakKiB()
        XCTAssertNil(response.error)
        let size = try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber
        XCTAssertEqual(size?.intValue, 256 << 20)
        XCTAssertLessThan(after - before, 64 * 1024, "peak RSS grew by \((after - before) / 1024) MiB")
    }

    static func residentPeakKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}

extension XCTestCase {
    func awaitDownload(_ request: DownloadRequest, timeout: TimeInterval = 60,
                       file: StaticString = #filePath, line: UInt = #line) -> AFDownloadResponse<URL?> {
        let done = expectation(description: "download")
        let box = Box<AFDownloadResponse<URL?>>()
        request.response(queue: .global()) { response in
            box.set(response)
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        guard let response = box.value else {
            XCTFail("no response", file: file, line: line)
            return AFDownloadResponse(request: nil, response: nil, fileURL: nil, resumeData: nil, metrics: nil,
                                      serializationDuration: 0, result: .failure(.explicitlyCancelled))
        }
        return response
    }
}
