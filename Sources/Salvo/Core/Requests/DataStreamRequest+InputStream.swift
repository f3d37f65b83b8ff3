import Foundation

extension DataStreamRequest {
    /// The body as an `InputStream` whose `read` blocks until bytes arrive; it reaches its
    /// end when the request completes (or reports the request's error).
    ///
    /// A chunk stays counted against the stream buffer until it has been read, so a slow
    /// reader pauses the transfer.
    ///
    /// - Parameter bufferSize: Kept for compatibility: Salvo's stream buffer (set with
    ///   `streamBufferSize:` when the request is made) bounds memory instead.
    /// - Returns: The stream. Read it off the queues the session uses: its reads block.
    public func asInputStream(bufferSize: Int = 1024) -> InputStream? {
        let stream = ChunkInputStream()
        let buffer = stream.buffer
        let queue = DispatchQueue(label: "org.salvo.input-stream", target: serializationQueue)
        streams.addConsumer(queue: queue) { data, done in buffer.append(data, whenRead: done) }
        appendHandler(queue: queue) { [self] in buffer.finish(error: error) }
        return stream
    }
}

/// An `InputStream` over a `ChunkBuffer`: `read` blocks until bytes arrive.
final class ChunkInputStream: InputStream {
    let buffer = ChunkBuffer()

    init() {
        super.init(data: Data())
    }

    override func open() { buffer.open() }
    override func close() { buffer.close() }
    override var streamStatus: Stream.Status { buffer.status }
    override var streamError: (any Error)? { buffer.error }
    override var hasBytesAvailable: Bool { buffer.hasBytesAvailable }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool {
        false
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        self.buffer.read(into: buffer, maxLength: len)
    }
}

/// Chunks fed from one side and read, blocking, from the other.
final class ChunkBuffer: @unchecked Sendable { // every stored `var` is guarded by `condition` (an NSCondition)

    private let condition = NSCondition()
    private var chunks: [(data: Data, whenRead: @Sendable () -> Void)] = []
    /// How much of the first chunk has been read.
    private var offset = 0
    private var finished = false
    private var failure: (any Error)?
    private var streamStatus = Stream.Status.notOpen

    func append(_ data: Data, whenRead: @escaping @Sendable () -> Void) {
        condition.withLock {
            chunks.append((data, whenRead))
            condition.broadcast()
        }
    }

    func finish(error: (any Error)?) {
        condition.withLock {
            finished = true
            failure = error
            condition.broadcast()
        }
    }

    func open() {
        condition.withLock { if streamStatus == .notOpen { streamStatus = .open } }
    }

    func close() {
        condition.withLock { streamStatus = .closed }
    }

    var status: Stream.Status { condition.withLock { streamStatus } }
    var error: (any Error)? { condition.withLock { failure } }
    var hasBytesAvailable: Bool { condition.withLock { !chunks.isEmpty || !finished } }

    /// Copies up to `maxLength` bytes, waiting for some; 0 at the end, -1 after a failure.
    func read(into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        var released: (@Sendable () -> Void)?
        // Runs after the unlock below (defers run in reverse order): the release may wake
        // the transfer, which must not wait for this lock.
        defer { released?() }
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished { condition.wait() }
        guard let first = chunks.first else {
            if failure != nil {
                streamStatus = .error
                return -1
            }
            streamStatus = .atEnd
            return 0
        }
        let count = min(maxLength, first.data.count - offset)
        first.data.withUnsafeBytes { raw in
            buffer.update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, count: count)
        }
        offset += count
        if offset == first.data.count {
            chunks.removeFirst()
            offset = 0
            released = first.whenRead
        }
        return count
    }
}
