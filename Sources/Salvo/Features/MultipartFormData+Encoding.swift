import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension MultipartFormData {
    /// An encoded body as an upload sends it: in memory, or in a temporary file that the
    /// caller removes once the upload is over.
    enum EncodedBody: Sendable, Equatable {
        case data(Data)
        case file(URL)
    }

    /// Encodes the form in memory when `contentLength` is below `threshold`, otherwise into a
    /// new file in `multipart` of the process's private temporary folder (`PrivateTemporaryDirectory`).
    ///
    /// - Parameter threshold: The `contentLength` from which a file is used. Defaults to
    ///   `encodingMemoryThreshold`.
    /// - Returns: The body; a `.file` belongs to the caller, who removes it after the upload.
    /// - Throws: What `encode()` and `writeEncodedData(to:)` throw, or the `FileManager` error when
    ///   the directory cannot be created (Alamofire lets that one through unwrapped too).
    func encodedBody(threshold: UInt64 = MultipartFormData.encodingMemoryThreshold) throws -> EncodedBody {
        if contentLength < threshold { return .data(try encode()) }

        let directory = try PrivateTemporaryDirectory.folder("multipart")
        let fileURL = directory.appendingPathComponent(UUID().uuidString)
        try writeEncodedData(to: fileURL, permissions: 0o600)
        return .file(fileURL)
    }

    /// Bytes read from a file or stream at a time. Alamofire reads 1 KiB; 64 KiB costs 64 times
    /// fewer calls and still keeps memory flat.
    static let chunkSize = 64 * 1024

    /// Writes boundaries, headers and contents in order. A first part opens with `--boundary`, the
    /// others with CRLF before it, and CRLF `--boundary--` CRLF closes the body.
    func encode(_ parts: [BodyPart], into sink: inout some EncodingSink) throws {
        guard !parts.isEmpty else { return }
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        for (index, part) in parts.enumerated() {
            try sink.write(Data((index == 0 ? "--\(boundary)\r\n" : "\r\n--\(boundary)\r\n").utf8))
            try sink.write(Self.headerBytes(part.headers))
            switch part.source {
            case let .data(data):
                try sink.write(data)
            case let .file(url):
                try copyFile(at: url, length: part.length, into: &sink, buffer: &buffer)
            case .stream, .consumedStream:
                try copyStream(claimStream(at: index), length: part.length, into: &sink, buffer: &buffer)
            }
        }
        try sink.write(Data("\r\n--\(boundary)--\r\n".utf8))
    }

    /// Each header as `Name: Value` CRLF, then the empty line that ends a part's headers.
    static func headerBytes(_ headers: HTTPHeaders) -> Data {
        var text = ""
        for header in headers { text += "\(header.name): \(header.value)\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// The exact encoded size when every part holds its declared length.
    func encodedLengthEstimate(of parts: [BodyPart]) -> UInt64 {
        guard !parts.isEmpty else { return 0 }
        let boundaryLength = UInt64(boundary.utf8.count)
        // Every part but the first opens with CRLF "--" boundary CRLF (boundary + 6 bytes), the first
        // without the leading CRLF; the body closes with CRLF "--" boundary "--" CRLF (boundary + 8).
        var total = UInt64(parts.count) * (boundaryLength + 6) + boundaryLength + 6
        for part in parts {
            for count in [part.length, UInt64(Self.headerBytes(part.headers).count)] {
                let (sum, overflow) = total.addingReportingOverflow(count)
                if overflow { return .max }
                total = sum
            }
        }
        return total
    }

    // MARK: - Reading parts

    private func copyFile(at url: URL, length: UInt64, into sink: inout some EncodingSink,
                          buffer: inout [UInt8]) throws {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.readFailure(POSIXError.current) }
        defer { close(descriptor) }
        try copy(length: length, into: &sink, buffer: &buffer) { pointer, count in
            while true {
                let result = read(descriptor, pointer, count)
                if result >= 0 { return result }
                if errno != EINTR { throw Self.readFailure(POSIXError.current) }
            }
        }
    }

    private func copyStream(_ stream: InputStream?, length: UInt64, into sink: inout some EncodingSink,
                            buffer: inout [UInt8]) throws {
        // A stream taken by an earlier encoding yields nothing, as a spent stream does in Alamofire.
        guard let stream else { return try Self.checkLength(expected: length, read: 0) }
        stream.open()
        defer { stream.close() }
        try copy(length: length, into: &sink, buffer: &buffer) { pointer, count in
            let result = stream.read(pointer, maxLength: count)
            // Linux Foundation traps when `streamError` is read, so the stream's own error is not
            // available there; an I/O error stands in for it.
            if result < 0 { throw Self.readFailure(POSIXError(.EIO)) }
            return result
        }
    }

    /// Copies up to `length` bytes from `read` into `sink`, then counts whatever the source still
    /// holds, so a source that is shorter or longer than declared fails with its true length.
    private func copy(length: UInt64, into sink: inout some EncodingSink, buffer: inout [UInt8],
                      read: (UnsafeMutablePointer<UInt8>, Int) throws -> Int) throws {
        var total: UInt64 = 0
        try buffer.withUnsafeMutableBufferPointer { chunk in
            let base = chunk.baseAddress!
            while true {
                let wanted = total < length ? Int(min(UInt64(chunk.count), length - total)) : chunk.count
                let count = try read(base, wanted)
                guard count > 0 else { break }
                if total < length { try sink.write(UnsafeRawBufferPointer(start: base, count: count)) }
                total += UInt64(count)
            }
        }
        try Self.checkLength(expected: length, read: total)
    }

    private static func checkLength(expected: UInt64, read: UInt64) throws {
        guard expected != read else { return }
        throw readFailure(AFError.UnexpectedInputStreamLength(bytesExpected: expected, bytesRead: read))
    }

    private static func readFailure(_ error: any Error) -> AFError {
        .multipartEncodingFailed(reason: .inputStreamReadFailed(error: error))
    }
}

// MARK: - Sinks

/// Where encoded bytes go: memory for `encode()`, a file for `writeEncodedData(to:)`.
protocol EncodingSink {
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
}

extension EncodingSink {
    mutating func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }
}

