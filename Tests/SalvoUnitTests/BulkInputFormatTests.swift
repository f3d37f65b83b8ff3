import Foundation
import Salvo
import SalvoBulk
import XCTest

final class BulkInputFormatTests: XCTestCase {
    private func entries(_ text: String) throws -> [BulkEntry] {
        let reader = BulkInputReader(string: text)
        var result: [BulkEntry] = []
        while let entry = try reader.next() { result.append(entry) }
        return result
    }

    private func failure(_ text: String) -> BulkInputError? {
        do {
            _ = try entries(text)
            return nil
        } catch let error as BulkInputError {
            return error
        } catch {
            XCTFail("unexpected error type: \(error)")
            return nil
        }
    }

    private let sha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

    func testEntriesCarryTheirOptionsMirrorsAndLineNumbers() throws {
        let list = """
        # images for the lab
        https://example.com/a.iso\thttps://mirror.example.org/a.iso
          out=a.iso
        \tdir=images
          checksum=SHA-256=\(sha256.uppercased())
          header=Authorization: Bearer abc
          header=X-Trace:   7\u{20}

        http://example.com/b.tar.gz
        """
        let result = try entries(list)
        XCTAssertEqual(result.count, 2)
        XCTAssertEqual(result[0], BulkEntry(
            uris: [URL(string: "https://example.com/a.iso")!, URL(string: "https://mirror.example.org/a.iso")!],
            outputName: "a.iso", directory: "images",
            checksum: try BulkChecksum(parsing: "sha-256=\(sha256)"),
            headers: [HTTPHeader(name: "Authorization", value: "Bearer abc"), HTTPHeader(name: "X-Trace", value: "7")],
            line: 2))
        XCTAssertEqual(result[0].checksum?.hexDigest, sha256)
        XCTAssertEqual(result[1], BulkEntry(uris: [URL(string: "http://example.com/b.tar.gz")!], line: 9))
    }

    func testCommentsBlankLinesAndBlankOnlyLinesAreSkipped() throws {
        let list = "#x\n\n   \n\t\nhttp://a.example/1\n  # indented comment\n\n#\nhttp://a.example/2\n"
        let result = try entries(list)
        XCTAssertEqual(result.map(\.uris.first?.absoluteString), ["http://a.example/1", "http://a.example/2"])
        XCTAssertEqual(result.map(\.line), [5, 9])
        XCTAssertEqual(try entries(""), [])
        XCTAssertEqual(try entries("# only a comment\n\n"), [])
    }

    func testCRLFEndingsFinalLineWithoutNewlineAndByteOrderMarkAreAccepted() throws {
        let list = "\u{FEFF}http://a.example/1\r\n  out=one.bin\r\n\r\nhttp://a.example/2\r\n  out=two.bin"
        let result = try entries(list)
        XCTAssertEqual(result.map(\.outputName), ["one.bin", "two.bin"])
        XCTAssertEqual(result.map(\.line), [1, 4])
        XCTAssertEqual(result[0].uris, [URL(string: "http://a.example/1")!])
        XCTAssertEqual(try entries("https://a.example/last").map(\.line), [1])
    }

    func testEmptyMirrorFieldsAndBlanksAroundURIsAreDropped() throws {
        let result = try entries("http://a.example/x\t\t http://b.example/x \t\n")
        XCTAssertEqual(result[0].uris.map(\.absoluteString), ["http://a.example/x", "http://b.example/x"])
    }

    /// Mirrors split at their TABs whatever the characters around them, and a value keeps a
    /// blank that a combining mark makes part of its first character, as characters compare.
    func testMirrorsSplitAtTabsBetweenCharactersOfSeveralBytes() throws {
        let result = try entries("http://a.example/é.iso\t http://b.example/ü.iso\u{2003}\t\n\tout= \u{301}x.iso\n")
        XCTAssertEqual(result.count, 1)
        XCTAssertEqual(result[0].uris.map(\.host), ["a.example", "b.example"])
        XCTAssertEqual(result[0].outputName, " \u{301}x.iso")
    }

