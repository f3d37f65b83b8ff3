import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a download's body goes: straight into a file descriptor, written with `write(2)`
/// from libcurl's write callback on the loop thread, so the body is never held in memory.
///
/// Opened by the request layer before the transfer is submitted, written only on the loop
/// thread while the transfer runs, and closed by the request layer once the transfer's
/// outcome has been delivered; the submit and delivery hand-offs order those accesses.
package final class ResponseFileSink: ResponseSink {
    /// The bytes the file held when the transfer began (a resumed download appends to them).
    package private(set) var startOffset: Int64
    /// The bytes the file holds now.
    package private(set) var size: Int64
    /// The `errno` of the first failed write, or 0.
    package private(set) var writeError: Int32 = 0
    /// The body of an intermediate (1xx) response is not the download's.
    private var discarding = false
    /// For a resumed file, the first byte a `206` answer must start at (set before the
    /// transfer starts); `nil` when any start is right (a range the caller asked for).
    package var expectedRangeStart: Int64?
    /// How many of the file's last bytes a `206` answer repeats first: a resumed download asks
    /// from one byte before its end, so its file is never cut back before an answer comes.
    package var overlap: Int64 = 0
    /// Where in the file the answer's body starts: after the bytes a resumed download kept
    /// (less the ones the answer repeats), or 0 once the answer started the file over.
    package var bytesBeforeAnswer: Int64 { restarted ? 0 : max(0, startOffset - overlap) }
    /// Bytes of the current answer still to drop because the file holds them already.
    private var skipping: Int64 = 0
    /// Set when a `206` answer started elsewhere than `expectedRangeStart`: appending it would
    /// corrupt the file, so the transfer ends (see `CurlEasy.outcome`).
    package private(set) var rangeMismatch: (expected: Int64, received: Int64?)?
    /// The file held bytes and the answer was the whole body, so the file started over.
    package private(set) var restarted = false
    /// Where an error answer's body goes instead of the file, for a resumed download: its
    /// partial file stays whole for a retry (set before the transfer starts).
    package var errorBodyPath: String?
    /// An error answer's body went to `errorBodyPath`.
    package private(set) var wroteErrorBody = false
    private var descriptor: Int32
    /// The error body's file while one is written, else -1.
    private var errorDescriptor: Int32 = -1

    /// Creates a new file, failing if one exists at `path` (`O_EXCL`): a sink never writes
    /// into a file it did not make.
    package static func create(at path: String) throws -> ResponseFileSink {
        // O_APPEND: after `headersEnded` truncates, writes start again at the new end.
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.posixError(errno, path) }
        return ResponseFileSink(descriptor: fd, size: 0)
    }

    /// Opens an existing partial file to append to it.
    package static func append(to path: String) throws -> ResponseFileSink {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { throw Self.posixError(errno, path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = errno
            Glibc.close(fd)
            throw Self.posixError(error, path)
        }
        return ResponseFileSink(descriptor: fd, size: Int64(info.st_size))
    }

    private init(descriptor: Int32, size: Int64) {
        self.descriptor = descriptor
        self.size = size
        startOffset = size
        super.init()
    }

    deinit {
        close()
    }

    /// Writes a piece of the body (loop thread). Returns `count`, or 0 after a failed write,
    /// which makes libcurl stop the transfer with a write error.
    package override func write(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        if discarding { return count }
        // A failed write, or a failed truncation before a full answer to a resumed download,
        // ends the transfer: appending would leave a wrong file under a successful response.
        if writeError != 0 { return 0 }
        var done = 0
        if skipping > 0 {
            done = Int(min(skipping, Int64(count)))
            skipping -= Int64(done)
        }
        let skipped = done
        let target = errorDescriptor >= 0 ? errorDescriptor : descriptor
        while done < count {
            let result = Glibc.write(target, bytes + done, count - done)
            if result < 0 {
                if errno == EINTR { continue }
                writeError = errno
                return 0
            }
            done += result
        }
        if target == descriptor { size += Int64(count - skipped) }
        return count
    }

    /// Told when a response's header block ends (loop thread), before its body arrives.
    ///
    /// A redirect's body is written as any answer's: if the redirect is followed, the next
    /// hop starts the file over; if not, the redirect is the download's answer, as with
    /// URLSession. A file that already held bytes keeps them only when the server answers
    /// the range with 206; any other final answer means the whole body follows, so the file
    /// starts over, except an error or a redirect answering a resumed download, whose body
    /// goes beside it (`errorBodyPath`).
    package override func headersEnded(status: Int, isRedirect: Bool, rangeStart: Int64?) {
        discarding = status < 200
        skipping = 0
        // One final head per transfer reaches a sink: a challenge libcurl answers never does
        // (see `Transfer.headerEvent`).
        guard !discarding else { return }
        if status == 206 {
            if let expected = expectedRangeStart, rangeStart != expected {
                rangeMismatch = (expected, rangeStart)
                writeError = EINVAL
                return
            }
            skipping = overlap
            return
        }
        guard size > 0 else { return }
        if status >= 400 || isRedirect {
            if let errorBodyPath, errorDescriptor < 0 {
                // No answer to the range: the partial file stays for a retry or the next hop,
                // and this answer's body (the download's file if the request ends here) goes
                // beside it.
                let fd = open(errorBodyPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                if fd >= 0 {
                    errorDescriptor = fd
                    wroteErrorBody = true
                } else {
                    writeError = errno
                }
                return
            }
            if isRedirect {
                // Nowhere to keep it without cutting the partial file: dropped.
                discarding = true
                return
            }
        }
        if ftruncate(descriptor, 0) == 0 {
            size = 0
            restarted = true
        } else {
            writeError = errno
        }
    }

    /// Cuts the file back to `length` bytes before the transfer starts: a retried attempt
    /// of a resumed download asks again for the bytes from its first range start on.
    package func truncate(to length: Int64) throws {
        guard length <= size else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the partial file is shorter than its resume data says"])
        }
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw Self.posixError(errno, "") }
        size = length
        startOffset = length
    }

    /// Closes the descriptor; later calls do nothing.
    package func close() {
        if errorDescriptor >= 0 {
            Glibc.close(errorDescriptor)
            errorDescriptor = -1
        }
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    package static func posixError(_ code: Int32, _ path: String) -> any Error {
        let posix = POSIXErrorCode(rawValue: code) ?? .EIO
        return CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(posix)])
    }
}
