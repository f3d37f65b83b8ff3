import XCTest
import Salvo
import SalvoTestSupport

/// Uploads of data, files, streams and multipart forms, echoed by httpbin's /post.
final class UploadRequestTests: XCTestCase {
    private var made: [URL] = []

    override func tearDownWithError() throws {
        for url in made { try? FileManager.default.removeItem(at: url) }
        let multipart = FileManager.default.temporaryDirectory.appendingPathComponent("org.salvo.multipart").path
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: multipart)) ?? [], [], "encoded forms left behind")
    }

    private func temporaryFile(_ contents: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-upload-\(UUID().uuidString)")
        try contents.write(to: url)
        made.append(url)
        return url
    }

    private let text = String(repeating: "Salvo uploads in pieces. ", count: 4000)

    func testUploadData() throws {
        let session = testSession()
        let response = awaitData(session.upload(Data(text.utf8), to: try TestServers.shared.url(.httpbin, "/post"),
                                                headers: ["Content-Type": "text/plain"]))
        XCTAssertNil(response.error)
        XCTAssertEqual(json(response.data)["data"] as? String, text)
    }

    /// An upload of data or of a file without a Content-Type sends none, as Alamofire's
    /// upload tasks do: httpbin then reads the body as data, not as a form.
    func testAnUploadWithoutAContentTypeSendsNone() throws {
        let session = testSession()
        let file = try temporaryFile(Data(text.utf8))
        for request in [session.upload(Data(text.utf8), to: try TestServers.shared.url(.httpbin, "/post")),
                        session.upload(file, to: try TestServers.shared.url(.httpbin, "/post"))] {
            let response = awaitData(request)
            XCTAssertNil(response.error)
            let body = json(response.data)
            XCTAssertEqual(body["data"] as? String, text)
            XCTAssertNil((body["headers"] as? [String: Any])?["Content-Type"], "a Content-Type went out")
            XCTAssertEqual((body["form"] as? [String: Any])?.isEmpty, true)
        }
    }

    func testUploadFileWithPut() throws {
        let session = testSession()
        let file = try temporaryFile(Data(text.utf8))
        let response = awaitData(session.upload(file, to: try TestServers.shared.url(.httpbin, "/put"), method: .put,
                                                headers: ["Content-Type": "text/plain"]))
        XCTAssertNil(response.error)
        XCTAssertEqual(json(response.data)["data"] as? String, text)
    }

    func testUploadStream() throws {
        let session = testSession()
        let stream = InputStream(data: Data(text.utf8))
        let response = awaitData(session.upload(stream, to: try TestServers.shared.url(.httpbin, "/post"),
                                                headers: ["Content-Type": "text/plain"]))
        XCTAssertNil(response.error)
        XCTAssertEqual(json(response.data)["data"] as? String, text)
    }

    func testStreamThatFailsFailsTheRequest() throws {
        let session = testSession()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-no-such-\(UUID().uuidString)")
        let stream = try XCTUnwrap(InputStream(url: missing))
        let response = awaitData(session.upload(stream, to: try TestServers.shared.url(.httpbin, "/post")))
        XCTAssertNotNil(response.error)
        XCTAssertEqual(urlErrorCode(response.error), .cannotLoadFromNetwork, String(describing: response.error))
    }

    func testMissingFileIsCreateUploadableFailed() throws {
        let session = testSession()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-no-such-\(UUID().uuidString)")
        let response = awaitData(session.upload(missing, to: try TestServers.shared.url(.httpbin, "/post")))
        XCTAssertTrue(response.error?.isCreateUploadableError == true, String(describing: response.error))
    }

    func testMultipartInMemoryAndThroughAFile() throws {
        let session = testSession()
        let attachment = try temporaryFile(Data("file contents\n".utf8))
        for threshold in [MultipartFormData.encodingMemoryThreshold, 16] {
            let request = session.upload(multipartFormData: { form in
                form.append(Data("value".utf8), withName: "field")
                form.append(Data("ünïcödé".utf8), withName: "other")
                form.append(attachment, withName: "document", fileName: "notes.txt", mimeType: "text/plain")
            }, to: try TestServers.shared.url(.httpbin, "/post"), usingThreshold: threshold)
            let response = awaitData(request)
            XCTAssertNil(response.error)
            let body = json(response.data)
            let form = body["form"] as? [String: Any]
            XCTAssertEqual(form?["field"] as? String, "value", "threshold \(threshold)")
            XCTAssertEqual(form?["other"] as? String, "ünïcödé", "threshold \(threshold)")
            XCTAssertEqual((body["files"] as? [String: Any])?["document"] as? String, "file contents\n", "threshold \(threshold)")
            if threshold == 16 {
                guard case .file(_, shouldRemove: true)? = request.uploadable else {
                    return XCTFail("a form above the threshold is not sent from a file")
                }
            }
        }
    }

    func testMultipartFormDataInstance() throws {
        let session = testSession()
        let form = MultipartFormData()
        form.append(Data("1".utf8), withName: "a")
        form.append(Data("2".utf8), withName: "b")
        let response = awaitData(session.upload(multipartFormData: form, to: try TestServers.shared.url(.httpbin, "/post")))
        let fields = json(response.data)["form"] as? [String: String]
        XCTAssertEqual(fields, ["a": "1", "b": "2"])
    }

    func testUploadProgressEndsAtOne() throws {
        let session = testSession()
        let fractions = Collector<Double>()
        let queue = DispatchQueue(label: "progress")
        let request = session.upload(Data(count: 8 << 20), to: try TestServers.shared.url(.nginx, "/upload"))
            .uploadProgress(queue: queue) { fractions.append($0.fractionCompleted) }
        let response = awaitData(request)
        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.statusCode, 204)
        queue.sync {}
        let values = fractions.values
        XCTAssertEqual(values.last, 1.0)
        XCTAssertEqual(values.filter { $0 == 1.0 }.count, 1, "\(values)")
        XCTAssertEqual(values, values.sorted())
    }

    func testUploadRequestIsADataRequest() throws {
        let session = testSession()
        let done = expectation(description: "decoded")
        struct Echo: Decodable, Sendable { let json: [String: Int]? }
        session.upload(Data(#"{"n":1}"#.utf8), to: try TestServers.shared.url(.httpbin, "/post"),
                       headers: ["Content-Type": "application/json"])
            .validate()
            .responseDecodable(of: Echo.self, queue: .global()) { response in
                XCTAssertEqual(response.value?.json?["n"], 1, String(describing: response.error))
                done.fulfill()
            }
        wait(for: [done], timeout: 30)
    }
}