    func testLaterOptionReplacesEarlierAndHeadersAccumulate() throws {
        let list = "http://a.example/x\n out=first\n out=second\n header=A: 1\n header=B: 2\n header=a: 3\n dir = d \n"
        let result = try entries(list)
        XCTAssertEqual(result[0].outputName, "second")
        XCTAssertEqual(result[0].directory, "d")
        // HTTPHeaders holds one field per name, so a later one of the same name replaces it.
        XCTAssertEqual(result[0].headers, [HTTPHeader(name: "a", value: "3"), HTTPHeader(name: "B", value: "2")])
    }

    func testOutputNamesMayHoldSubdirectoriesButStayInside() throws {
        XCTAssertEqual(try entries("http://a.example/x\n out=sub/dir/x.bin\n")[0].outputName, "sub/dir/x.bin")
        XCTAssertEqual(failure("http://a.example/x\n out=../x\n"),
                       BulkInputError(line: 2, reason: .invalidPath(message: "file name '../x' climbs out of the directory with '..'")))
        XCTAssertEqual(failure("http://a.example/x\n out=/etc/passwd\n")?.line, 2)
        XCTAssertEqual(failure("http://a.example/x\n out=\n")?.reason, .invalidPath(message: "file name is empty"))
        XCTAssertEqual(failure("http://a.example/x\n dir=\n")?.reason, .invalidPath(message: "directory is empty"))
    }

    func testOptionBeforeAnyEntryNamesItsLine() {
        let error = failure("# header\n  out=x\nhttp://a.example/\n")
        XCTAssertEqual(error, BulkInputError(line: 2, reason: .optionBeforeEntry(name: "out")))
        XCTAssertEqual(error?.description, "line 2: option 'out' comes before any URI line")
    }

    func testUnknownAndMalformedOptionsNameTheirLines() {
        XCTAssertEqual(failure("http://a.example/\n  out=x\n  referer=y\n"),
                       BulkInputError(line: 3, reason: .unknownOption(name: "referer")))
        XCTAssertEqual(failure("http://a.example/\n  out x\n"),
                       BulkInputError(line: 2, reason: .malformedOption(text: "out x")))
        XCTAssertEqual(failure("http://a.example/\n\thttp://b.example/\n")?.line, 2)
        XCTAssertEqual(BulkInputError.Reason.unknownOption(name: "referer").description,
                       "unknown option 'referer' (known: out, dir, checksum, header, user-agent, http-user, http-passwd, all-proxy, "
                           + "http-proxy, https-proxy, no-proxy, no-netrc, remote-time, allow-overwrite, dry-run)")
    }

    func testAccessOptionLinesSetTheirEntryOnly() throws {
        let list = """
            http://a.example/f
              user-agent=Agent/1
              http-user=alice
              http-passwd=pw
              all-proxy=http://proxy.example:3128
              http-proxy=
              https-proxy=user:pass@secure-proxy.example:8443
              no-proxy=internal.example,10.0.0.0/8
              no-netrc=true
              remote-time=true
              allow-overwrite=false
              dry-run=true
            http://b.example/g

            """
        let parsed = try entries(list)
        XCTAssertEqual(parsed.count, 2)
        let first = parsed[0]
        XCTAssertEqual(first.headers.value(for: "User-Agent"), "Agent/1")
        XCTAssertEqual(first.httpUser, "alice")
        XCTAssertEqual(first.httpPassword, "pw")
        XCTAssertEqual(first.proxies, BulkProxySettings(allProxy: "http://proxy.example:3128", httpProxy: "",
                                                        httpsProxy: "user:pass@secure-proxy.example:8443",
                                                        noProxy: "internal.example,10.0.0.0/8"))
        XCTAssertEqual(first.usesNetrc, false)
        XCTAssertEqual(first.remoteTime, true)
        XCTAssertEqual(first.allowOverwrite, false)
        XCTAssertEqual(first.dryRun, true)
        let second = parsed[1]
        XCTAssertNil(second.httpUser)
        XCTAssertTrue(second.proxies.isEmpty)
        XCTAssertNil(second.usesNetrc)
        XCTAssertNil(second.dryRun)
    }

    func testBadAccessOptionValuesNameTheirLinesAndOptions() {
        XCTAssertEqual(failure("http://a.example/\n  dry-run=yes\n"),
                       BulkInputError(line: 2, reason: .invalidValue(message: "option 'dry-run' takes true or false, not 'yes'")))
        XCTAssertEqual(failure("http://a.example/\n  all-proxy=ftp://p.example\n")?.line, 2)
        XCTAssertTrue(failure("http://a.example/\n  all-proxy=ftp://p.example\n")?.description.contains("option 'all-proxy'") ?? false)
        XCTAssertEqual(failure("http://a.example/\n  http-proxy=p.example:99999\n")?.line, 2)
        XCTAssertEqual(failure("http://a.example/\n\n  remote-time=1\n")?.line, 3)
    }

