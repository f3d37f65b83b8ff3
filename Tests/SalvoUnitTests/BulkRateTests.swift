import Salvo
import SalvoBulk
import XCTest

final class BulkRateTests: XCTestCase {
    func testPlainKiloAndMegaSuffixesInEitherCase() throws {
        XCTAssertEqual(try BulkRate(parsing: "100").bytesPerSecond, 100)
        XCTAssertEqual(try BulkRate(parsing: "500K").bytesPerSecond, 500 * 1024)
        XCTAssertEqual(try BulkRate(parsing: "500k").bytesPerSecond, 500 * 1024)
        XCTAssertEqual(try BulkRate(parsing: "2M").bytesPerSecond, 2 * 1024 * 1024)
        XCTAssertEqual(try BulkRate(parsing: "2m").bytesPerSecond, 2 * 1024 * 1024)
        XCTAssertEqual(try BulkRate(parsing: "007").bytesPerSecond, 7)
    }

    func testZeroMeansUnlimited() throws {
        XCTAssertTrue(try BulkRate(parsing: "0").isUnlimited)
        XCTAssertTrue(try BulkRate(parsing: "0K").isUnlimited)
        XCTAssertEqual(try BulkRate(parsing: "0"), .unlimited)
        XCTAssertEqual(BulkRate.unlimited.description, "unlimited")
        XCTAssertFalse(try BulkRate(parsing: "1").isUnlimited)
        XCTAssertEqual(BulkRate(bytesPerSecond: -5), .unlimited)
        XCTAssertEqual(BulkRate(bytesPerSecond: 100).description, "100 B/s")
    }

    func testAnythingElseIsRefused() {
        for text in ["", "K", "M", "1.5M", "-1", "+1", "1G", "1KB", " 1", "1 ", "1k1", "ten", "0x10"] {
            XCTAssertThrowsError(try BulkRate(parsing: text), "'\(text)'") { error in
                XCTAssertEqual(error as? BulkValueError,
                               BulkValueError("rate '\(text)' is not a number of bytes per second with an optional K or M"))
            }
        }
        XCTAssertThrowsError(try BulkRate(parsing: "9223372036854775807K")) {
            XCTAssertEqual($0 as? BulkValueError, BulkValueError("rate '9223372036854775807K' is too large"))
        }
        XCTAssertThrowsError(try BulkRate(parsing: "99999999999999999999")) {
            XCTAssertEqual($0 as? BulkValueError, BulkValueError("rate '99999999999999999999' is too large"))
        }
    }
}
