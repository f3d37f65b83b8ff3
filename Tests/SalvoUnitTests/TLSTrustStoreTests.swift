import Foundation
import XCTest
@testable import SalvoEngine

/// The CA store a trust configuration's connections share: built once, built again when its
/// file changes or grows old, never shared between two configurations.
final class TLSTrustStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The first certificates of the system's bundle, as a PEM file of `count` of them.
    private func writeBundle(named name: String, certificates count: Int) throws -> String {
        let system = try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)
        let end = "-----END CERTIFICATE-----"
        let blocks = system.components(separatedBy: end).filter { $0.contains("-----BEGIN CERTIFICATE-----") }
        XCTAssertGreaterThanOrEqual(blocks.count, count)
        let text = blocks.prefix(count).map { $0 + end }.joined() + "\n"
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testAStoreIsBuiltOnceAndAgainWhenItsFileChanges() throws {
        let trust = TLSTrustStore()
        let path = try writeBundle(named: "ca.pem", certificates: 3)
        let source = TLSTrustStore.Source(file: path, directory: nil)
        let start: UInt64 = 1_000_000_000
        let first = try XCTUnwrap(trust.retainedStore(for: source, now: start))
        defer { TLSTrustStore.release(first) }
        let again = try XCTUnwrap(trust.retainedStore(for: source, now: start + TLSTrustStore.checkInterval + 1))
        defer { TLSTrustStore.release(again) }
        XCTAssertEqual(first, again, "the file did not change: the same store")
        XCTAssertEqual(trust.builds.load(ordering: .relaxed), 1)

        _ = try writeBundle(named: "ca.pem", certificates: 5)
        let soon = try XCTUnwrap(trust.retainedStore(for: source, now: start + TLSTrustStore.checkInterval + 2))
        defer { TLSTrustStore.release(soon) }
        XCTAssertEqual(trust.builds.load(ordering: .relaxed), 1, "the files are looked at again only after the check interval")
        let later = try XCTUnwrap(trust.retainedStore(for: source, now: start + 2 * TLSTrustStore.checkInterval + 2))
        defer { TLSTrustStore.release(later) }
        XCTAssertEqual(trust.builds.load(ordering: .relaxed), 2, "a changed file is read again")

        let old = try XCTUnwrap(trust.retainedStore(for: source, now: start + TLSTrustStore.maximumAge + 2 * TLSTrustStore.checkInterval + 3))
        defer { TLSTrustStore.release(old) }
        XCTAssertEqual(trust.builds.load(ordering: .relaxed), 3, "an old store is built again whatever the files say")
    }

    func testTwoConfigurationsNeverShareAStore() throws {
        let trust = TLSTrustStore()
        let a = TLSTrustStore.Source(file: try writeBundle(named: "a.pem", certificates: 2), directory: nil)
        let b = TLSTrustStore.Source(file: try writeBundle(named: "b.pem", certificates: 2), directory: nil)
        let storeA = try XCTUnwrap(trust.retainedStore(for: a, now: 1))
        defer { TLSTrustStore.release(storeA) }
        let storeB = try XCTUnwrap(trust.retainedStore(for: b, now: 1))
        defer { TLSTrustStore.release(storeB) }
        XCTAssertNotEqual(storeA, storeB)
    }

    /// A file that cannot be read gets no store: libcurl then loads it itself and fails the
    /// transfer with its own error, as before.
    func testAnUnreadableFileGetsNoStore() throws {
        let trust = TLSTrustStore()
        XCTAssertNil(trust.retainedStore(for: .init(file: directory.appendingPathComponent("missing.pem").path, directory: nil)))
        let empty = directory.appendingPathComponent("empty.pem").path
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data("not a certificate\n".utf8)))
        XCTAssertNil(trust.retainedStore(for: .init(file: empty, directory: nil)))
    }
}
