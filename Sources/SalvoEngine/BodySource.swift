import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an upload's body comes from: read in pieces by libcurl's read callback on the loop
/// thread, so a file or a stream is never loaded whole.
///
/// Made by the request layer for one transfer, used only on the loop thread while the
/// transfer runs, then dropped. Data and files can go back to their start (libcurl asks
/// when it must send the body again, after an authentication challenge or a reused
/// connection that closed); a stream cannot once it has been read from. A stream is read on
/// a thread of its own (`StreamPump`), since its reads may block.
package final class BodySource {
    package enum Origin {
        case data(Data)
        /// An open descriptor, owned (closed) by the source.
        case file(Int32)
        case stream(StreamPump)
    }

    /// What a read found.
    package enum ReadResult {
        /// Bytes read; 0 at the end of the body.
        case bytes(Int)
        /// Nothing to send yet (a stream waiting for data): the transfer pauses until
        /// `StreamPump`'s `onReadable` says more is there.
        case pending
        /// Reading failed; `failure` says why.
        case failed
    }

    private let origin: Origin
    /// The body's length, or `nil` when unknown (a stream): sent chunked then.
    package let length: Int64?
    package private(set) var position: Int64 = 0
    /// Why the body could not be read (a stream's error, a failed `read(2)`).
    package private(set) var failure: (any Error)?

    package init(data: Data) {
        origin = .data(data)
        length = Int64(data.count)
    }

    /// Opens a file to read it; throws when it cannot be opened.
    package init(fileAt path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ResponseFileSink.posixError(errno, path) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(fd)
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        origin = .file(fd)
        length = Int64(info.st_size)
    }

    package init(stream: InputStream) {
        origin = .stream(StreamPump(stream: stream))
        length = nil
    }

    deinit {
        switch origin {
        case let .file(fd): Glibc.close(fd)
        case let .stream(pump): pump.cancel()
        case .data: break
        }
    }

    /// The stream's pump, for the loop to learn when a paused upload can go on.
    package var streamPump: StreamPump? {
        if case let .stream(pump) = origin { return pump }
        return nil
    }

    /// Fills `buffer` with up to `count` bytes (loop thread).
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) -> ReadResult {
        let read: Int
        switch origin {
        case let .data(data):
            let start = Int(position)
            read = min(count, data.count - start)
            if read > 0 {
                data.withUnsafeBytes { raw in buffer.copyMemory(from: raw.baseAddress! + start, byteCount: read) }
            }
        case let .file(fd):
            var result: Int
            repeat { result = Glibc.read(fd, buffer, count) } while result < 0 && errno == EINTR
            guard result >= 0 else {
                failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                return .failed
            }
            read = result
        case let .stream(pump):
            switch pump.read(into: buffer, count: count) {
            case let .bytes(count): read = count
            case .pending: return .pending
            case let .failed(error):
                failure = error
                return .failed
            }
        }
        position += Int64(read)
        return .bytes(read)
    }

    /// Goes back to the start of the body; `false` when that is impossible (a stream
    /// already read from).
    package func rewind() -> Bool {
        switch origin {
        case .data:
            break
        case let .file(fd):
            guard lseek(fd, 0, SEEK_SET) == 0 else { return false }
        case .stream:
            guard position == 0 else { return false }
        }
        position = 0
        return true
    }
}
