import XCTest
@testable import Salvo
import SalvoTestSupport

/// Downloads to files against nginx, httpbin and the fault server: bytes, destinations,
/// failures that leave nothing behind, resuming, progress and memory.
final class DownloadRequestTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-download-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
        // Whatever a test did, no partial download may be left behind.
        XCTAssertEqual(Self.partialFiles(), [], "partial downloads left behind")
    }

    static func partialFiles() -> [String] {
        guard let directory = try? PrivateTemporaryDirectory.folder("downloads") else { return ["(no folder)"] }
        return (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    private func destination(_ name: String, options: DownloadRequest.Options = []) -> DownloadRequest.Destination {
        let url = scratch.appendingPathComponent(name)
        return { _, _ in (url, options) }
    }

    // MARK: Bytes and destinations

    func testDownloadIsByteIdenticalAndProgressEndsAtOne() throws {
        let session = testSession()
        let fractions = Collector<Double>()
        let progressQueue = DispatchQueue(label: "progress")
        let request = session.download(try TestServers.shared.url(.nginx, "/1m.bin"), to: destination("1m.bin"))
            .downloadProgress(queue: progressQueue) { fractions.append($0.fractionCompleted) }
        let response = awaitDownload(request)
        XCTAssertNil(response.error)
        let fileURL = try XCTUnwrap(response.fileURL)
        XCTAssertEqual(fileURL, scratch.appendingPathComponent("1m.bin"))
        XCTAssertEqual(try Data(contentsOf: fileURL), try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("1m.bin")))
        progressQueue.sync {}
        let values = fractions.values
        XCTAssertEqual(values.last, 1.0)
        XCTAssertEqual(values.filter { $0 == 1.0 }.count, 1, "\(values)")
        XCTAssertEqual(values, values.sorted(), "progress went backwards: \(values)")
    }

    /// Under a content encoding the file grows by decoded bytes while the Content-Length counts
    /// encoded ones: progress counts what libcurl counts, so it is measured against the
    /// Content-Length (it once added decoded bytes to the total as "bytes held before").
    func testDownloadProgressOfAnEncodedBodyCountsItsEncodedBytes() throws {
        let session = testSession()
        let totals = Collector<Int64>()
        let fractions = Collector<Double>()
        let progressQueue = DispatchQueue(label: "progress")
        let request = session.download(try TestServers.shared.url(.fault, "/gzip-slow?chunks=6&interval=60"), to: destination("gzip.txt"))
            .downloadProgress(queue: progressQueue) { progress in
                totals.append(progress.totalUnitCount)
                fractions.append(progress.fractionCompleted)
            }
        let response = awaitDownload(request)
        XCTAssertNil(response.error)
        let encodedLength = try XCTUnwrap(Int64(response.response?.value(forHTTPHeaderField: "Content-Length") ?? ""))
        let file = try Data(contentsOf: try XCTUnwrap(response.fileURL))
        XCTAssertGreaterThan(Int64(file.count), encodedLength * 10, "the body was decoded")
        progressQueue.sync {}
        XCTAssertGreaterThan(totals.values.count, 2, "updates came while the body arrived: \(fractions.values)")
        XCTAssertEqual(Set(totals.values.dropLast()), [encodedLength], "\(totals.values)")
        XCTAssertEqual(fractions.values, fractions.values.sorted(), "\(fractions.values)")
        XCTAssertEqual(fractions.values.last, 1.0)
    }

    func testDefaultDestinationIsANewFileInTheTemporaryDirectory() throws {
        let session = testSession()
        let response = awaitDownload(session.download(try TestServers.shared.url(.nginx, "/small")))
        let fileURL = try XCTUnwrap(response.value ?? nil, String(describing: response.error))
        defer { try? FileManager.default.removeItem(at: fileURL) }
        XCTAssertEqual(fileURL.deletingLastPathComponent().standardizedFileURL.path,
                       FileManager.default.temporaryDirectory.standardizedFileURL.path)
        XCTAssertEqual(try Data(contentsOf: fileURL), try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small")))
    }

    func testADestinationOnAnotherFileSystemGetsTheWholeFileUnderItsNameAlone() throws {
        // /dev/shm is a tmpfs, the temporary folder of partial downloads is not: the file is
        // copied across, to a hidden name first.
        let folder = URL(fileURLWithPath: "/dev/shm/salvo-download-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var shm = stat(), partials = stat()
        XCTAssertEqual(stat(folder.path, &shm), 0)
        XCTAssertEqual(stat(try PrivateTemporaryDirectory.folder("downloads").path, &partials), 0)
        XCTAssertNotEqual(shm.st_dev, partials.st_dev, "the test needs /dev/shm on another file system than TMPDIR")
        let target = folder.appendingPathComponent("1m.bin")
        let session = testSession()
        let url = try TestServers.shared.url(.nginx, "/1m.bin")
        let original = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("1m.bin"))

        let response = awaitDownload(session.download(url, to: { _, _ in (target, []) }))
        XCTAssertNil(response.error)
        XCTAssertEqual(response.fileURL, target)
        XCTAssertEqual(try Data(contentsOf: target), original)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["1m.bin"])

        // A second download to the same name fails as FileManager's move does, and leaves the
        // first file and nothing else.
        let refused = awaitDownload(session.download(url, to: { _, _ in (target, []) }))
        guard case .downloadedFileMoveFailed(let error, _, let destination)? = refused.error else {
            return XCTFail("\(String(describing: refused.error))")
        }
        XCTAssertEqual((error as? CocoaError)?.code, .fileWriteFileExists)
        XCTAssertEqual(destination, target)
        XCTAssertEqual(try Data(contentsOf: target), original)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["1m.bin"])
    }

    func testDestinationOptions() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.nginx, "/small")
        let original = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small"))

        // A missing directory is an error without .createIntermediateDirectories...
        let missing = awaitDownload(session.download(url, to: destination("a/b/small")))
        XCTAssertTrue(missing.error?.isDownloadedFileMoveError == true, String(describing: missing.error))
        XCTAssertNil(missing.fileURL)
        // ...and is made with it.
        let made = awaitDownload(session.download(url, to: destination("a/b/small", options: .createIntermediateDirectories)))
        XCTAssertNil(made.error)
        XCTAssertEqual(try Data(contentsOf: scratch.appendingPathComponent("a/b/small")), original)

        // An existing file stays unless .removePreviousFile.
        let existing = scratch.appendingPathComponent("existing")
        try Data("keep me".utf8).write(to: existing)
        let refused = awaitDownload(session.download(url, to: destination("existing")))
        XCTAssertTrue(refused.error?.isDownloadedFileMoveError == true, String(describing: refused.error))
        XCTAssertEqual(try Data(contentsOf: existing), Data("keep me".utf8))
        let replaced = awaitDownload(session.download(url, to: destination("existing", options: .removePreviousFile)))
        XCTAssertNil(replaced.error)
        XCTAssertEqual(try Data(contentsOf: existing), original)
    }

    func testSuggestedDestinationUsesTheURLName() throws {
        let session = testSession()
        let base = DownloadRequest.suggestedDownloadDestination(for: .cachesDirectory)
        let redirected: DownloadRequest.Destination = { [scratch] temporaryURL, response in
            let (suggested, options) = base(temporaryURL, response)
            return (scratch!.appendingPathComponent(suggested.lastPathComponent), options)
        }
        let response = awaitDownload(session.download(try TestServers.shared.url(.nginx, "/100k.bin"), to: redirected))
        XCTAssertEqual(response.fileURL?.lastPathComponent, "100k.bin")
    }

    // MARK: Failures leave nothing behind

    func testTruncatedBodyFailsAndLeavesNoFile() throws {
        let session = testSession()
        let response = awaitDownload(session.download(try TestServers.shared.url(.fault, "/truncate"), to: destination("truncated")))
        XCTAssertEqual(urlErrorCode(response.error), .networkConnectionLost, String(describing: response.error))
        XCTAssertNil(response.fileURL)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("truncated").path))
    }

    func testFailedValidationLeavesNoFile() throws {
        let session = testSession()
        let request = session.download(try TestServers.shared.url(.httpbin, "/status/404"), to: destination("invalid")).validate()
        let response = awaitDownload(request)
        XCTAssertTrue(response.error?.isResponseValidationError == true, String(describing: response.error))
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("invalid").path))
    }

    func testContentTypeValidationUsesTheAcceptHeader() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.httpbin, "/json")
        let refused = awaitDownload(session.download(url, headers: [.accept("text/html")], to: destination("refused")).validate())
        guard case let .responseValidationFailed(reason: .unacceptableContentType(acceptable, actual))? = refused.error else {
            return XCTFail("expected unacceptableContentType, got \(String(describing: refused.error))")
        }
        XCTAssertEqual(acceptable, ["text/html"])
        XCTAssertEqual(actual, "application/json")
        let accepted = awaitDownload(session.download(url, headers: [.accept("application/*")], to: destination("accepted")).validate())
        XCTAssertNil(accepted.error)
        let plain = awaitDownload(session.download(url, to: destination("plain")).validate())
        XCTAssertNil(plain.error, "without Accept, any type passes")
    }

    /// A validator reads the file where `request.fileURL` says it is, as in Alamofire, and a
    /// data validator sees the body.
    func testValidatorsSeeTheFileAndTheData() throws {
        let session = testSession()
        let small = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small"))
        let box = Box<DownloadRequest>()
        let seen = Box<Data>()
        let request = session.download(try TestServers.shared.url(.nginx, "/small"), to: destination("validated")).validate { _, _, _ in
            guard let url = box.value?.fileURL, let contents = try? Data(contentsOf: url) else {
                return .failure(AFError.responseValidationFailed(reason: .dataFileNil))
            }
            seen.set(contents)
            return .success(())
        }
        box.set(request)
        let response = awaitDownload(request)
        XCTAssertNil(response.error, String(describing: response.error))
        XCTAssertEqual(seen.value, small)
        XCTAssertEqual(response.fileURL, scratch.appendingPathComponent("validated"))

        let dataRequest = session.request(try TestServers.shared.url(.nginx, "/small")).validate { _, _, data in
            data == small ? .success(()) : .failure(AFError.responseValidationFailed(reason: .dataFileNil))
        }
        XCTAssertNil(awaitData(dataRequest).error)
    }

    /// A download with the caller's own `Range`, redirected: the second hop starts the file
    /// over (it once cut the file back to the range's start, a file that was not resumed).
    func testACallersRangeThroughARedirect() throws {
        let session = testSession()
        let target = try TestServers.shared.url(.nginx, "/small")
        let request = session.download(try TestServers.shared.redirect(to: target.absoluteString), headers: ["Range": "bytes=50-"], to: destination("ranged"))
        let response = awaitDownload(request)
        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.statusCode, 206)
        let small = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small"))
        XCTAssertEqual(try Data(contentsOf: scratch.appendingPathComponent("ranged")), small.dropFirst(50))
    }

    /// A cancel that lands while the finished file is being moved into place (here from the
    /// destination closure itself) wins, as the request reports: no file is left at the
    /// destination, and the response says cancelled.
    func testACancelDuringTheMoveIntoPlaceLeavesNoFile() throws {
        let session = testSession()
        let target = scratch.appendingPathComponent("cancelled-at-the-end")
        let box = Box<DownloadRequest>()
        let request = session.download(try TestServers.shared.url(.nginx, "/small"), to: { _, _ in
            box.value?.cancel()
            return (target, [])
        })
        box.set(request)
        let response = awaitDownload(request)
        XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, String(describing: response.error))
        XCTAssertNil(response.fileURL)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "a cancelled download left its file")
    }

    func testCancelWithoutValidatorsMakesNoResumeDataAndLeavesNoFile() throws {
        let session = testSession()
        // The fault server sends no ETag or Last-Modified: nothing to resume against.
        let url = try TestServers.shared.url(.fault, "/slow-body?chunks=100&interval=100")
        let request = session.download(url, to: destination("stalled"))
        request.onFirstBytes { request.cancel(producingResumeData: true) }
        let response = awaitDownload(request)
        XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, String(describing: response.error))
        XCTAssertNil(response.resumeData)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("stalled").path))
    }

    // MARK: Serializers

    func testSerializersReadTheFile() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.httpbin, "/json")
        let done = expectation(description: "serialized")
        done.expectedFulfillmentCount = 3
        session.download(url, to: destination("a.json", options: .removePreviousFile)).responseData(queue: .global()) { response in
            XCTAssertGreaterThan(response.value?.count ?? 0, 0, String(describing: response.error))
            done.fulfill()
        }
        session.download(url, to: destination("b.json")).responseString(queue: .global()) { response in
            XCTAssertTrue(response.value?.contains("slideshow") == true, String(describing: response.error))
            done.fulfill()
        }
        struct Show: Decodable, Sendable { struct Inner: Decodable, Sendable { let title: String }; let slideshow: Inner }
        session.download(url, to: destination("c.json")).responseDecodable(of: Show.self, queue: .global()) { response in
            XCTAssertEqual(response.value?.slideshow.title, "Sample Slide Show", String(describing: response.error))
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
    }

    func testResponseURL() throws {
        let session = testSession()
        let done = expectation(description: "url")
        session.download(try TestServers.shared.url(.nginx, "/small"), to: destination("small")).responseURL(queue: .global()) { [scratch] response in
            XCTAssertEqual(response.value, scratch!.appendingPathComponent("small"))
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
    }
}