struct MemorySink: EncodingSink {
    private(set) var data = Data()

    init(expectedCount: UInt64) {
        // A declared stream length can be anything, so only modest estimates are trusted.
        if expectedCount <= 64 << 20 { data.reserveCapacity(Int(expectedCount)) }
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        data.append(contentsOf: bytes)
    }
}

/// Buffers small writes (boundaries, headers) so that a file receives few, large `write` calls.
struct FileSink: EncodingSink {
    private let url: URL
    private var descriptor: Int32
    private var pending: [UInt8] = []

    /// Creates the file with `O_EXCL`, so an existing file, or a link planted in its place, is
    /// never written through.
    init(creating url: URL, permissions: mode_t) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else {
            let reason: AFError.MultipartEncodingFailureReason = errno == EEXIST
                ? .outputStreamFileAlreadyExists(at: url) : .outputStreamCreationFailed(for: url)
            throw AFError.multipartEncodingFailed(reason: reason)
        }
        self.url = url
        self.descriptor = descriptor
        pending.reserveCapacity(MultipartFormData.chunkSize)
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        if pending.count + bytes.count > MultipartFormData.chunkSize { try flush() }
        if bytes.count >= MultipartFormData.chunkSize {
            try writeAll(bytes)
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    /// Flushes and closes; `close` can report a failed delayed write, so its error counts.
    mutating func finish() throws {
        try flush()
        let result = close(descriptor)
        descriptor = -1
        if result != 0 { throw Self.writeFailure(POSIXError.current) }
    }

    /// Closes and removes the partial file after a failure.
    mutating func abandon() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(url.path)
    }

    private mutating func flush() throws {
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBytes { try writeAll($0) }
        pending.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let result = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if result > 0 {
                offset += result
            } else if result < 0, errno == EINTR {
                continue
            } else {
                throw Self.writeFailure(result < 0 ? POSIXError.current : POSIXError(.EIO))
            }
        }
    }

    private static func writeFailure(_ error: any Error) -> AFError {
        .multipartEncodingFailed(reason: .outputStreamWriteFailed(error: error))
    }
}

/// The C `write`, which `FileSink.write(_:)` hides inside the type.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

extension POSIXError {
    /// The error `errno` names right now.
    fileprivate static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