/// Retries: a body from data or a file is sent again from its start; a stream cannot be.
final class UploadRetryTests: XCTestCase {
    private func retryOnce() -> Retrier {
        Retrier { request, _, _, completion in completion(request.retryCount == 0 ? .retry : .doNotRetry) }
    }

    func testRetrySendsAFileAgain() throws {
        let session = testSession()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-retry-\(UUID().uuidString)")
        try Data(repeating: 7, count: 300_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(UUID().uuidString)&times=1")
        let response = awaitData(session.upload(file, to: url, interceptor: retryOnce()).validate())
        XCTAssertNil(response.error)
        XCTAssertEqual(json(response.data)["attempt"] as? Int, 2)
    }

    func testRetryOfAStreamFailsClearly() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(UUID().uuidString)&times=1")
        let request = session.upload(InputStream(data: Data(repeating: 7, count: 1000)), to: url, interceptor: retryOnce()).validate()
        let response = awaitData(request)
        XCTAssertEqual(urlErrorCode(response.error), .requestBodyStreamExhausted, String(describing: response.error))
    }

    func testRetriedDownloadStartsItsFileOver() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(UUID().uuidString)&times=1")
        let request = session.download(url, interceptor: retryOnce()).validate()
        let response = awaitDownload(request)
        let fileURL = try XCTUnwrap(response.fileURL, String(describing: response.error))
        defer { try? FileManager.default.removeItem(at: fileURL) }
        XCTAssertEqual(json(try Data(contentsOf: fileURL))["attempt"] as? Int, 2)
        XCTAssertEqual(request.retryCount, 1)
    }
}

/// Progress on plain data requests, which Alamofire offers on every request.
final class DataRequestProgressTests: XCTestCase {
    func testDownloadProgressOfADataRequestEndsAtOne() throws {
        let session = testSession()
        let fractions = Collector<Double>()
        let queue = DispatchQueue(label: "progress")
        let request = session.request(try TestServers.shared.url(.nginx, "/1m.bin"))
            .downloadProgress(queue: queue) { fractions.append($0.fractionCompleted) }
        let response = awaitData(request)
        XCTAssertEqual(response.data?.count, 1 << 20)
        queue.sync {}
        XCTAssertEqual(fractions.values.last, 1.0)
        XCTAssertEqual(fractions.values.filter { $0 == 1.0 }.count, 1)
    }

    func testFailedRequestGetsNoFinalProgress() throws {
        let session = testSession()
        let fractions = Collector<Double>()
        let queue = DispatchQueue(label: "progress")
        let request = session.request(try TestServers.shared.url(.fault, "/truncate"))
            .downloadProgress(queue: queue) { fractions.append($0.fractionCompleted) }
        XCTAssertNotNil(awaitData(request).error)
        queue.sync {}
        XCTAssertFalse(fractions.values.contains(1.0))
    }
}