extension DownloadRequest {
    /// Runs `body` once the first byte of the response body has been written.
    func onFirstBytes(_ body: @escaping @Sendable () -> Void) {
        let once = Box<Bool>()
        downloadProgress(queue: .global()) { _ in
            guard once.value == nil else { return }
            once.set(true)
            body()
        }
    }
}

/// The async/await side of downloads.
final class DownloadConcurrencyTests: XCTestCase {
    func testSerializingDownloadedFileURLAndData() async throws {
        let session = testSession()
        let url = try TestServers.shared.url(.nginx, "/100k.bin")
        let original = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("100k.bin"))
        let fileURL = try await session.download(url).serializingDownloadedFileURL().value
        defer { try? FileManager.default.removeItem(at: fileURL) }
        XCTAssertEqual(try Data(contentsOf: fileURL), original)

        let task = session.download(url).serializingData()
        let data = try await task.value
        XCTAssertEqual(data, original)
        if let other = await task.response.fileURL { try? FileManager.default.removeItem(at: other) }
    }

    /// Any `ResponseSerializer` serializes a download, its static members included, as in
    /// Alamofire: `serializingDownload(using: .data)`, `.string`.
    func testSerializingDownloadTakesAnyResponseSerializer() async throws {
        let session = testSession()
        let url = try TestServers.shared.url(.nginx, "/small")
        let original = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small"))
        let task = session.download(url).serializingDownload(using: .data)
        let data = try await task.value
        XCTAssertEqual(data, original)
        if let file = await task.response.fileURL { try? FileManager.default.removeItem(at: file) }
        let textTask = session.download(url).serializingDownload(using: .string)
        let text = try await textTask.value
        XCTAssertEqual(text, String(decoding: original, as: UTF8.self))
        if let file = await textTask.response.fileURL { try? FileManager.default.removeItem(at: file) }
    }

    func testModuleLevelDownloadAndUpload() async throws {
        let fileURL = try await Salvo.download(try TestServers.shared.url(.nginx, "/small")).serializingDownloadedFileURL().value
        try? FileManager.default.removeItem(at: fileURL)
        let echoed = try await Salvo.upload(Data("hi".utf8), to: try TestServers.shared.url(.httpbin, "/post"), headers: ["Content-Type": "text/plain"]).serializingData().value
        XCTAssertEqual(json(echoed)["data"] as? String, "hi")
    }
}
