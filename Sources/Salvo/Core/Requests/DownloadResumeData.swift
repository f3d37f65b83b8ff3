import Foundation

/// Salvo's resume data: what `DownloadRequest.resumeData` holds and
/// `Session.download(resumingWith:)` reads.
///
/// A small JSON object, documented so tools can write or inspect it:
///
/// ```json
/// {"format": "org.salvo.resume-data", "version": 1,
///  "url": "https://example.com/big.bin", "bytes": 1048576,
///  "partialFile": "/tmp/org.salvo.Xk3a9Q/downloads/6F0C….partial",
///  "etag": "\"5e1f-2a\"", "lastModified": "Tue, 01 Dec 2026 10:00:00 GMT"}
/// ```
///
/// `etag` and `lastModified` are the validators of the response that was cut short, either
/// may be absent (not both; a weak ETag does not count). Resuming asks for `Range: bytes=<bytes - 1>-` (from the last byte
/// held, so a partial file already whole still gets a `206`) with `If-Range` set to the ETag
/// (or else Last-Modified): the server then sends the rest only if the file has not changed,
/// and the whole file otherwise, in which case the download starts over. A `206` that does
/// not start where asked fails the download with `URLError(.badServerResponse)`.
///
/// - Note: Unlike URLSession's, this resume data is not a property list and names the
///   partial file by path; the file stays in the temporary directory until the download is
///   resumed to completion, or the caller removes it. Since resuming writes to that file, and
///   removes it when it cannot be continued, resume data is accepted only when `partialFile`
///   is a file of this user's in a folder Salvo makes for partial downloads
///   (`TMPDIR/org.salvo.*/downloads/`, or the shared `TMPDIR/org.salvo.downloads/` of
///   earlier versions), never a path elsewhere.
struct DownloadResumeData: Codable, Sendable, Equatable {
    static let formatName = "org.salvo.resume-data"

    var format = Self.formatName
    var version = 1
    var url: String
    var bytes: Int64
    var partialFile: String
    var etag: String?
    var lastModified: String?

    /// The `If-Range` value: the ETag, or else Last-Modified. A weak ETag (`W/"…"`) never
    /// guards a range (RFC 9110 forbids sending one in `If-Range`; a server would answer
    /// with the whole file every time), so without Last-Modified there is nothing to resume
    /// with.
    var ifRange: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }

    init(url: String, bytes: Int64, partialFile: String, etag: String?, lastModified: String?) {
        self.url = url
        self.bytes = bytes
        self.partialFile = partialFile
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Reads resume data; throws `DownloadResumeData.Invalid` for anything else.
    init(_ data: Data) throws {
        guard let decoded = try? JSONDecoder().decode(Self.self, from: data), decoded.format == Self.formatName,
              decoded.version == 1, decoded.bytes >= 0, decoded.ifRange != nil,
              Self.isPartialDownloadPath(decoded.partialFile) else {
            throw Invalid()
        }
        self = decoded
    }

    /// Whether `path` names a partial download Salvo could have made: a plain name in a
    /// `downloads` folder of a `org.salvo.*` folder in the temporary directory (or in the
    /// `org.salvo.downloads` folder earlier versions shared), that is either missing or a
    /// regular file (not a link) owned by this user. Resume data that names anything else would
    /// have Salvo write to that file, or remove it.
    static func isPartialDownloadPath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), !path.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) else { return false }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let above = folder.deletingLastPathComponent()
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        let inPrivateFolder = folder.lastPathComponent == "downloads" && above.lastPathComponent.hasPrefix("org.salvo.")
            && above.deletingLastPathComponent().standardizedFileURL.path == temporary
        let inSharedFolder = folder.lastPathComponent == "org.salvo.downloads" && above.standardizedFileURL.path == temporary
        guard inPrivateFolder || inSharedFolder else { return false }
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT }
        return (info.st_mode & S_IFMT) == S_IFREG && info.st_uid == getuid()
    }

    var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and integers cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The error when resume data is not Salvo's.
    struct Invalid: Error, CustomStringConvertible {
        var description: String { "the data is not Salvo resume data (see DownloadResumeData)" }
    }
}

/// The request behind `Session.download(resumingWith:)`: a GET of the URL that asks for the
/// rest of the partial file, or for all of it when the partial file is gone or changed.
struct ResumeConvertible: URLRequestConvertible {
    let resumeData: Data

    func asURLRequest() throws -> URLRequest {
        let resume = try DownloadResumeData(resumeData)
        guard let url = URL(string: resume.url) else { throw AFError.invalidURL(url: resume.url) }
        var request = URLRequest(url: url)
        request.httpMethod = HTTPMethod.get.rawValue
        let size = (try? FileManager.default.attributesOfItem(atPath: resume.partialFile)[.size] as? NSNumber)?.int64Value
        // Only a partial file of the recorded length can be continued; otherwise the
        // download starts over, into a new file. The range starts at the file's last byte
        // (the answer's first byte is dropped): a partial file that already holds every byte,
        // when a cancel came after the last one, then gets a 206 with that byte, where asking
        // from its end would get a 416 and its error page.
        if size == resume.bytes, resume.bytes > 0, let validator = resume.ifRange {
            request.setValue("bytes=\(resume.bytes - 1)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        return request
    }
}
