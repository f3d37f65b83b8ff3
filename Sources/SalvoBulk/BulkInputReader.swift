import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Salvo

/// Reads a URL list in aria2's input-file format, one entry at a time.
///
/// The format:
/// - A line that does not start with a blank is an entry: one or more URIs of the same file
///   (mirrors), separated by TAB. Each must be an absolute `http` or `https` URL.
/// - A line that starts with a space or a TAB is an option, `name=value`, for the entry above
///   it: `out=NAME` (the file name, relative to the directory), `dir=DIR`,
///   `checksum=TYPE=HEX` (`sha-256`, `sha-1` or `md5`) and `header=Name: value` (repeatable);
///   and, as aria2 allows them per entry, `user-agent=`, `http-user=`, `http-passwd=`,
///   `all-proxy=`, `http-proxy=`, `https-proxy=`, `no-proxy=` and the `true`/`false` options
///   `no-netrc=`, `remote-time=`, `allow-overwrite=` and `dry-run=`.
///   A later option replaces an earlier one of the same name, as in aria2, and so does a
///   later header of the same name (case-insensitive), as in `HTTPHeaders`.
/// - A line starting with `#` (after any blanks) is a comment; blank lines are skipped.
/// - Lines end in LF or CRLF; the last may have no end. A UTF-8 byte order mark at the start
///   is skipped.
///
/// The list is read in chunks (64 KiB by default) and entries are handed out as they are
/// complete, so a list of millions of lines, or one still being written to a pipe, takes the
/// memory of one chunk, one line and one entry. An entry is complete when the next entry line
/// or the end of the list is read, since option lines follow it.
///
/// ```swift
/// let reader = try BulkInputReader(contentsOfFile: "urls.txt")
/// while let entry = try reader.next() {
///     print(entry.line, entry.uris[0])
/// }
/// ```
///
/// - Note: Reading stops at the first bad line: `next()` throws a `BulkInputError` naming the
///   line, and throws the same error on every later call.
/// - Warning: Not thread-safe: one reader belongs to one thread or task at a time.
public final class BulkInputReader {
    /// The bytes read from the list at a time, by default.
    public static let defaultChunkSize = 64 * 1024

    /// The longest line the reader holds, in bytes. A longer line is an error rather than a
    /// reason to grow without bound.
    public static let maximumLineLength = 1 << 20

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Kept so that a `FileHandle` given to `init(fileHandle:)` does not close its descriptor
    /// while the reader uses it.
    private let handle: FileHandle?
    private var chunk: [UInt8]
    private let chunkSize: Int
    private var chunkStart = 0
    private var chunkEnd = 0
    private var atEndOfInput = false
    private var line: [UInt8] = []
    private var lineNumber = 0
    private var pending: BulkEntry?
    private var failure: BulkInputError?

