import Foundation
import XCTest

@testable import Salvo

/// Encoding: the exact bytes of data, file and stream parts, in memory and on disk.
final class MultipartFormDataTests: XCTestCase {
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

    private func bytes(_ text: String) -> Data { Data(text.utf8) }

    // MARK: - Properties

    func testBoundaryFormatAndContentType() {
        let form = MultipartFormData()
        XCTAssertNotNil(form.boundary.wholeMatch(of: /alamofire\.boundary\.[0-9a-f]{16}/), form.boundary)
        XCTAssertNotEqual(form.boundary, MultipartFormData().boundary)
        XCTAssertEqual(form.contentType, "multipart/form-data; boundary=\(form.boundary)")

        let fixed = MultipartFormData(boundary: "b")
        XCTAssertEqual(fixed.boundary, "b")
        fixed.contentType = "multipart/mixed; boundary=b"
        XCTAssertEqual(fixed.contentType, "multipart/mixed; boundary=b")
        XCTAssertEqual(MultipartFormData.encodingMemoryThreshold, 10_000_000)
    }

    func testContentLengthCountsContentsOnly() throws {
        let form = MultipartFormData()
        form.append(bytes("Lorem ipsum."), withName: "a")
        form.append(try makeFile("f.txt", bytes("12345")), withName: "f")
        form.append(InputStream(data: bytes("xyz")), withLength: 3, name: "s", fileName: "s.bin", mimeType: "a/b")
        XCTAssertEqual(form.contentLength, 12 + 5 + 3)
        XCTAssertEqual(MultipartFormData().contentLength, 0)
    }

    // MARK: - Data parts

    func testNoPartsEncodeToNothing() throws {
        XCTAssertEqual(try MultipartFormData(boundary: "b").encode(), Data())
    }

    func testOneDataPart() throws {
        let form = MultipartFormData(boundary: "BOUNDARY")
        form.append(bytes("Lorem ipsum dolor sit amet."), withName: "data")
        XCTAssertEqual(try form.encode(), bytes(
            "--BOUNDARY\r\n"
                + "Content-Disposition: form-data; name=\"data\"\r\n\r\n"
                + "Lorem ipsum dolor sit amet."
                + "\r\n--BOUNDARY--\r\n"))
    }

    func testSeveralDataPartsWithFileNamesAndTypes() throws {
        let form = MultipartFormData(boundary: "BOUNDARY")
        form.append(bytes("français"), withName: "french")
        form.append(bytes("日本語"), withName: "japanese", mimeType: "text/plain")
        form.append(bytes("😃👍🏻"), withName: "emoji", fileName: "emoji.txt", mimeType: "text/plain; charset=utf-8")
        form.append(bytes("x"), withName: "named", fileName: "x.bin")
        XCTAssertEqual(try form.encode(), bytes(
            "--BOUNDARY\r\n"
                + "Content-Disposition: form-data; name=\"french\"\r\n\r\n"
                + "français"
                + "\r\n--BOUNDARY\r\n"
                + "Content-Disposition: form-data; name=\"japanese\"\r\n"
                + "Content-Type: text/plain\r\n\r\n"
                + "日本語"
                + "\r\n--BOUNDARY\r\n"
                + "Content-Disposition: form-data; name=\"emoji\"; filename=\"emoji.txt\"\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n\r\n"
                + "😃👍🏻"
                + "\r\n--BOUNDARY\r\n"
                + "Content-Disposition: form-data; name=\"named\"; filename=\"x.bin\"\r\n\r\n"
                + "x"
                + "\r\n--BOUNDARY--\r\n"))
    }

