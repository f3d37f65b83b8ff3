import Foundation
import Salvo
import SalvoBulk
import XCTest

final class BulkShardTests: XCTestCase {
    func testStableHashIsFNV1a64WithFixedValues() {
        // FNV-1a's published test vectors, and the URL the documentation quotes.
        XCTAssertEqual(BulkShard.stableHash(""), 0xCBF2_9CE4_8422_2325)
        XCTAssertEqual(BulkShard.stableHash("a"), 0xAF63_DC4C_8601_EC8C)
        XCTAssertEqual(BulkShard.stableHash("foobar"), 0x8594_4171_F739_67E8)
        XCTAssertEqual(BulkShard.stableHash("https://example.com/"), 0x0C8B_41CF_DCB3_C914)
        XCTAssertEqual(BulkShard.stableHash("https://example.com/"), 903_888_511_234_722_068)
    }

    func testShardsPartitionTenThousandURLsExactly() throws {
        let urls = (0..<10_000).map { "https://data.example/set/\($0).bin" }
        for count in [1, 2, 3, 7, 16] {
            let shards = try (0..<count).map { try BulkShard(index: $0, count: count) }
            var sizes = [Int](repeating: 0, count: count)
            for url in urls {
                let owners = shards.filter { $0.contains(url) }
                XCTAssertEqual(owners.count, 1, "\(url) with \(count) shards")
                if let owner = owners.first { sizes[owner.index] += 1 }
            }
            XCTAssertEqual(sizes.reduce(0, +), urls.count)
            // A hash that spreads: no shard is empty or holds more than twice its share.
            for size in sizes { XCTAssertTrue(size > 0 && size < 2 * urls.count / count + 1, "sizes \(sizes)") }
        }
    }

    func testEntryBelongsByItsFirstURI() throws {
        let entry = BulkEntry(uris: [URL(string: "https://example.com/")!, URL(string: "https://mirror.example/")!])
        let owner = Int(0x0C8B_41CF_DCB3_C914 % UInt64(5))
        for index in 0..<5 {
            XCTAssertEqual(try BulkShard(index: index, count: 5).contains(entry), index == owner)
        }
        let emptyOwner = Int(0xCBF2_9CE4_8422_2325 % UInt64(5))
        XCTAssertTrue(try BulkShard(index: emptyOwner, count: 5).contains(BulkEntry(uris: [])))
    }

    func testExplicitShardParsing() throws {
        XCTAssertEqual(try BulkShard(parsing: "0/1", environment: [:]), try BulkShard(index: 0, count: 1))
        XCTAssertEqual(try BulkShard(parsing: "3/4", environment: [:]).description, "3/4")
        let refused: [(String, String)] = [
            ("4/4", "shard index must be from 0 to 3, not 4"),
            ("0/0", "shard count must be at least 1, not 0"),
            ("-1/4", "shard '-1/4' is not K/N (such as 0/4) or 'auto'"),
            ("1", "shard '1' is not K/N (such as 0/4) or 'auto'"),
            ("1/2/3", "shard '1/2/3' is not K/N (such as 0/4) or 'auto'"),
            ("a/b", "shard 'a/b' is not K/N (such as 0/4) or 'auto'"),
            ("/4", "shard '/4' is not K/N (such as 0/4) or 'auto'"),
            ("AUTO", "shard 'AUTO' is not K/N (such as 0/4) or 'auto'"),
        ]
        for (text, message) in refused {
            XCTAssertThrowsError(try BulkShard(parsing: text, environment: [:]), text) {
                XCTAssertEqual($0 as? BulkValueError, BulkValueError(message), text)
            }
        }
    }

    func testAutoReadsKubernetesIndexedJobs() throws {
        let shard = try BulkShard(parsing: "auto", environment: ["JOB_COMPLETION_INDEX": "2", "SALVO_SHARDS": "5"])
        XCTAssertEqual(shard, try BulkShard(index: 2, count: 5))
        // Kubernetes wins when both are set: a pod's variables are the job's own.
        let both = try BulkShard(parsing: "auto", environment: [
            "JOB_COMPLETION_INDEX": "1", "SALVO_SHARDS": "3", "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "9",
        ])
        XCTAssertEqual(both, try BulkShard(index: 1, count: 3))
        XCTAssertThrowsError(try BulkShard(parsing: "auto", environment: ["JOB_COMPLETION_INDEX": "2"])) {
            XCTAssertEqual($0 as? BulkValueError, BulkValueError(
                "--shard auto: JOB_COMPLETION_INDEX is set but SALVO_SHARDS (the Job's completions) is not"))
        }
        XCTAssertThrowsError(try BulkShard(parsing: "auto", environment: ["JOB_COMPLETION_INDEX": "5", "SALVO_SHARDS": "5"])) {
            XCTAssertEqual($0 as? BulkValueError, BulkValueError("shard index must be from 0 to 4, not 5"))
        }
        XCTAssertThrowsError(try BulkShard(parsing: "auto", environment: ["JOB_COMPLETION_INDEX": "x", "SALVO_SHARDS": "5"]))
    }

    func testAutoReadsSlurmArraysFromTheirMinimum() throws {
        XCTAssertEqual(try BulkShard(parsing: "auto", environment: ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"]),
                       try BulkShard(index: 3, count: 4))
        XCTAssertEqual(try BulkShard(parsing: "auto", environment: [
            "SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "4",
        ]), try BulkShard(index: 2, count: 4))
        XCTAssertThrowsError(try BulkShard(parsing: "auto", environment: ["SLURM_ARRAY_TASK_ID": "3"])) {
            XCTAssertEqual($0 as? BulkValueError, BulkValueError(
                "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not"))
        }
        // --array=0-12:4 gives ids 0, 4, 8, 12 and a count of 4: id 12 is no shard of 4.
        XCTAssertThrowsError(try BulkShard(parsing: "auto", environment: ["SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_COUNT": "4"])) {
            XCTAssertEqual($0 as? BulkValueError, BulkValueError(
                "--shard auto: Slurm task 12 is not within 4 tasks from 0 (arrays with a step or gaps cannot be sharded)"))
        }
    }

    func testAutoWithoutASchedulerIsRefused() {
        XCTAssertThrowsError(try BulkShard(parsing: "auto", environment: ["HOME": "/root"])) {
            XCTAssertEqual($0 as? BulkValueError, BulkValueError(
                "--shard auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm array) is set"))
        }
    }
}
