import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Builds a `multipart/form-data` body (RFC 7578) from data, files and streams, for uploads.
///
/// The body can be encoded in memory with `encode()`, or written to a file with
/// `writeEncodedData(to:)`, which reads files and streams in chunks and never holds a whole
/// part in memory. An upload picks between the two by comparing `contentLength` with
/// `encodingMemoryThreshold`.
///
/// Appending never throws: the first problem found (a missing file, a directory, a URL that is
/// not a file URL) is kept and thrown by the next `encode()` or `writeEncodedData(to:)`.
///
/// - Note: Unlike Alamofire's, this class is `Sendable`, so it can be built in one task and
///   uploaded from another. A stream part can be read once: encoding a second time fails for
///   that part with `UnexpectedInputStreamLength`, as it does in Alamofire. Data and file
///   parts can be encoded any number of times. A subclass must restate `@unchecked Sendable`
///   (the compiler warns until it does) and keep its own state thread-safe.
///
/// - Note: The boundary keeps Alamofire's format, `alamofire.boundary.` and 16 hex digits,
///   because it is visible in `boundary`, in `contentType` and on the wire.
open class MultipartFormData: @unchecked Sendable { // mutable state only under `lock`
    // @unchecked: every mutable stored property below is read and written only while holding
    // `lock`. A stream part is read outside the lock, but only by the one encoder that claimed it
    // under the lock (`claimStream(at:)`); data and file parts are immutable values.

    /// The `contentLength` from which an upload writes the body to a temporary file instead of
    /// encoding it in memory: 10 MB.
    public static let encodingMemoryThreshold: UInt64 = 10_000_000

    /// The string between body parts; random unless given to `init(fileManager:boundary:)`.
    public let boundary: String

    /// The file manager used to check files and to find the temporary directory.
    let fileManager: FileManager

    /// Guards `parts`, `firstError` and `contentTypeOverride`.
    private let lock = NSLock()
    private var parts: [BodyPart] = []
    private var firstError: AFError?
    private var contentTypeOverride: String?

    /// Creates an empty form.
    ///
    /// - Parameters:
    ///   - fileManager: The `FileManager` used to check appended files and to find the temporary
    ///     directory. Defaults to `.default`.
    ///   - boundary: The boundary between parts. Defaults to `nil`, which picks a random one.
    public init(fileManager: FileManager = .default, boundary: String? = nil) {
        self.fileManager = fileManager
        self.boundary = boundary ?? Self.randomBoundary()
    }

    /// The `Content-Type` header value for the body: `multipart/form-data; boundary=…` unless set.
    open var contentType: String {
        get { lock.withLock { contentTypeOverride } ?? "multipart/form-data; boundary=\(boundary)" }
        set { lock.withLock { contentTypeOverride = newValue } }
    }

    /// The total length of the parts' contents, in bytes, without boundaries and part headers.
    public var contentLength: UInt64 {
        lock.withLock {
            parts.reduce(0) { total, part in
                let (sum, overflow) = total.addingReportingOverflow(part.length)
                return overflow ? .max : sum
            }
        }
    }

    // MARK: - Appending

    /// Appends a part holding `data`.
    ///
    /// The part's headers are `Content-Disposition: form-data; name="…"` with `; filename="…"`
    /// when a file name is given, then `Content-Type` when a MIME type is given.
    ///
    /// - Parameters:
    ///   - data: The part's content.
    ///   - name: The form field name.
    ///   - fileName: The file name to report. Defaults to `nil`: none.
    ///   - mimeType: The part's `Content-Type`. Defaults to `nil`: no `Content-Type` header.
    public func append(_ data: Data, withName name: String, fileName: String? = nil, mimeType: String? = nil) {
        let headers = Self.contentHeaders(name: name, fileName: fileName, mimeType: mimeType)
        add(BodyPart(headers: headers, source: .data(data), length: UInt64(data.count)))
    }

    /// Appends a part holding the file at `fileURL`, named after its last path component, with
    /// the MIME type its extension implies (`application/octet-stream` when unknown).
    ///
    /// A URL without a last path component or without an extension records
    /// `bodyPartFilenameInvalid`, thrown when the form is encoded.
    ///
    /// - Parameters:
    ///   - fileURL: The file's URL.
    ///   - name: The form field name.
    public func append(_ fileURL: URL, withName name: String) {
        let fileName = fileURL.lastPathComponent
        let pathExtension = fileURL.pathExtension
        guard !fileName.isEmpty, !pathExtension.isEmpty else {
            record(.bodyPartFilenameInvalid(in: fileURL))
            return
        }
        append(fileURL, withName: name, fileName: fileName, mimeType: Self.mimeType(forPathExtension: pathExtension))
    }

    /// Appends a part holding the file at `fileURL`.
    ///
    /// The file is checked now (a file URL, reachable, not a directory, of known size, readable);
    /// the first failure is recorded and thrown when the form is encoded. Its content is read only
    /// when the form is encoded.
    ///
    /// - Parameters:
    ///   - fileURL: The file's URL.
    ///   - name: The form field name.
    ///   - fileName: The file name to report.
    ///   - mimeType: The part's `Content-Type`.
    public func append(_ fileURL: URL, withName name: String, fileName: String, mimeType: String) {
        let headers = Self.contentHeaders(name: name, fileName: fileName, mimeType: mimeType)
        switch checkedFileLength(fileURL) {
        case let .readable(length):
            add(BodyPart(headers: headers, source: .file(fileURL), length: length))
        case let .failed(reason):
            record(reason)
        }
    }

