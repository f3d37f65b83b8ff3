import Foundation
import XCTest

// Client code written as for Alamofire must compile against Salvo in the language mode it is
// written in. Tests/ClientCode/check.sh type-checks one of that folder's files against the
// Salvo module this test binary was built with.

final class ClientLanguageModeTests: XCTestCase {
    /// The seed router and friends (Tests/ClientCode/SeedRouter.swift) compile in Swift 5
    /// mode without a diagnostic.
    func testSeedCompilesInSwift5LanguageMode() throws {
        let (status, transcript) = try ClientCodeCheck.typeCheck("SeedRouter.swift", languageMode: 5)
        XCTAssertEqual(status, 0, "Swift 5 mode check failed:\n\(transcript)")
        XCTAssertEqual(transcript, "", "the check should compile without diagnostics")
    }

    /// Alamofire 4's `StreamRequest` is not silently missing: the compiler names
    /// `DataStreamRequest`, as Alamofire 5's unavailable alias does.
    func testAlamofireFoursStreamRequestNamesItsReplacement() throws {
        let (status, transcript) = try ClientCodeCheck.typeCheck("AlamofireFourNames.swift", languageMode: 5)
        XCTAssertNotEqual(status, 0, "code using StreamRequest compiled")
        XCTAssertTrue(transcript.contains("'StreamRequest' has been renamed to 'DataStreamRequest'"), transcript)
    }

    /// The founding document's `SessionDelegate` subclass, which overrides Alamofire's
    /// `urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)`, compiles
    /// unchanged in both modes (with the warning Alamofire's draws too: a subclass of an
    /// `@unchecked Sendable` class is asked to restate it).
    func testTheSeedsSessionDelegateCompilesInBothModes() throws {
        try assertCompilesWithoutErrorsInBothModes("SeedDelegate.swift")
    }

    /// A `RedirectHandler` written for Alamofire, against its `URLSessionTask` method,
    /// compiles in both modes.
    /// A delegate subclass overriding every URLSession delegate method Alamofire's
    /// `SessionDelegate` implements compiles in both modes.
    func testADelegateOverridingEveryAlamofireMethodCompilesInBothModes() throws {
        try assertCompilesWithoutErrorsInBothModes("AlamofireDelegateOverrides.swift")
    }

    /// Every URLSession-level `ClosureEventMonitor` closure of Alamofire's, and a monitor
    /// implementing the URLSession-level events, compile in both modes.
    func testAlamofiresURLSessionMonitorEventsCompileInBothModes() throws {
        try assertCompilesWithoutErrorsInBothModes("AlamofireMonitorClosures.swift")
    }

    /// `import Salvo` offers Alamofire's API alone: the bulk downloader is not there...
    func testTheBulkDownloaderIsNotPartOfSalvo() throws {
        let (status, transcript) = try ClientCodeCheck.typeCheck("BulkWithoutItsModule.swift", languageMode: 6)
        XCTAssertNotEqual(status, 0, "BulkDownloader compiled with only `import Salvo`")
        XCTAssertTrue(transcript.contains("cannot find 'BulkDownloader' in scope"), transcript)
    }

    /// ...but in SalvoBulk, whose clients compile in both modes.
    func testABulkDownloaderClientCompilesWithSalvoBulk() throws {
        try assertCompilesWithoutErrorsInBothModes("BulkClient.swift")
    }

    func testAnAlamofireRedirectHandlerCompilesInBothModes() throws {
        for mode in [5, 6] {
            let (status, transcript) = try ClientCodeCheck.typeCheck("AlamofireRedirectHandler.swift", languageMode: mode)
            XCTAssertEqual(status, 0, "Swift \(mode) mode check failed:\n\(transcript)")
            XCTAssertEqual(transcript, "", "no diagnostics expected")
        }
    }

    /// Swift 6 code whose handlers, validators, adapters, retriers, progress closures and
    /// monitor closures capture a non-`Sendable` model compiles, as it does against
    /// Alamofire: where Alamofire's declarations are `@preconcurrency`, so are Salvo's, and
    /// the captures are warnings, not errors.
    func testNonSendableCapturesCompileInSwift6LanguageMode() throws {
        let (status, transcript) = try ClientCodeCheck.typeCheck("NonSendableCaptures.swift", languageMode: 6)
        XCTAssertEqual(status, 0, "Swift 6 mode check failed:\n\(transcript)")
        XCTAssertFalse(transcript.contains("error:"), transcript)
        XCTAssertTrue(transcript.contains("warning: capture of 'model' with non-Sendable type 'ScreenModel'"),
                      "the captures should still be reported, as warnings:\n\(transcript)")
        // ClosureEventMonitor's closures are plain, as Alamofire's: setting them draws nothing.
        let source = try String(contentsOf: ClientCodeCheck.folder.appendingPathComponent("NonSendableCaptures.swift"), encoding: .utf8)
        let monitorLines = source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.contains("monitor.requestDid") }.map { $0.offset + 1 }
        XCTAssertEqual(monitorLines.count, 2)
        for line in monitorLines {
            XCTAssertFalse(transcript.contains("NonSendableCaptures.swift:\(line):"), "line \(line):\n\(transcript)")
        }
    }
}

/// Runs Tests/ClientCode/check.sh.
enum ClientCodeCheck {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = root.appendingPathComponent("Tests/ClientCode")

    /// Type-checks one file of Tests/ClientCode in `languageMode`.
    /// - Returns: check.sh's exit status and everything it printed.
    static func typeCheck(_ file: String, languageMode: Int) throws -> (Int32, String) {
        // The build directory holding this test binary also holds the Salvo module it links.
        var buildDirectory = root.appendingPathComponent(".build/debug")
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            for candidate in [executable.deletingLastPathComponent(), executable.deletingLastPathComponent().deletingLastPathComponent()]
            where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Modules/Salvo.swiftmodule").path) {
                buildDirectory = candidate
                break
            }
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [folder.appendingPathComponent("check.sh").path, buildDirectory.path,
                             folder.appendingPathComponent(file).path, String(languageMode)]
        process.currentDirectoryURL = root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let transcript = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, transcript)
    }
}

extension ClientLanguageModeTests {
    /// `file` type-checks in Swift 5 and Swift 6 modes; warnings are allowed.
    fileprivate func assertCompilesWithoutErrorsInBothModes(_ file: String, line: UInt = #line) throws {
        for mode in [5, 6] {
            let (status, transcript) = try ClientCodeCheck.typeCheck(file, languageMode: mode)
            XCTAssertEqual(status, 0, "Swift \(mode) mode check failed:\n\(transcript)", line: line)
            XCTAssertFalse(transcript.contains("error:"), transcript, line: line)
        }
    }
}
