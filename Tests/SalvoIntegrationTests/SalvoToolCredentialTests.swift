import Foundation
import XCTest

/// `salvo`'s logins against nginx's `/private/` (HTTP Basic): by option, from a netrc file
/// and from `~/.netrc`; sent only to the host they belong to, and shown nowhere.
final class SalvoToolCredentialTests: XCTestCase {
    private var root: URL!
    private var output: URL!
    private let login = TestServers.basicAuthLogin

    override func setUpWithError() throws {
        (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func run(_ arguments: [String]) throws -> SalvoToolProcess.Outcome {
        try SalvoToolProcess.run(["-d", output.path] + arguments, environment: SalvoToolEnvironment.make(home: root))
    }

    private func nginx(_ path: String) throws -> String { try TestServers.shared.url(.nginx, path).absoluteString }

    private func contents(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: output.appendingPathComponent(name)), as: UTF8.self)
    }

    private var basic: String { "Basic " + Data("\(login.user):\(login.password)".utf8).base64EncodedString() }

    func testWithoutALoginThePrivateFileIsRefused() throws {
        let outcome = try run([try nginx("/private/small")])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.standardOutput.contains("HTTP 401"), outcome.standardOutput)
    }

    func testHTTPUserAndPasswordOpenThePrivateFile() throws {
        let outcome = try run(["--http-user", login.user, "--http-passwd", login.password, try nginx("/private/small")])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("small")),
                       try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small")))
    }

    func testNetrcPathSuppliesTheLoginOfItsHost() throws {
        let netrc = root.appendingPathComponent("logins")
        try Data("machine example.org login other password other\nmachine 127.0.0.1\n  login \(login.user)\n  password \(login.password)\n".utf8)
            .write(to: netrc)
        let outcome = try run(["--netrc-path", netrc.path, try nginx("/private/small")])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)

        let missing = try run(["--netrc-path", root.appendingPathComponent("none").path, "-o", "x", try nginx("/private/small")])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.standardError.hasPrefix("salvo: option '--netrc-path': cannot read "), missing.standardError)
    }

    func testHomeNetrcIsReadByDefaultAndNoNetrcTurnsItOff() throws {
        try Data("machine 127.0.0.1 login \(login.user) password \(login.password)\n".utf8).write(to: root.appendingPathComponent(".netrc"))
        let outcome = try run(["-o", "a", try nginx("/private/small")])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        let off = try run(["-n", "-o", "b", try nginx("/private/small")])
        XCTAssertEqual(off.status, 1, off.standardOutput)
        XCTAssertTrue(off.standardOutput.contains("HTTP 401"), off.standardOutput)
        let offLong = try run(["--no-netrc=true", "-o", "c", try nginx("/private/small")])
        XCTAssertEqual(offLong.status, 1, offLong.standardOutput)
    }

    func testLoginFollowsARedirectToTheSameHostOnly() throws {
        let list = root.appendingPathComponent("list.txt")
        try Data("\(try nginx("/redirect-to-same-host"))\n  out=same\n\(try nginx("/redirect-to-other-host"))\n  out=other\n".utf8).write(to: list)
        let outcome = try run(["--http-user", login.user, "--http-passwd", login.password, "-i", list.path])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        let same = try contents("same")
        let other = try contents("other")
        XCTAssertTrue(same.contains("authorization=[\(basic)]"), same)
        XCTAssertTrue(other.contains("authorization=[]"), other)
    }

    func testNetrcLoginIsNotSentToAnotherHostAfterARedirect() throws {
        try Data("machine 127.0.0.1 login \(login.user) password \(login.password)\n".utf8).write(to: root.appendingPathComponent(".netrc"))
        let outcome = try run(["-o", "other", try nginx("/redirect-to-other-host")])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        let other = try contents("other")
        XCTAssertTrue(other.contains("authorization=[]"), other)
    }

    func testPasswordAppearsInNoOutput() throws {
        let manifest = root.appendingPathComponent("manifest.jsonl")
        let missing = try nginx("/private/missing-\(UUID().uuidString)")
        let arguments = ["--http-user", login.user, "--http-passwd", login.password, "--manifest", manifest.path,
                         "--retry-wait", "0", try nginx("/private/small"), missing, try nginx("/redirect-to-other-host")]
        let lines = try run(arguments)
        XCTAssertEqual(lines.status, 1, lines.standardOutput)
        let json = try run(["--json", "-d", root.appendingPathComponent("second").path] + arguments)
        XCTAssertEqual(json.status, 1, json.standardOutput)
        let written = [lines.standardOutput, lines.standardError, json.standardOutput, json.standardError,
                       String(decoding: try Data(contentsOf: manifest), as: UTF8.self)].joined(separator: "\n")
        XCTAssertFalse(written.contains(login.password), written)
        XCTAssertFalse(written.contains(basic.dropFirst(6)), written)
        XCTAssertTrue(written.contains("HTTP 404"), written)
    }

    func testEntryLoginLinesApplyToTheirEntry() throws {
        let list = root.appendingPathComponent("list.txt")
        try Data("""
            \(try nginx("/private/small"))
              out=with-login
              http-user=\(login.user)
              http-passwd=\(login.password)
            \(try nginx("/private/100k.bin"))
              out=without-login

            """.utf8).write(to: list)
        let outcome = try run(["-i", list.path])
        XCTAssertEqual(outcome.status, 1, outcome.standardOutput)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["with-login"])
        XCTAssertTrue(outcome.standardOutput.contains("FAILED \(try nginx("/private/100k.bin")): HTTP 401"), outcome.standardOutput)
    }

    func testLoginInTheURLIsUsedAndMaskedInEveryOutput() throws {
        let base = try TestServers.shared.url(.nginx, "/private/small")
        let url = "http://\(login.user):\(login.password)@127.0.0.1:\(base.port!)/private/small"
        let manifest = root.appendingPathComponent("manifest.jsonl")
        let lines = try run(["--manifest", manifest.path, url])
        XCTAssertEqual(lines.status, 0, lines.standardOutput)
        let json = try run(["--json", "-o", "again", url])
        XCTAssertEqual(json.status, 0, json.standardOutput)
        let manifestText = String(decoding: try Data(contentsOf: manifest), as: UTF8.self)
        let written = [lines.standardOutput, lines.standardError, json.standardOutput, json.standardError, manifestText].joined(separator: "\n")
        XCTAssertFalse(written.contains(login.password), written)
        XCTAssertTrue(manifestText.contains("\(login.user):***@127.0.0.1"), manifestText)
    }
}
