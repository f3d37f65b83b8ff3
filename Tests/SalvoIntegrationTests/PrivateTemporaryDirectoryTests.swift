import XCTest
@testable import Salvo
import SalvoTestSupport

/// Partial downloads and large multipart bodies live in a folder of the process's own, made
/// new with `mkdtemp`: a folder another user made first under the old fixed name changes
/// nothing.
final class PrivateTemporaryDirectoryTests: XCTestCase {
    func testTheFolderIsNewPrivateAndOurs() throws {
        let downloads = try PrivateTemporaryDirectory.folder("downloads")
        let root = downloads.deletingLastPathComponent()
        XCTAssertEqual(root.deletingLastPathComponent().standardizedFileURL.path,
                       FileManager.default.temporaryDirectory.standardizedFileURL.path)
        XCTAssertTrue(root.lastPathComponent.hasPrefix("org.salvo."))
        XCTAssertNotEqual(root.lastPathComponent, "org.salvo.downloads")
        for folder in [root, downloads] {
            var info = stat()
            XCTAssertEqual(lstat(folder.path, &info), 0)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFDIR, folder.path)
            XCTAssertEqual(info.st_mode & 0o777, 0o700, folder.path)
            XCTAssertEqual(info.st_uid, getuid())
        }
        XCTAssertEqual(try PrivateTemporaryDirectory.folder("downloads"), downloads)
    }

    func testAFolderSomeoneElseMadeUnderTheOldNameIsNotUsed() throws {
        let squatted = FileManager.default.temporaryDirectory.appendingPathComponent("org.salvo.downloads")
        let existed = FileManager.default.fileExists(atPath: squatted.path)
        if !existed {
            // As another user would leave it: closed to this process's files.
            try FileManager.default.createDirectory(at: squatted, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o500])
        }
        defer { if !existed { try? FileManager.default.removeItem(at: squatted) } }
        let session = testSession()
        let partial = Box<URL>()
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-private-\(UUID().uuidString)")
        let response = awaitDownload(session.download(try TestServers.shared.url(.nginx, "/small"), to: { temporaryURL, _ in
            partial.set(temporaryURL)
            return (target, [])
        }))
        defer { try? FileManager.default.removeItem(at: target) }
        XCTAssertNil(response.error)
        let folder = try XCTUnwrap(partial.value).deletingLastPathComponent()
        XCTAssertEqual(folder, try PrivateTemporaryDirectory.folder("downloads"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: squatted.path), [])
    }

    func testALargeMultipartBodyIsEncodedIntoThePrivateFolder() throws {
        let form = MultipartFormData()
        form.append(Data(repeating: 1, count: 64), withName: "part")
        guard case let .file(url) = try form.encodedBody(threshold: 1) else { return XCTFail("expected a file") }
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(url.deletingLastPathComponent(), try PrivateTemporaryDirectory.folder("multipart"))
    }
}
