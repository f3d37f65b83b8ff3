import Foundation
import XCTest

@testable import Salvo

/// Failures, the choice between memory and a temporary file, and use from several threads.
final class MultipartFormDataErrorTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("salvo-multipart-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func makeFile(_ name: String, _ contents: Data) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    /// The reason of the `multipartEncodingFailed` error `body` throws.
    private func reason(_ body: () throws -> Void, line: UInt = #line) -> AFError.MultipartEncodingFailureReason? {
        do {
            try body()
            XCTFail("no error thrown", line: line)
        } catch let AFError.multipartEncodingFailed(reason) {
            return reason
        } catch {
            XCTFail("unexpected error \(error)", line: line)
        }
        return nil
    }

    private func assertLengthMismatch(_ reason: AFError.MultipartEncodingFailureReason?, expected: UInt64, read: UInt64,
                                      line: UInt = #line) {
        guard case let .inputStreamReadFailed(error as AFError.UnexpectedInputStreamLength) = reason else {
            return XCTFail("unexpected reason \(String(describing: reason))", line: line)
        }
        XCTAssertEqual(error.bytesExpected, expected, line: line)
        XCTAssertEqual(error.bytesRead, read, line: line)
    }

    // MARK: - Appending files

    func testFileURLWithoutExtensionHasNoValidFileName() {
        let url = directory.appendingPathComponent("noextension")
        let form = MultipartFormData()
        form.append(url, withName: "file")
        guard case let .bodyPartFilenameInvalid(in: failing) = reason({ _ = try form.encode() }) else { return XCTFail() }
        XCTAssertEqual(failing, url)
    }

    func testRemoteURLIsNotAFileURL() {
        let url = URL(string: "https://example.com/image.jpg")!
        let form = MultipartFormData()
        form.append(url, withName: "file")
        guard case let .bodyPartURLInvalid(url: failing) = reason({ _ = try form.encode() }) else { return XCTFail() }
        XCTAssertEqual(failing, url)
        XCTAssertEqual(AFError.multipartEncodingFailed(reason: .bodyPartURLInvalid(url: url)).url, url)
    }

    func testMissingFileIsNotReachable() {
        let url = directory.appendingPathComponent("does_not_exist.jpg")
        let form = MultipartFormData()
        form.append(url, withName: "file")
        guard case let .bodyPartFileNotReachableWithError(atURL: failing, error: error) = reason({ _ = try form.encode() })
        else { return XCTFail() }
        XCTAssertEqual(failing, url)
        XCTAssertEqual((error as NSError).code, CocoaError.fileReadNoSuchFile.rawValue)
    }

    func testDirectoryIsRejected() {
        let form = MultipartFormData()
        form.append(directory, withName: "dir", fileName: "dir", mimeType: "application/octet-stream")
        guard case let .bodyPartFileIsDirectory(at: failing) = reason({ _ = try form.encode() }) else { return XCTFail() }
        XCTAssertEqual(failing, directory)
    }

    func testFirstErrorWinsAndIsThrownByBothEncoders() throws {
        let form = MultipartFormData()
        form.append(Data("ok".utf8), withName: "ok")
        form.append(URL(string: "https://example.com/a.png")!, withName: "remote")
        form.append(directory, withName: "dir", fileName: "d", mimeType: "a/b")
        guard case .bodyPartURLInvalid = reason({ _ = try form.encode() }) else { return XCTFail() }
        let output = directory.appendingPathComponent("out")
        guard case .bodyPartURLInvalid = reason({ try form.writeEncodedData(to: output) }) else { return XCTFail() }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    // MARK: - Lengths

    func testStreamShorterOrLongerThanDeclared() {
        let short = MultipartFormData()
        short.append(InputStream(data: Data("12345".utf8)), withLength: 10, name: "s", fileName: "s", mimeType: "a/b")
        assertLengthMismatch(reason { _ = try short.encode() }, expected: 10, read: 5)

        let long = MultipartFormData()
        long.append(InputStream(data: Data(count: 200_000)), withLength: 3, name: "l", fileName: "l", mimeType: "a/b")
        assertLengthMismatch(reason { _ = try long.encode() }, expected: 3, read: 200_000)
    }

    func testStreamCanBeEncodedOnce() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(Data("data".utf8), withName: "d")
        form.append(InputStream(data: Data("abc".utf8)), withLength: 3, name: "s", fileName: "s", mimeType: "a/b")
        _ = try form.encode()
        assertLengthMismatch(reason { _ = try form.encode() }, expected: 3, read: 0)
    }

    func testDataAndFilePartsCanBeEncodedAgain() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(Data("data".utf8), withName: "d")
        form.append(try makeFile("f.txt", Data("file".utf8)), withName: "f")
        XCTAssertEqual(try form.encode(), try form.encode())
    }

    func testFileChangedAfterAppending() throws {
        let url = try makeFile("shrinks.txt", Data("0123456789".utf8))
        let form = MultipartFormData()
        form.append(url, withName: "f")
        try Data("0123".utf8).write(to: url)
        assertLengthMismatch(reason { _ = try form.encode() }, expected: 10, read: 4)

        try FileManager.default.removeItem(at: url)
        guard case let .inputStreamReadFailed(error as POSIXError) = reason({ _ = try form.encode() }) else {
            return XCTFail()
        }
        XCTAssertEqual(error.code, .ENOENT)
    }

    func testUnreadableStreamFails() {
        let stream = InputStream(url: directory.appendingPathComponent("missing"))!
        let form = MultipartFormData()
        form.append(stream, withLength: 1, name: "s", fileName: "s", mimeType: "a/b")
        guard case .inputStreamReadFailed(error: is POSIXError) = reason({ _ = try form.encode() }) else { return XCTFail() }
    }

    // MARK: - Output file

    func testOutputFileMustNotExist() throws {
        let output = try makeFile("exists", Data("keep".utf8))
        let form = MultipartFormData()
        form.append(Data("x".utf8), withName: "x")
        guard case let .outputStreamFileAlreadyExists(at: failing) = reason({ try form.writeEncodedData(to: output) })
        else { return XCTFail() }
        XCTAssertEqual(failing, output)
        XCTAssertEqual(try Data(contentsOf: output), Data("keep".utf8))
    }

    func testOutputURLMustBeAFileURL() {
        let output = URL(string: "/this/is/not/a/valid/url")!
        let form = MultipartFormData()
        form.append(Data("x".utf8), withName: "x")
        guard case .outputStreamURLInvalid(url: output) = reason({ try form.writeEncodedData(to: output) }) else {
            return XCTFail()
        }
    }

    func testOutputInMissingDirectoryCannotBeCreated() {
        let output = directory.appendingPathComponent("missing/out")
        let form = MultipartFormData()
        form.append(Data("x".utf8), withName: "x")
        guard case .outputStreamCreationFailed(for: output) = reason({ try form.writeEncodedData(to: output) }) else {
            return XCTFail()
        }
    }

    func testPartialOutputIsRemovedOnFailure() {
        let output = directory.appendingPathComponent("partial")
        let form = MultipartFormData()
        form.append(Data(count: 100_000), withName: "big")
        form.append(InputStream(data: Data("ab".utf8)), withLength: 5, name: "s", fileName: "s", mimeType: "a/b")
        assertLengthMismatch(reason { try form.writeEncodedData(to: output) }, expected: 5, read: 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    // MARK: - Memory or temporary file

    func testBelowThresholdEncodesInMemory() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(Data("12345".utf8), withName: "n")
        XCTAssertEqual(try form.encodedBody(threshold: 6), .data(try form.encode()))
        XCTAssertEqual(try form.encodedBody(), .data(try form.encode()))
    }

    func testAtThresholdWritesATemporaryFile() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(Data("12345".utf8), withName: "n")
        form.append(try makeFile("f.txt", Data("67890".utf8)), withName: "f")
        guard case let .file(url) = try form.encodedBody(threshold: 10) else { return XCTFail("expected a file") }
        defer { try? FileManager.default.removeItem(at: url) }

        // In the process's private folder (`PrivateTemporaryDirectory`): TMPDIR/org.salvo.XXXXXX/multipart.
        XCTAssertEqual(url.deletingLastPathComponent().lastPathComponent, "multipart")
        let privateFolder = url.deletingLastPathComponent().deletingLastPathComponent()
        XCTAssertTrue(privateFolder.lastPathComponent.hasPrefix("org.salvo."))
        XCTAssertEqual(privateFolder.deletingLastPathComponent().standardizedFileURL.path,
                       FileManager.default.temporaryDirectory.standardizedFileURL.path)
        XCTAssertEqual(try Data(contentsOf: url), try form.encode())
        let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(permissions?.intValue, 0o600)
    }

    func testFailedTemporaryFileIsRemoved() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("org.salvo.multipart")
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [])
        let form = MultipartFormData()
        form.append(InputStream(data: Data("ab".utf8)), withLength: 5, name: "s", fileName: "s", mimeType: "a/b")
        assertLengthMismatch(reason { _ = try form.encodedBody(threshold: 0) }, expected: 5, read: 2)
        let after = Set((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [])
        XCTAssertTrue(after.subtracting(before).isEmpty)
    }

    // MARK: - Threads

    func testConcurrentAppendsAndEncodes() throws {
        let form = MultipartFormData(boundary: "b")
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            form.append(Data("\(index)".utf8), withName: "n\(index)")
        }
        XCTAssertEqual(form.contentLength, UInt64((0..<100).map { "\($0)".utf8.count }.reduce(0, +)))
        let expected = try form.encode()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            XCTAssertEqual(try? form.encode(), expected)
        }
    }

    func testEncodesFromAnotherTask() async throws {
        let form = MultipartFormData(boundary: "b")
        form.append(Data("x".utf8), withName: "x")
        let encoded = try await Task.detached { try form.encode() }.value
        XCTAssertEqual(encoded, Data("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nx\r\n--b--\r\n".utf8))
    }
}