    /// Appends a part read from `stream`, with a `Content-Disposition` naming the field and file
    /// and a `Content-Type`.
    ///
    /// - Parameters:
    ///   - stream: The stream, read when the form is encoded. It must hold exactly `length` bytes.
    ///   - length: The number of bytes the stream holds.
    ///   - name: The form field name.
    ///   - fileName: The file name to report.
    ///   - mimeType: The part's `Content-Type`.
    public func append(_ stream: InputStream, withLength length: UInt64, name: String, fileName: String,
                       mimeType: String) {
        let headers = Self.contentHeaders(name: name, fileName: fileName, mimeType: mimeType)
        append(stream, withLength: length, headers: headers)
    }

    /// Appends a part read from `stream`, with the headers given, in their order.
    ///
    /// - Parameters:
    ///   - stream: The stream, read when the form is encoded. It must hold exactly `length` bytes.
    ///   - length: The number of bytes the stream holds.
    ///   - headers: The part's headers.
    public func append(_ stream: InputStream, withLength length: UInt64, headers: HTTPHeaders) {
        add(BodyPart(headers: headers, source: .stream(stream), length: length))
    }

    // MARK: - Encoding

    /// Encodes every part into one `Data` value.
    ///
    /// - Warning: The whole body is held in memory. For large bodies use `writeEncodedData(to:)`.
    ///
    /// - Returns: The encoded body; empty when no part was appended.
    /// - Throws: `AFError.multipartEncodingFailed` with the first error recorded while appending,
    ///   or `.inputStreamReadFailed` when a file or stream cannot be read or its length differs
    ///   from the declared one (the error is then an `AFError.UnexpectedInputStreamLength`).
    public func encode() throws -> Data {
        let parts = try snapshot()
        var sink = MemorySink(expectedCount: encodedLengthEstimate(of: parts))
        try encode(parts, into: &sink)
        return sink.data
    }

    /// Writes the encoded body to a new file at `fileURL`, reading files and streams in chunks.
    ///
    /// On failure after the file was created, the partial file is removed.
    ///
    /// - Parameter fileURL: The file URL to create. Nothing may exist there yet.
    /// - Throws: `AFError.multipartEncodingFailed` with the first error recorded while appending;
    ///   `.outputStreamFileAlreadyExists`, `.outputStreamURLInvalid` or `.outputStreamCreationFailed`
    ///   for an unusable destination; `.outputStreamWriteFailed` when writing fails; or
    ///   `.inputStreamReadFailed` as for `encode()`.
    public func writeEncodedData(to fileURL: URL) throws {
        try writeEncodedData(to: fileURL, permissions: 0o666)
    }

    // MARK: - Internal

    /// Encodes to a file created with `permissions` (less the umask); see `writeEncodedData(to:)`.
    func writeEncodedData(to fileURL: URL, permissions: mode_t) throws {
        let parts = try snapshot()
        if fileManager.fileExists(atPath: fileURL.path) {
            throw AFError.multipartEncodingFailed(reason: .outputStreamFileAlreadyExists(at: fileURL))
        }
        guard fileURL.isFileURL else {
            throw AFError.multipartEncodingFailed(reason: .outputStreamURLInvalid(url: fileURL))
        }
        var sink = try FileSink(creating: fileURL, permissions: permissions)
        do {
            try encode(parts, into: &sink)
            try sink.finish()
        } catch {
            sink.abandon()
            throw error
        }
    }

    /// The parts appended so far, or the first error recorded while appending.
    func snapshot() throws -> [BodyPart] {
        let (parts, error): ([BodyPart], AFError?) = lock.withLock { (self.parts, firstError) }
        if let error { throw error }
        return parts
    }

    /// Takes the stream of the part at `index` for the one encoder that will read it, or `nil`
    /// when an earlier encoding already took it.
    func claimStream(at index: Int) -> InputStream? {
        lock.withLock {
            guard case let .stream(stream) = parts[index].source else { return nil }
            parts[index].source = .consumedStream
            return stream
        }
    }

    // MARK: - Private

    private func add(_ part: BodyPart) {
        lock.withLock { parts.append(part) }
    }

    /// Keeps the first error, which encoding then throws, as Alamofire does; later appends still run.
    private func record(_ reason: AFError.MultipartEncodingFailureReason) {
        lock.withLock {
            if firstError == nil { firstError = .multipartEncodingFailed(reason: reason) }
        }
    }

    private static func contentHeaders(name: String, fileName: String?, mimeType: String?) -> HTTPHeaders {
        var disposition = "form-data; name=\"\(name)\""
        if let fileName { disposition += "; filename=\"\(fileName)\"" }
        var headers: HTTPHeaders = [.contentDisposition(disposition)]
        if let mimeType { headers.add(.contentType(mimeType)) }
        return headers
    }

    /// `alamofire.boundary.` and 64 random bits as 16 lowercase hex digits.
    static func randomBoundary() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return "alamofire.boundary." + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
