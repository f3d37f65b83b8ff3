import XCTest
@testable import Salvo
import SalvoTestSupport

/// A name a server suggests (a URL's last path component, percent-decoded, or a
/// `Content-Disposition` parameter) never leads a download out of its directory, and a
/// destination that names a directory is refused rather than replaced.
final class DownloadNameSafetyTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-name-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("a/b/dir"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    // MARK: The sanitiser

    func testNamesAreReducedToOneSafeComponent() {
        XCTAssertEqual(NetworkFileName.sanitized("../../../x"), "x")
        XCTAssertEqual(NetworkFileName.sanitized("/etc/passwd"), "passwd")
        XCTAssertEqual(NetworkFileName.sanitized("..\\..\\boot.ini"), "boot.ini")
        XCTAssertEqual(NetworkFileName.sanitized("re\u{0}port\u{7}.pdf"), "report.pdf")
        XCTAssertEqual(NetworkFileName.sanitized("evil\u{202E}fdp.exe"), "evilfdp.exe")
        XCTAssertEqual(NetworkFileName.sanitized("  spaced name.txt  "), "spaced name.txt")
        // A separator followed by a combining mark is still a separator (found by fuzzing).
        XCTAssertEqual(NetworkFileName.sanitized("../\u{301}evil"), "\u{301}evil")
        XCTAssertEqual(NetworkFileName.sanitized("..\\\u{301}evil"), "\u{301}evil")
        XCTAssertEqual(NetworkFileName.sanitized("report.pdf"), "report.pdf")
        for unusable in ["", ".", "..", "/", "a/..", "x/", "\u{1}\u{2}", "   "] {
            XCTAssertNil(NetworkFileName.sanitized(unusable), unusable.debugDescription)
        }
        let long = String(repeating: "é", count: 300) + ".tar.gz"
        let cut = NetworkFileName.sanitized(long)!
        XCTAssertLessThanOrEqual(cut.utf8.count, NetworkFileName.maximumLength)
        XCTAssertTrue(cut.hasSuffix(".gz"))
    }

    func testContentDispositionPrefersTheExtendedName() {
        XCTAssertEqual(NetworkFileName.fromContentDisposition("attachment; filename=\"../../evil\""), "evil")
        XCTAssertEqual(NetworkFileName.fromContentDisposition("attachment; filename=plain.txt; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf"), "résumé.pdf")
        XCTAssertEqual(NetworkFileName.fromContentDisposition("attachment; filename*=UTF-8''..%2F..%2Fx"), "x")
        XCTAssertEqual(NetworkFileName.fromContentDisposition("attachment; filename*=UTF-8''..%2F%CC%81evil"), "\u{301}evil")
        XCTAssertEqual(NetworkFileName.fromContentDisposition("attachment; filename=\"..\"; filename*=UTF-8''%2e%2e"), nil)
        XCTAssertNil(NetworkFileName.fromContentDisposition("inline"))
    }

    // MARK: Downloads

    private func suggested(in directory: URL, options: DownloadRequest.Options = []) -> DownloadRequest.Destination {
        let base = DownloadRequest.suggestedDownloadDestination(for: .cachesDirectory, options: options)
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first!.path
        return { temporaryURL, response in
            // The suggested path below the user's caches, moved under the test's directory
            // as it is, climbing components included.
            let (suggested, options) = base(temporaryURL, response)
            let relative = String(suggested.path.dropFirst(caches.count + 1))
            return (directory.appendingPathComponent(relative), options)
        }
    }

    func testAnEncodedPathInTheURLStaysInTheDirectory() throws {
        let session = testSession()
        let directory = scratch.appendingPathComponent("a/b/dir")
        let url = try TestServers.shared.url(.fault, "/plain/..%2F..%2F..%2Fescaped")
        let response = awaitDownload(session.download(url, to: suggested(in: directory)))
        XCTAssertNil(response.error)
        XCTAssertEqual(response.fileURL, directory.appendingPathComponent("escaped"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("escaped").path))
    }

    func testTheSuggestedDestinationNeverNamesItsDirectoryOrItsParent() throws {
        let session = testSession()
        let suggestion = DownloadRequest.suggestedDownloadDestination(for: .cachesDirectory, options: .removePreviousFile)
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first!
        for path in ["/plain/%2e%2e", "/plain/..", "/plain/%2e"] {
            let chosen = Box<URL>()
            let destination: DownloadRequest.Destination = { [scratch] temporaryURL, response in
                chosen.set(suggestion(temporaryURL, response).destinationURL)
                // Not written there: the test only reads which name was chosen.
                return (scratch!.appendingPathComponent("probe"), [.removePreviousFile])
            }
            _ = awaitDownload(session.download(try TestServers.shared.url(.fault, path), to: destination))
            let url = try XCTUnwrap(chosen.value, path)
            XCTAssertEqual(url.deletingLastPathComponent().standardizedFileURL.path, caches.standardizedFileURL.path, path)
            XCTAssertFalse([".", "..", ""].contains(url.lastPathComponent), "\(path): \(url.path)")
        }
    }

    func testAContentDispositionPathStaysInTheDirectory() throws {
        let session = testSession()
        let directory = scratch.appendingPathComponent("a/b/dir")
        for (header, name) in [("attachment; filename=\"../../cd-escape\"", "cd-escape"),
                               ("attachment; filename*=UTF-8''..%2F..%2Fext-escape", "ext-escape")] {
            let cd = header.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let url = try TestServers.shared.url(.fault, "/plain/file?cd=\(cd)")
            let response = awaitDownload(session.download(url, to: suggested(in: directory)))
            XCTAssertNil(response.error)
            XCTAssertEqual(response.fileURL, directory.appendingPathComponent(name))
            XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("a/\(name)").path))
        }
    }

    func testRemovePreviousFileNeverRemovesADirectory() throws {
        let session = testSession()
        let directory = scratch.appendingPathComponent("a/b/dir")
        try Data("keep".utf8).write(to: directory.appendingPathComponent("inside"))
        let url = try TestServers.shared.url(.fault, "/plain/x")
        for target in [directory, directory.appendingPathComponent(".."), directory.appendingPathComponent(".")] {
            let response = awaitDownload(session.download(url, to: { _, _ in (target, [.removePreviousFile]) }))
            XCTAssertTrue(response.error?.isDownloadedFileMoveError == true, "\(target.path): \(String(describing: response.error))")
            XCTAssertNil(response.fileURL)
        }
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent("inside")), Data("keep".utf8))
    }
}
