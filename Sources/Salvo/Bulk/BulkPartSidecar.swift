import Foundation

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

    static let formatName = "org.salvo.bulk-part"

    /// The value for `If-Range`: the ETag, else Last-Modified; `nil` when there is neither,
    /// and the file cannot be continued.
    var ifRange: String? { etag ?? lastModified }

    /// The sidecar of the partial file at `partPath`.
    static func path(forPart partPath: String) -> String { partPath + ".json" }

    /// Reads the sidecar at `path`; `nil` when there is none or it is not one of ours.
    static func read(at path: String) -> BulkPartSidecar? {
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
