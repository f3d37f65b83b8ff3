import Foundation
import XCTest
import Salvo

/// `DownloadRequest.defaultDestination` names a file in the shared temporary directory, which
/// callers usually leave there: a later process, or a second run of the same program, must get
/// a name of its own rather than fail on the earlier one's.
///
/// The later processes are this test bundle run again, with only
/// `testADownloadToTheDefaultDestinationLandsInANewFile` selected and told (through the
/// environment) which URL to fetch and to keep its file.
final class DefaultDestinationAcrossProcessesTests: XCTestCase {
    private static let urlVariable = "SALVO_DEFAULT_DESTINATION_URL"
    private static let marker = "default-destination-file: "

    /// Two downloads to the default destination land in two new files under the temporary
    /// directory, each with the bytes. Run as a child (the URL in the environment), it keeps its
    /// file and prints where it went.
    func testADownloadToTheDefaultDestinationLandsInANewFile() throws {
        if let given = ProcessInfo.processInfo.environment[Self.urlVariable] {
            let url = try XCTUnwrap(URL(string: given))
            let fileURL = try download(url)
            print(Self.marker + fileURL.path)
            return
        }
        let url = try TestServers.shared.url(.nginx, "/small")
        let expected = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small"))
        let first = try download(url)
        let second = try download(url)
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        XCTAssertNotEqual(first, second)
        for file in [first, second] {
            XCTAssertEqual(file.deletingLastPathComponent().standardizedFileURL.path,
                           FileManager.default.temporaryDirectory.standardizedFileURL.path)
            XCTAssertTrue(file.lastPathComponent.hasPrefix("Salvo_"), file.lastPathComponent)
            XCTAssertEqual(try Data(contentsOf: file), expected)
        }
    }

    /// A program started after another one left its default-destination file in the same
    /// temporary directory downloads into a file of its own, and the first file is untouched.
    func testALaterProcessDoesNotCollideWithAnEarlierOnesFile() throws {
        let url = try TestServers.shared.url(.nginx, "/small")
        let expected = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small"))
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-default-destination-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: shared) }

        var files: [String] = []
        for run in 1...3 {
            let path = try runChild(url: url, temporaryDirectory: shared, run: run)
            files.append(path)
        }
        XCTAssertEqual(Set(files).count, 3, "each process needs a file of its own: \(files)")
        let left = try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasPrefix("Salvo_") }
        XCTAssertEqual(Set(left), Set(files.map { ($0 as NSString).lastPathComponent }))
        for path in files {
            XCTAssertEqual(FileManager.default.contents(atPath: path), expected, path)
        }
    }

    private func download(_ url: URL) throws -> URL {
        let session = Session()
        let done = expectation(description: "download")
        nonisolated(unsafe) var result: AFDownloadResponse<URL?>?
        session.download(url).response(queue: .global()) { response in
            result = response
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        let response = try XCTUnwrap(result)
        XCTAssertNil(response.error, "\(String(describing: response.error))")
        return try XCTUnwrap(response.fileURL)
    }

    /// Runs this test bundle again, for the child form of the first test, with `temporaryDirectory`
    /// as its TMPDIR; returns the path of the file it kept.
    private func runChild(url: URL, temporaryDirectory: URL, run: Int) throws -> String {
        let bundle = try XCTUnwrap(Bundle.main.executableURL, "no test executable to run again")
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporaryDirectory.path
        environment[Self.urlVariable] = url.absoluteString
        let outcome = try SalvoToolProcess.run(
            executable: bundle,
            ["SalvoIntegrationTests.DefaultDestinationAcrossProcessesTests/testADownloadToTheDefaultDestinationLandsInANewFile"],
            environment: environment)
        XCTAssertEqual(outcome.status, 0, "run \(run):\n\(outcome.standardOutput)\n\(outcome.standardError)")
        let line = try XCTUnwrap(outcome.lines.first { $0.hasPrefix(Self.marker) },
                                 "run \(run) printed no file:\n\(outcome.standardOutput)\n\(outcome.standardError)")
        return String(line.dropFirst(Self.marker.count))
    }
}
