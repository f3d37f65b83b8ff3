import Foundation
import Salvo

/// The sidecar beside a partial file, `NAME.part.json`: what a later run needs to continue it.
///
/// ```json
/// {"format":"org.salvo.bulk-part","version":1,"url":"https://example.com/a.iso",
///  "etag":"\"abc\"","lastModified":null,"expectedLength":1048576,"bytesDone":65536}
/// ```
///
/// `bytesDone` is what the `.part` file held when the sidecar was last written; a run that
/// continues the file trusts the file's own size when it is smaller (the sidecar is written
/// at intervals), and cuts the file back to `bytesDone` when it is larger.
///
/// A file fetched in ranges (`split`) also has `ranges`: each range of the file and the bytes
/// of it done, from its start. Its `bytesDone` is then the prefix of the file that is done
/// without a gap, so a reader that knows nothing of ranges still continues it correctly.
struct BulkPartSidecar: Codable, Equatable, Sendable {
    var format = BulkPartSidecar.formatName
    var version = 1
    /// The URL the bytes came from.
    var url: String
    /// The response's `ETag`, when it was a strong one (a weak ETag cannot guard `If-Range`).
    var etag: String?
    /// The response's `Last-Modified`.
    var lastModified: String?
    /// The whole file's length, when the server said it.
    var expectedLength: Int64?
    /// The bytes of the file the `.part` holds.
    var bytesDone: Int64
    /// The file's ranges and their progress, when it is fetched in ranges; `nil` otherwise.
    var ranges: [Range]?

    /// One range of a file fetched in ranges: bytes `start..<end`, of which the first `done`
    /// are written.
    struct Range: Codable, Equatable, Sendable {
        var start: Int64
        var end: Int64
        var done: Int64

        /// The range's length.
        var length: Int64 { end - start }
        /// Whether every byte of the range is written.
        var isComplete: Bool { done >= length }
    }

    /// `length` bytes cut into `count` ranges of nearly equal length, none done.
    static func ranges(length: Int64, count: Int) -> [Range] {
        let count = Int64(max(1, count))
        return (0..<count).map { index in
            Range(start: length * index / count, end: length * (index + 1) / count, done: 0)
        }
    }

    /// Whether `ranges` cover `0..<length` in order, without gap or overlap, each with a
    /// `done` within it.
    static func rangesAreValid(_ ranges: [Range], length: Int64) -> Bool {
        var next: Int64 = 0
        for range in ranges {
            guard range.start == next, range.end > range.start, range.done >= 0, range.done <= range.length else { return false }
            next = range.end
        }
        return !ranges.isEmpty && next == length
    }

    /// The bytes from the start of the file done without a gap.
    static func prefixDone(_ ranges: [Range]) -> Int64 {
        var prefix: Int64 = 0
        for range in ranges {
            guard range.start == prefix else { break }
            prefix = range.start + range.done
            guard range.isComplete else { break }
        }
        return prefix
    }

    static let formatName = "org.salvo.bulk-part"

    /// The value for `If-Range`: the ETag, else Last-Modified; `nil` when there is neither,
    /// and the file cannot be continued.
    var ifRange: String? { etag ?? lastModified }

    /// The sidecar of the partial file at `partPath`.
    static func path(forPart partPath: String) -> String { partPath + ".json" }

    /// Reads the sidecar at `path`; `nil` when there is none or it is not one of ours.
    static func read(at path: String) -> BulkPartSidecar? {
        // A sidecar without `ranges` decodes with `nil`: the ones written before ranges existed.
        guard let data = FileManager.default.contents(atPath: path),
              let sidecar = try? JSONDecoder().decode(BulkPartSidecar.self, from: data),
              sidecar.format == formatName, sidecar.version == 1, sidecar.bytesDone >= 0 else { return nil }
        return sidecar
    }

    /// Writes the sidecar at `path`, replacing the old one in one step (a new file renamed
    /// over it), so a crash leaves the old sidecar or the new, never half of one.
    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
