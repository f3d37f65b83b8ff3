import XCTest
@testable import Salvo

/// Moving a finished download into place: the bytes and mode arrive, an existing name is never
/// replaced, and the errors are `FileManager`'s.
final class DownloadedFileMoveTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-move-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func file(_ name: String, _ bytes: Data, mode: Int = 0o600) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try bytes.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    private var listing: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    func testAMoveGivesTheFileItsNewNameAndRemovesTheOld() throws {
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let source = try file("source", bytes)
        let target = folder.appendingPathComponent("target").path
        try DownloadedFileMove.move(source, to: target)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), bytes)
        XCTAssertEqual(listing, ["target"])
    }

    func testTheCopyAcrossFileSystemsKeepsBytesAndModeAndLeavesNoHiddenFile() throws {
        let bytes = Data((0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let source = try file("source", bytes, mode: 0o640)
        let target = folder.appendingPathComponent("target").path
        try DownloadedFileMove.copyAcrossFileSystems(source, to: target)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), bytes)
        let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o640)
        XCTAssertEqual(listing, ["source", "target"], "the source is removed by move(_:to:), not by the copy")
    }

    func testAnExistingDestinationIsNeverReplaced() throws {
        let source = try file("source", Data("new".utf8))
        let target = try file("target", Data("old".utf8))
        XCTAssertThrowsError(try DownloadedFileMove.move(source, to: target)) { error in
            XCTAssertEqual((error as? CocoaError)?.code, .fileWriteFileExists)
            XCTAssertEqual((error as? CocoaError)?.filePath, target)
        }
        XCTAssertThrowsError(try DownloadedFileMove.copyAcrossFileSystems(source, to: target)) { error in
            XCTAssertEqual((error as? CocoaError)?.code, .fileWriteFileExists)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), Data("old".utf8))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: source)), Data("new".utf8))
        XCTAssertEqual(listing, ["source", "target"], "no hidden copy stays behind")
    }

    func testEachWayOfRenamingRefusesAnExistingNameAndMovesOtherwise() throws {
        let ways: [(String, (String, String) -> Int32)] = [
            ("renameat2 or the next way", DownloadedFileMove.renameIfAbsent),
            ("hard link", DownloadedFileMove.linkOrRename),
            ("check and rename", DownloadedFileMove.checkAndRename),
        ]
        for (index, (name, way)) in ways.enumerated() {
            let source = try file("source-\(index)", Data(name.utf8))
            let taken = try file("taken-\(index)", Data("old".utf8))
            XCTAssertEqual(way(source, taken), EEXIST, name)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: taken)), Data("old".utf8), name)
            let dangling = folder.appendingPathComponent("dangling-\(index)").path
            try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "/nonexistent/salvo")
            XCTAssertEqual(way(source, dangling), EEXIST, "\(name): a link pointing nowhere is a name too")
            let target = folder.appendingPathComponent("target-\(index)").path
            XCTAssertEqual(way(source, target), 0, name)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), Data(name.utf8), name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: source), name)
        }
    }

    func testLinkErrorsOfFileSystemsWithoutLinksFallBackToRename() {
        // FUSE and network file systems answer link() with these; a rename may still work.
        for code in [EPERM, ENOSYS, EOPNOTSUPP, EMLINK, EACCES, EINVAL] {
            XCTAssertFalse(DownloadedFileMove.destinationIsAtFault(code), "\(code)")
        }
        for code in [EEXIST, EXDEV, ENOENT, ENOTDIR, ENAMETOOLONG, EROFS, ENOSPC] {
            XCTAssertTrue(DownloadedFileMove.destinationIsAtFault(code), "\(code)")
        }
    }

    func testFailedMovesLeaveNoDescriptorOpen() throws {
        let source = try file("source", Data(repeating: 7, count: 200_000))
        let taken = try file("taken", Data("old".utf8))
        let missing = folder.appendingPathComponent("missing/target").path
        for _ in 0..<20 {
            XCTAssertThrowsError(try DownloadedFileMove.copyAcrossFileSystems(source, to: taken))
            XCTAssertThrowsError(try DownloadedFileMove.copyAcrossFileSystems(source, to: missing))
            XCTAssertThrowsError(try DownloadedFileMove.move(source, to: taken))
        }
        // Only this test's own files matter: other descriptors come and go with other work.
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
        }
        XCTAssertEqual(open.filter { $0.hasPrefix(folder.path) }, [])
        XCTAssertEqual(listing, ["source", "taken"])
    }

    func testAMissingFolderIsNoSuchFile() throws {
        let source = try file("source", Data("bytes".utf8))
        let target = folder.appendingPathComponent("missing/target").path
        XCTAssertThrowsError(try DownloadedFileMove.move(source, to: target)) { error in
            XCTAssertEqual((error as? CocoaError)?.code, .fileNoSuchFile)
            XCTAssertNotNil((error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError)
        }
        XCTAssertThrowsError(try DownloadedFileMove.copyAcrossFileSystems(source, to: target)) { error in
            XCTAssertEqual((error as? CocoaError)?.code, .fileNoSuchFile)
        }
        XCTAssertEqual(listing, ["source"])
    }
}
