import XCTest
@testable import Salvo
@testable import SalvoBulk
import SalvoTestSupport

/// The compact hash set behind the run's name claims, across several merges of its recent
/// insertions into the sorted buffer.
final class BulkNameHashesTests: XCTestCase {
    func testEveryInsertedHashIsFoundAcrossMergesAndNoOtherIs() {
        var generator = SplitMix64(seed: 7)
        var hashes = BulkNameHashes()
        var inserted: [Int] = []
        let total = BulkNameHashes.recentLimit * 3 + 123
        for _ in 0..<total {
            let hash = Int(bitPattern: UInt(generator.next()))
            XCTAssertTrue(hashes.insert(hash))
            inserted.append(hash)
        }
        XCTAssertEqual(hashes.count, total)
        for hash in inserted where !hashes.contains(hash) { XCTFail("lost \(hash)") }
        for hash in inserted.prefix(1000) { XCTAssertFalse(hashes.insert(hash), "a second insertion is not new") }
        XCTAssertEqual(hashes.count, total)
        let known = Set(inserted)
        var absent = 0
        while absent < 10_000 {
            let hash = Int(bitPattern: UInt(generator.next()))
            guard !known.contains(hash) else { continue }
            XCTAssertFalse(hashes.contains(hash))
            absent += 1
        }
    }

    func testExtremeValuesSortAndMerge() {
        var hashes = BulkNameHashes()
        let extremes = [Int.min, -1, 0, 1, Int.max]
        for hash in extremes { XCTAssertTrue(hashes.insert(hash)) }
        for filler in 0..<BulkNameHashes.recentLimit { _ = hashes.insert(filler &* 7919 &+ 2) }
        for hash in extremes { XCTAssertTrue(hashes.contains(hash), "\(hash)") }
        XCTAssertFalse(hashes.insert(Int.min))
    }
}