    func testBadChecksumsNameTheirLines() {
        XCTAssertEqual(failure("http://a.example/\n checksum=sha-256=abc\n"),
                       BulkInputError(line: 2, reason: .invalidChecksum(message: "sha-256 checksum needs 64 hexadecimal digits, not 3")))
        XCTAssertEqual(failure("http://a.example/\n checksum=crc32=abcd\n")?.reason,
                       .invalidChecksum(message: "checksum type 'crc32' is not supported (sha-256, sha-1 or md5)"))
        XCTAssertEqual(failure("http://a.example/\n checksum=\(sha256)\n")?.line, 2)
        XCTAssertEqual(failure("http://a.example/\n checksum=md5=\(String(repeating: "g", count: 32))\n")?.line, 2)
    }

    func testURIsThatAreNotAbsoluteHTTPURLsNameTheirLines() {
        for bad in ["ftp://a.example/x", "example.com/x", "/local/path", "file:///etc/passwd", "http://", "https://a.example/a b",
                    "http://%FF/x"] {
            let error = failure("http://ok.example/\n\n\(bad)\n")
            XCTAssertEqual(error?.line, 3, bad)
            guard case .invalidURI = error?.reason else { return XCTFail("\(bad): \(String(describing: error))") }
        }
        XCTAssertEqual(failure("http://ok.example/\thttps://a.example/a b\n")?.reason,
                       .invalidURI(message: "'https://a.example/a b' holds a space or control character (separate mirrors with TAB)"))
        XCTAssertEqual(try entries("HTTPS://A.example/x\n")[0].uris[0].absoluteString, "HTTPS://A.example/x")
    }

    func testHeadersWithBadNamesOrControlBytesNameTheirLines() {
        XCTAssertEqual(failure("http://a.example/\n header=Bad Name: v\n"),
                       BulkInputError(line: 2, reason: .invalidHeader(message: "header name 'Bad Name' is not a valid HTTP field name")))
        XCTAssertEqual(failure("http://a.example/\n header=NoColon\n")?.reason,
                       .invalidHeader(message: "header 'NoColon' is not 'Name: value'"))
        XCTAssertEqual(failure("http://a.example/\n header=X: a\rb\n")?.reason,
                       .invalidHeader(message: "header 'X' has a value with CR, LF or NUL"))
        XCTAssertEqual(failure("http://a.example/\n header=X: a\u{0}b\n")?.line, 2)
        XCTAssertEqual(failure("http://a.example/\n header=: v\n")?.line, 2)
    }

    func testInvalidUTF8NamesItsLineAndReadingStaysStopped() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-utf8-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(Array("http://a.example/\n".utf8) + [0x68, 0xFF, 0x0A] + Array("http://b.example/\n".utf8)).write(to: url)
        let reader = try BulkInputReader(contentsOfFile: url.path)
        let expected = BulkInputError(line: 2, reason: .notUTF8)
        XCTAssertThrowsError(try reader.next()) { XCTAssertEqual($0 as? BulkInputError, expected) }
        XCTAssertThrowsError(try reader.next()) { XCTAssertEqual($0 as? BulkInputError, expected) }
    }

    func testMissingFileIsReportedAsLineZero() {
        XCTAssertThrowsError(try BulkInputReader(contentsOfFile: "/nonexistent/bulk-list.txt")) { error in
            XCTAssertEqual(error as? BulkInputError, BulkInputError(line: 0, reason: .cannotOpen(errno: ENOENT)))
            XCTAssertEqual((error as? BulkInputError)?.description, "cannot open: No such file or directory")
        }
    }

    func testTooLongLineIsRefusedWithItsNumber() {
        let long = "http://a.example/" + String(repeating: "x", count: BulkInputReader.maximumLineLength)
        XCTAssertEqual(failure("http://a.example/\n\(long)\n"),
                       BulkInputError(line: 2, reason: .lineTooLong(limit: BulkInputReader.maximumLineLength)))
    }
}
