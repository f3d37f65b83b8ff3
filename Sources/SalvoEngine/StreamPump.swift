import Foundation

/// Reads an upload's `InputStream` on a thread of its own, so a stream that blocks (a pipe,
/// a socket, a generator fed by another thread) stalls only its own upload, never the event
/// loop and the session's other transfers.
///
/// The pump keeps at most `limit` bytes read ahead. libcurl's read callback takes what is
/// there; when nothing is, the transfer pauses (`CURL_READFUNC_PAUSE`) and the pump calls
/// `onReadable` once the stream gives more bytes, ends or fails, so the loop can unpause it.
package final class StreamPump: @unchecked Sendable { // every stored `var` is guarded by `condition`; the `let`s are set in init
    /// What a read from the pump found.
    package enum ReadResult {
        /// Bytes copied into the caller's buffer; 0 at the end of the stream.
        case bytes(Int)
        /// Nothing read ahead yet: pause, and wait for `onReadable`.
        case pending
        /// The stream failed; the error says why.
        case failed(any Error)
    }

    package static let chunkSize = 64 * 1024
    /// The most bytes read ahead of libcurl: enough to keep a socket busy, small enough
    /// that a fast stream and a slow server hold little memory.
    package static let limit = 4 * chunkSize

    private let stream: InputStream
    private let condition = NSCondition()
    private var chunks: [[UInt8]] = []
    /// How far into `chunks[0]` the reader has got.
    private var offset = 0
    private var buffered = 0
    private var ended = false
    private var failure: (any Error)?
    private var started = false
    private var cancelled = false
    /// The reader found nothing and paused; the next bytes (or the end) must wake it.
    private var readerWaiting = false
    private var onReadable: (@Sendable () -> Void)?

    package init(stream: InputStream) {
        self.stream = stream
    }

    /// Sets what wakes a paused reader. Called by the loop before the first read.
    package func setOnReadable(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        onReadable = body
        condition.unlock()
    }

    /// Starts the pump's thread, once: when the transfer begins, so the stream is already
    /// being read when libcurl first asks for bytes.
    package func start() {
        condition.lock()
        defer { condition.unlock() }
        startLocked()
    }

    private func startLocked() {
        guard !started, !cancelled else { return }
        started = true
        let thread = Thread { [self] in pump() }
        thread.name = "org.salvo.upload-stream"
        thread.start()
    }

    /// Copies up to `count` read-ahead bytes into `buffer` (loop thread).
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) -> ReadResult {
        condition.lock()
        defer { condition.unlock() }
        startLocked()
        guard buffered == 0 else {
            var copied = 0
            while copied < count, let first = chunks.first {
                let take = min(count - copied, first.count - offset)
                first.withUnsafeBytes { bytes in
                    (buffer + copied).copyMemory(from: bytes.baseAddress! + offset, byteCount: take)
                }
                copied += take
                offset += take
                if offset == first.count {
                    chunks.removeFirst()
                    offset = 0
                }
            }
            buffered -= copied
            condition.signal()
            return .bytes(copied)
        }
        if let failure { return .failed(failure) }
        if ended { return .bytes(0) }
        readerWaiting = true
        return .pending
    }

    /// Stops the pump: its thread ends after the read it may be blocked in, and closes the
    /// stream.
    package func cancel() {
        condition.lock()
        cancelled = true
        onReadable = nil
        condition.signal()
        condition.unlock()
    }

    /// The pump's thread: read, append, wake the reader, wait while the read-ahead is full.
    private func pump() {
        stream.open()
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            condition.lock()
            while buffered >= Self.limit && !cancelled { condition.wait() }
            let stop = cancelled
            condition.unlock()
            if stop { break }

            // Outside the lock: this is the call that may block.
            let count = chunk.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }

            condition.lock()
            if count > 0 {
                chunks.append(Array(chunk[..<count]))
                buffered += count
            } else if count == 0 {
                ended = true
            } else {
                failure = stream.streamError ?? CocoaError(.fileReadUnknown)
            }
            let wake = readerWaiting ? onReadable : nil
            if wake != nil { readerWaiting = false }
            let done = count <= 0 || cancelled
            condition.unlock()
            wake?()
            if done { break }
        }
        stream.close()
    }
}
