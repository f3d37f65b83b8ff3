import XCTest
@testable import Salvo
import SalvoTestSupport

/// The header dictionary built from the last response's when the names are the same: always
/// equal to the one parsed from scratch, whatever came before.
final class HeaderFieldsTemplateTests: XCTestCase {
    private func head(_ lines: [(String, String)]) -> ResponseHead {
        var text = "HTTP/1.1 200 OK\r\n"
        for (name, value) in lines { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        return ResponseHead(statusCode: 200, httpVersion: "1.1", url: "http://example.test/", contentType: nil, redirectURL: nil,
                            rawHeaders: Array(text.utf8))
    }

    func testTheSameNamesWithNewValuesGiveTheNewValues() {
        for round in 0..<5 {
            let fields = head([("Server", "nginx"), ("Date", "day \(round)"), ("Content-Length", "\(round * 10)"),
                               ("ETag", "\"\(round)\"")]).headerFields
            XCTAssertEqual(fields, ["Server": "nginx", "Date": "day \(round)", "Content-Length": "\(round * 10)",
                                    "ETag": "\"\(round)\""])
        }
    }

    func testOtherNamesOrderSpellingOrCountAreParsedAfresh() {
        _ = head([("A", "1"), ("B", "2")]).headerFields
        XCTAssertEqual(head([("B", "3"), ("A", "4")]).headerFields, ["B": "3", "A": "4"])
        XCTAssertEqual(head([("a", "5"), ("B", "6")]).headerFields, ["a": "5", "B": "6"])
        XCTAssertEqual(head([("a", "7")]).headerFields, ["a": "7"])
        XCTAssertEqual(head([("a", "8"), ("B", "9"), ("C", "10")]).headerFields, ["a": "8", "B": "9", "C": "10"])
        XCTAssertEqual(head([]).headerFields, [:])
    }

    func testARepeatedNameIsJoinedBeforeAndAfterATemplate() {
        _ = head([("Vary", "x"), ("ETag", "1")]).headerFields
        XCTAssertEqual(head([("Vary", "Accept"), ("vary", "Origin")]).headerFields, ["Vary": "Accept, Origin"])
        XCTAssertEqual(head([("Vary", "Accept"), ("vary", "Origin")]).headerFields, ["Vary": "Accept, Origin"])
        XCTAssertEqual(head([("Vary", "y"), ("ETag", "2")]).headerFields, ["Vary": "y", "ETag": "2"])
    }

    /// Random heads from a few names in a few spellings, repeated or not, in runs that share
    /// their names: each dictionary equals the one parsed from scratch.
    func testRandomHeadsMatchTheParsedDictionary() {
        var generator = SplitMix64(seed: 7)
        let names = ["Server", "Date", "Content-Type", "content-type", "ETag", "X-\u{E9}", "Set-Cookie", "SET-COOKIE"]
        var lines: [(String, String)] = []
        for step in 0..<3_000 {
            if step % 5 == 0 {
                lines = (0..<Int(generator.next() % 10)).map { _ in (generator.pick(names), "") }
            }
            let current = lines.map { ($0.0, "v\(generator.next() % 1_000)") }
            let made = head(current)
            XCTAssertEqual(made.headerFields, made.parsedHeaderFields, "\(current)")
        }
    }
}
