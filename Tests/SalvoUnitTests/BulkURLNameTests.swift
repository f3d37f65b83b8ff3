import Foundation
import XCTest

@testable import SalvoBulk

final class BulkURLNameTests: XCTestCase {
    func testPlainPathsAreReadFromTheText() {
        XCTAssertEqual(BulkURLName.plainLastSegment("http://h/a/b.bin"), "b.bin")
        XCTAssertEqual(BulkURLName.plainLastSegment("https://u:p@h:8080/x/y-z_1.tar.gz?q=/a#f/g"), "y-z_1.tar.gz")
        XCTAssertEqual(BulkURLName.plainLastSegment("http://[::1]:80//a"), "a")
        // Left to Foundation: no path, a trailing slash, anything that may decode.
        XCTAssertNil(BulkURLName.plainLastSegment("http://h"))
        XCTAssertNil(BulkURLName.plainLastSegment("http://h?x=/a"))
        XCTAssertNil(BulkURLName.plainLastSegment("http://h/a/"))
        XCTAssertNil(BulkURLName.plainLastSegment("http://h/a%20b"))
        XCTAssertNil(BulkURLName.plainLastSegment("http://h/a;p=1"))
        // No scheme: the colon is the query's or the fragment's.
        XCTAssertNil(BulkURLName.plainLastSegment("files/a.bin?next=http://x/y"))
        XCTAssertNil(BulkURLName.plainLastSegment("//host/a.bin#http://x/y"))
    }

    func testURLsWithoutASchemeGetFoundationsLastPathComponent() throws {
        for text in ["files/a.bin?next=http://x/y", "//host/a.bin#http://x/y", "a.bin", "/x/y.bin?u=ftp://h/z"] {
            let url = try XCTUnwrap(URL(string: text), text)
            XCTAssertEqual(BulkURLName.lastPathComponent(of: url), url.lastPathComponent, text)
        }
    }

    func testEveryURLGetsFoundationsLastPathComponent() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "b.bin", ".", "..", "~x", "-", "_", "%20", "%2F", "%41", "é", ";p", "=", "+", ":", "@", "!", "", "/", "//"]
        let tails = ["", "?", "?q=1", "?q=/a/b", "#", "#f/g", "?a#b"]
        let authorities = ["h", "h:81", "u:p@h", "[::1]:8080", "xn--bcher-kva.example"]
        var compared = 0
        var plain = 0
        for _ in 0..<5_000 {
            var path = ""
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                path += "/" + pieces.randomElement(using: &generator)!
            }
            let text = "http://" + authorities.randomElement(using: &generator)! + path + tails.randomElement(using: &generator)!
            guard let url = URL(string: text) else { continue }
            compared += 1
            if BulkURLName.plainLastSegment(url.absoluteString) != nil { plain += 1 }
            XCTAssertEqual(BulkURLName.lastPathComponent(of: url), url.lastPathComponent, text)
        }
        XCTAssertGreaterThan(compared, 4_000)
        // Both ways are exercised.
        XCTAssertGreaterThan(plain, 500)
        XCTAssertGreaterThan(compared - plain, 500)
    }

    func testRelativeURLsAreLeftToFoundation() throws {
        let base = try XCTUnwrap(URL(string: "http://h/dir/"))
        let url = try XCTUnwrap(URL(string: "file.bin", relativeTo: base))
        XCTAssertEqual(BulkURLName.lastPathComponent(of: url), url.lastPathComponent)
    }
}