    /// A reader of the file at `path`, which it opens now and closes when it is released.
    ///
    /// - Parameters:
    ///   - path: The list's path.
    ///   - chunkSize: The bytes read at a time. `defaultChunkSize` by default.
    /// - Throws: `BulkInputError` with line 0 and `.cannotOpen` when the file cannot be opened.
    public convenience init(contentsOfFile path: String, chunkSize: Int = BulkInputReader.defaultChunkSize) throws(BulkInputError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BulkInputError(line: 0, reason: .cannotOpen(errno: errno)) }
        self.init(descriptor: descriptor, owns: true, handle: nil, bytes: [], chunkSize: chunkSize)
    }

    /// A reader of an open file descriptor (standard input is `STDIN_FILENO`), which it reads
    /// from its current position and does not close.
    ///
    /// - Parameters:
    ///   - fileDescriptor: A descriptor open for reading: a file, a pipe, a terminal.
    ///   - chunkSize: The bytes read at a time. `defaultChunkSize` by default.
    public convenience init(fileDescriptor: Int32, chunkSize: Int = BulkInputReader.defaultChunkSize) {
        self.init(descriptor: fileDescriptor, owns: false, handle: nil, bytes: [], chunkSize: chunkSize)
    }

    /// A reader of a `FileHandle`, kept open while the reader lives.
    ///
    /// - Parameters:
    ///   - fileHandle: A handle open for reading.
    ///   - chunkSize: The bytes read at a time. `defaultChunkSize` by default.
    public convenience init(fileHandle: FileHandle, chunkSize: Int = BulkInputReader.defaultChunkSize) {
        self.init(descriptor: fileHandle.fileDescriptor, owns: false, handle: fileHandle, bytes: [], chunkSize: chunkSize)
    }

    /// A reader of a list already in memory.
    ///
    /// - Parameter text: The whole list.
    public convenience init(string text: String) {
        self.init(descriptor: -1, owns: false, handle: nil, bytes: Array(text.utf8), chunkSize: Self.defaultChunkSize)
    }

    private init(descriptor: Int32, owns: Bool, handle: FileHandle?, bytes: [UInt8], chunkSize: Int) {
        self.descriptor = descriptor
        self.ownsDescriptor = owns
        self.handle = handle
        self.chunkSize = max(1, chunkSize)
        if descriptor < 0 {
            chunk = bytes
            chunkEnd = bytes.count
        } else {
            chunk = [UInt8](repeating: 0, count: self.chunkSize)
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next entry of the list, or `nil` at its end.
    ///
    /// - Returns: The entry, with the options from the lines below it.
    /// - Throws: `BulkInputError` for the first line that cannot be used, or when reading fails.
    public func next() throws(BulkInputError) -> BulkEntry? {
        if let failure { throw failure }
        do {
            return try advance()
        } catch {
            failure = error
            throw error
        }
    }

    private func advance() throws(BulkInputError) -> BulkEntry? {
        while try readLine() {
            if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            guard let text = Self.text(of: line) else { throw BulkInputError(line: lineNumber, reason: .notUTF8) }
            let content = text.trimmingBlanks()
            if content.isEmpty || content.hasPrefix("#") { continue }
            if text.first == " " || text.first == "\t" {
                try applyOption(content)
                continue
            }
            let entry = try parseEntry(content)
            if let finished = pending {
                pending = entry
                return finished
            }
            pending = entry
        }
        defer { pending = nil }
        return pending
    }

    /// The line as text, or `nil` when it is not UTF-8. An ASCII line (nearly every line of a
    /// list) is taken as it is: `String(validating:as:)` instantiates its generic decoder's
    /// metadata on every call, which cost more than the check.
    private static func text(of line: [UInt8]) -> String? {
        var bits: UInt8 = 0
        for byte in line { bits |= byte }
        return bits < 0x80 ? String(decoding: line, as: UTF8.self) : String(validating: line, as: UTF8.self)
    }

    private func parseEntry(_ content: String) throws(BulkInputError) -> BulkEntry {
        var uris: [URL] = []
        // Split at the TAB bytes: a TAB is a control character, always a Character of its
        // own, so this splits where `split(separator: "\t")` would, without walking the line
        // Character by Character (a third of the time spent reading a list).
        let bytes = content.utf8
        var start = bytes.startIndex
        while true {
            let end = bytes[start...].firstIndex(of: 0x09) ?? bytes.endIndex
            let text = String(Substring(bytes[start..<end])).trimmingBlanks()
            if !text.isEmpty {
                do {
                    uris.append(try BulkURI.parse(text))
                } catch {
                    throw BulkInputError(line: lineNumber, reason: .invalidURI(message: error.message))
                }
            }
            guard end < bytes.endIndex else { break }
            start = bytes.index(after: end)
        }
        return BulkEntry(uris: uris, line: lineNumber)
    }

    /// The option lines an entry may have, aria2's names for them.
    public static let optionNames = [
        "out", "dir", "checksum", "header", "user-agent", "http-user", "http-passwd", "all-proxy", "http-proxy", "https-proxy",
        "no-proxy", "no-netrc", "remote-time", "allow-overwrite", "dry-run",
    ]

    private func applyOption(_ content: String) throws(BulkInputError) {
        guard let equals = content.firstIndex(of: "=") else {
            throw BulkInputError(line: lineNumber, reason: .malformedOption(text: content))
        }
        let name = String(content[..<equals]).trimmingBlanks()
        let value = String(content[content.index(after: equals)...]).trimmingBlanks()
        guard var entry = pending else {
            throw BulkInputError(line: lineNumber, reason: .optionBeforeEntry(name: name))
        }
        let reason: (String) -> BulkInputError.Reason
        switch name {
        case "out", "dir": reason = BulkInputError.Reason.invalidPath
        case "checksum": reason = BulkInputError.Reason.invalidChecksum
        case "header": reason = BulkInputError.Reason.invalidHeader
        case _ where Self.optionNames.contains(name): reason = BulkInputError.Reason.invalidValue
        default: throw BulkInputError(line: lineNumber, reason: .unknownOption(name: name))
        }
        // The entry leaves `pending` while it changes, so its arrays are not copied.
        pending = nil
        do throws(BulkValueError) {
            switch name {
            case "out":
                try BulkOutputName.validate(value)
                entry.outputName = value
            case "dir":
                try BulkOutputName.validateDirectory(value)
                entry.directory = value
            case "checksum":
                entry.checksum = try BulkChecksum(parsing: value)
            case "header":
                entry.headers.add(try BulkHeaderLine.parse(value))
            case "user-agent":
                entry.headers.update(try BulkHeaderLine.parse("User-Agent: " + value))
            case "http-user":
                entry.httpUser = value
            case "http-passwd":
                entry.httpPassword = value
            case "all-proxy", "http-proxy", "https-proxy":
                try BulkProxySettings.validate(value, for: name)
                switch name {
                case "all-proxy": entry.proxies.allProxy = value
                case "http-proxy": entry.proxies.httpProxy = value
                default: entry.proxies.httpsProxy = value
                }
            case "no-proxy":
                entry.proxies.noProxy = value
            case "no-netrc":
                entry.usesNetrc = !(try BulkToolArguments.boolean(value, for: name))
            case "remote-time":
                entry.remoteTime = try BulkToolArguments.boolean(value, for: name)
            case "allow-overwrite":
                entry.allowOverwrite = try BulkToolArguments.boolean(value, for: name)
            default:
                entry.dryRun = try BulkToolArguments.boolean(value, for: name)
            }
        } catch {
            throw BulkInputError(line: lineNumber, reason: reason(error.message))
        }
        pending = entry
    }

    /// Fills `line` with the next line's bytes, without its LF; `false` at the end of the list.
    private func readLine() throws(BulkInputError) -> Bool {
        line.removeAll(keepingCapacity: true)
        var sawBytes = false
        while true {
            if chunkStart < chunkEnd {
                sawBytes = true
                let newline = chunk.withUnsafeBufferPointer { buffer -> Int? in
                    let base = buffer.baseAddress! + chunkStart
                    guard let found = memchr(base, 0x0A, chunkEnd - chunkStart) else { return nil }
                    return chunkStart + UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                }
                let end = newline ?? chunkEnd
                guard line.count + (end - chunkStart) <= Self.maximumLineLength else {
                    throw BulkInputError(line: lineNumber + 1, reason: .lineTooLong(limit: Self.maximumLineLength))
                }
                line.append(contentsOf: chunk[chunkStart..<end])
                if let newline {
                    chunkStart = newline + 1
                    lineNumber += 1
                    return true
                }
                chunkStart = chunkEnd
            }
            if atEndOfInput || descriptor < 0 {
                atEndOfInput = true
                guard sawBytes else { return false }
                lineNumber += 1
                return true
            }
            try refill()
        }
    }

    private func refill() throws(BulkInputError) {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
            if count > 0 {
                chunkStart = 0
                chunkEnd = count
                return
            }
            if count == 0 {
                atEndOfInput = true
                return
            }
            if errno == EINTR { continue }
            throw BulkInputError(line: lineNumber + 1, reason: .readFailed(errno: errno))
        }
    }
}