    func testEmptyDataPart() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(Data(), withName: "empty")
        XCTAssertEqual(try form.encode(), bytes("--b\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n--b--\r\n"))
    }

    // MARK: - File parts

    func testFilePartInfersNameAndType() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])
        let form = MultipartFormData(boundary: "b")
        form.append(try makeFile("unicorn.png", png), withName: "unicorn")
        form.append(try makeFile("Notes.TXT", bytes("hi")), withName: "notes")
        form.append(try makeFile("blob.unknownext", bytes("?")), withName: "blob")

        var expected = bytes("--b\r\nContent-Disposition: form-data; name=\"unicorn\"; filename=\"unicorn.png\"\r\n"
            + "Content-Type: image/png\r\n\r\n")
        expected += png
        expected += bytes("\r\n--b\r\nContent-Disposition: form-data; name=\"notes\"; filename=\"Notes.TXT\"\r\n"
            + "Content-Type: text/plain\r\n\r\nhi"
            + "\r\n--b\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"blob.unknownext\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n?"
            + "\r\n--b--\r\n")
        XCTAssertEqual(try form.encode(), expected)
    }

    func testFilePartWithGivenNameAndType() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(try makeFile("data.bin", bytes("abc")), withName: "upload", fileName: "report.csv", mimeType: "text/csv")
        XCTAssertEqual(try form.encode(), bytes(
            "--b\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"report.csv\"\r\n"
                + "Content-Type: text/csv\r\n\r\nabc\r\n--b--\r\n"))
    }

    func testLargeFileEncodesTheSameInMemoryAndOnDisk() throws {
        // Several chunks and a partial last one.
        let large = Data((0..<(3 * MultipartFormData.chunkSize + 123)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let form = MultipartFormData(boundary: "b")
        form.append(bytes("head"), withName: "head")
        form.append(try makeFile("large.bin", large), withName: "large")

        var expected = bytes("--b\r\nContent-Disposition: form-data; name=\"head\"\r\n\r\nhead"
            + "\r\n--b\r\nContent-Disposition: form-data; name=\"large\"; filename=\"large.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n")
        expected += large
        expected += bytes("\r\n--b--\r\n")

        XCTAssertEqual(try form.encode(), expected)
        let output = directory.appendingPathComponent("out")
        try form.writeEncodedData(to: output)
        XCTAssertEqual(try Data(contentsOf: output), expected)
    }

    // MARK: - Stream parts

    func testStreamParts() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(InputStream(data: bytes("stream one")), withLength: 10, name: "one", fileName: "one.txt",
                    mimeType: "text/plain")
        let headers: HTTPHeaders = [HTTPHeader(name: "X-Custom", value: "1"), .contentDisposition("attachment")]
        form.append(InputStream(data: bytes("two")), withLength: 3, headers: headers)
        XCTAssertEqual(try form.encode(), bytes(
            "--b\r\nContent-Disposition: form-data; name=\"one\"; filename=\"one.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nstream one"
                + "\r\n--b\r\nX-Custom: 1\r\nContent-Disposition: attachment\r\n\r\ntwo"
                + "\r\n--b--\r\n"))
    }

    func testMixedPartsWrittenToDiskMatchMemory() throws {
        func makeForm() throws -> MultipartFormData {
            let form = MultipartFormData(boundary: "mixed")
            form.append(bytes("Lorem ipsum."), withName: "lorem")
            form.append(try makeFile("photo.jpg", Data(repeating: 0xAB, count: 5000)), withName: "photo")
            form.append(InputStream(data: Data(repeating: 0xCD, count: 70_000)), withLength: 70_000, name: "video",
                        fileName: "clip.mp4", mimeType: "video/mp4")
            return form
        }
        let inMemory = try makeForm().encode()
        let output = directory.appendingPathComponent("mixed.out")
        try makeForm().writeEncodedData(to: output)
        XCTAssertEqual(try Data(contentsOf: output), inMemory)
        XCTAssertEqual(inMemory.count, 12 + 5000 + 70_000 + 3 * (5 + 6) + 5 + 6
            + "Content-Disposition: form-data; name=\"lorem\"\r\n\r\n".utf8.count
            + "Content-Disposition: form-data; name=\"photo\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8.count
            + "Content-Disposition: form-data; name=\"video\"; filename=\"clip.mp4\"\r\nContent-Type: video/mp4\r\n\r\n".utf8.count)
        let form = try makeForm()
        XCTAssertEqual(form.encodedLengthEstimate(of: try form.snapshot()), UInt64(inMemory.count))
    }

    // MARK: - MIME types

    func testMIMETypesFromExtensions() {
        let expected = [
            "png": "image/png", "JPG": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "json": "application/json",
            "txt": "text/plain", "html": "text/html", "pdf": "application/pdf", "zip": "application/zip",
            "mp4": "video/mp4", "mp3": "audio/mpeg", "svg": "image/svg+xml", "csv": "text/csv", "xyz": "application/octet-stream",
        ]
        for (pathExtension, type) in expected {
            XCTAssertEqual(MultipartFormData.mimeType(forPathExtension: pathExtension), type, pathExtension)
        }
    }
}
