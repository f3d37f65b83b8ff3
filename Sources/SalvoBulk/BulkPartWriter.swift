import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Salvo

/// Why the partial file could not be opened, written or read.
struct BulkFileError: Error, CustomStringConvertible, Sendable {
    let description: String

    init(_ action: String, path: String, errno code: Int32) {
        description = "cannot \(action) \(path): \(String(cString: strerror(code)))"
    }

    init(_ description: String) {
        self.description = description
    }
}

/// One file's `NAME.part`: the bytes of the body in order, and their digests as they are
/// written (SHA-256 always, for the manifest; the entry's checksum function too when it is
/// another).
///
/// The file is the one its claim (`BulkPartClaim`) created or took, opened with
/// `O_NOFOLLOW`, so a link planted at the partial name is refused rather than followed. Every operation takes the writer's lock: the body arrives on the
/// file's serial queue and the attempt loop reads the writer between attempts.
///
/// A file fetched in ranges is opened with `openForRanges` instead: it is made as long as the
/// whole file, each range is written at its own offset (`place(_:at:)`, `pwrite`), and the
/// digests are computed by `finish()` over the finished file, read back from disk.
final class BulkPartWriter: Sendable {
    fileprivate struct State {
        var descriptor: Int32 = -1
        var path: String?
        var bytes: Int64 = 0
        var sha256: (any BulkDigest)?
        var extra: (any BulkDigest)?
        /// The whole file's length when it is written in ranges; `nil` for a body in order.
        var rangesLength: Int64?
    }

    /// The function of the entry's checksum when it is not SHA-256, which is always made.
    let extraAlgorithm: BulkChecksum.Algorithm?
    /// Whether SHA-256 is computed.
    let makesSHA256: Bool
    /// Whether `finish()` flushes the file to the disk.
    let flushes: Bool
    private let state = Mutex(State())

    /// - Parameters:
    ///   - checksum: The function of the entry's checksum, if it has one.
    ///   - recordsSHA256: Whether the file's SHA-256 is wanted even when the checksum is not one.
    ///   - flushes: Whether `finish()` flushes the file to the disk (`fsync`).
    init(checksum: BulkChecksum.Algorithm?, recordsSHA256: Bool, flushes: Bool) {
        self.flushes = flushes
        extraAlgorithm = checksum == .sha256 ? nil : checksum
        makesSHA256 = recordsSHA256 || checksum == .sha256
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// The bytes the partial file holds.
    var bytes: Int64 { state.withLock { $0.bytes } }

    /// Whether the partial file is open.
    var isOpen: Bool { state.withLock { $0.descriptor >= 0 } }

    /// Opens the claimed partial file at `path` (`claim`, the claim's descriptor), keeping its
    /// first `keeping` bytes, which are hashed again from disk, and cutting off the rest.
    ///
    /// - Parameter isNew: The claim made the file and nothing has written to it: it is empty,
    ///   and its offset is 0, so neither is asked of the kernel.
    /// - Throws: `BulkFileError` when the file cannot be opened, is shorter than `keeping`,
    ///   or cannot be read or cut.
    func open(_ path: String, claim: Int32, keeping: Int64, isNew: Bool = false) throws(BulkFileError) {
        try state.withLock { (state) throws(BulkFileError) in
            let size = try reopen(path, claim: claim, isNew: isNew, in: &state)
            let descriptor = state.descriptor
            try Self.makeDigests(&state, sha256: makesSHA256, extra: extraAlgorithm)
            let kept = max(0, min(keeping, size))
            // Only a file that holds more is cut: ext4 marks a file truncated to nothing and
            // starts writing all of it back when it is closed (its replace-by-truncate
            // heuristic), which stalled a run for seconds on large files.
            if size > kept {
                guard ftruncate(descriptor, off_t(kept)) == 0 else { throw BulkFileError("truncate", path: path, errno: errno) }
            }
            try Self.rehash(&state, upTo: kept)
            // Always but for a new file: the descriptor shares its offset with the claim's,
            // where an earlier attempt's writes left it.
            if !isNew {
                guard lseek(descriptor, off_t(kept), SEEK_SET) >= 0 else { throw BulkFileError("seek in", path: path, errno: errno) }
            }
            state.bytes = kept
        }
    }

    /// Opens the claimed partial file at `path` for ranges written at their own offsets, and
    /// makes it `length` bytes long.
    ///
    /// - Parameters:
    ///   - path: The partial file.
    ///   - claim: The claim's descriptor of it.
    ///   - length: The whole file's length.
    ///   - ranges: The ranges and the bytes of each an earlier run wrote; all with `done` 0
    ///     for a file that starts over, which empties the file first.
    /// - Returns: `ranges` with each `done` cut back to what the file on disk can hold (it is
    ///   brought up to date at intervals, so it may be shorter than the sidecar says).
    /// - Throws: `BulkFileError` when the file cannot be opened or resized.
    func openForRanges(_ path: String, claim: Int32, length: Int64,
                       ranges: [BulkPartSidecar.Range]) throws(BulkFileError) -> [BulkPartSidecar.Range] {
        try state.withLock { (state) throws(BulkFileError) -> [BulkPartSidecar.Range] in
            let size = try reopen(path, claim: claim, isNew: false, in: &state)
            let descriptor = state.descriptor
            let kept = ranges.map { range in
                var range = range
                range.done = max(0, min(range.done, range.length, size - range.start))
                return range
            }
            if kept.allSatisfy({ $0.done == 0 }) && size > 0 {
                guard ftruncate(descriptor, 0) == 0 else { throw BulkFileError("truncate", path: path, errno: errno) }
            }
            guard ftruncate(descriptor, off_t(length)) == 0 else { throw BulkFileError("resize", path: path, errno: errno) }
            state.rangesLength = length
            state.bytes = kept.reduce(0) { $0 + $1.done }
            return kept
        }
    }

    /// Writes `data` at `offset` of a file opened with `openForRanges`.
    ///
    /// - Throws: `BulkFileError` when the file is not open for ranges, the bytes would pass
    ///   its end, or the write fails.
    func place(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(BulkFileError) {
        // Passed into the lock as an address: the caller's buffer outlives this call, and the
        // bytes are only read.
        let address = UInt(bitPattern: bytes.baseAddress)
        let count = bytes.count
        try state.withLock { (state) throws(BulkFileError) in
            let data = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count)
            guard state.descriptor >= 0, let path = state.path, let length = state.rangesLength else {
                throw BulkFileError("the partial file is not open for ranges")
            }
            guard offset >= 0, offset + Int64(data.count) <= length else {
                throw BulkFileError("bytes \(offset)..<\(offset + Int64(data.count)) pass the end of \(path) (\(length) bytes)")
            }
            var written = 0
            while written < data.count {
                let count = pwrite(state.descriptor, data.baseAddress! + written, data.count - written, off_t(offset) + off_t(written))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw BulkFileError("write", path: path, errno: errno)
                }
                written += count
            }
            state.bytes += Int64(data.count)
        }
    }

    /// Empties the open file for a body that starts over.
    func restart() throws(BulkFileError) {
        try state.withLock { (state) throws(BulkFileError) in
            guard state.descriptor >= 0, let path = state.path else { return }
            guard ftruncate(state.descriptor, 0) == 0 else { throw BulkFileError("truncate", path: path, errno: errno) }
            guard lseek(state.descriptor, 0, SEEK_SET) >= 0 else { throw BulkFileError("seek in", path: path, errno: errno) }
            state.bytes = 0
            state.rangesLength = nil
            try Self.makeDigests(&state, sha256: makesSHA256, extra: extraAlgorithm)
        }
    }

    /// Appends `data` to the file and to the digests.
    func append(_ bytes: UnsafeRawBufferPointer) throws(BulkFileError) {
        // Passed into the lock as an address: the caller's buffer outlives this call, and the
        // bytes are only read.
        let address = UInt(bitPattern: bytes.baseAddress)
        let count = bytes.count
        try state.withLock { (state) throws(BulkFileError) in
            let data = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count)
            guard state.descriptor >= 0, let path = state.path else { throw BulkFileError("the partial file is not open") }
            var offset = 0
            while offset < data.count {
                let written = write(state.descriptor, data.baseAddress! + offset, data.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw BulkFileError("write", path: path, errno: errno)
                }
                offset += written
            }
            state.sha256?.update(data)
            state.extra?.update(data)
            state.bytes += Int64(data.count)
        }
    }

    /// Flushes what was written so far to the disk (`fdatasync`), so a sidecar written
    /// afterwards never counts bytes a crash could lose.
    ///
    /// The flush runs on a duplicate of the descriptor, outside the lock: it may wait seconds
    /// for the disk, and the body's writes (on the engine's loop thread, which serves every
    /// transfer) must not wait with it.
    func flush() {
        let duplicate = state.withLock { $0.descriptor >= 0 ? dup($0.descriptor) : -1 }
        guard duplicate >= 0 else { return }
        _ = fdatasync(duplicate)
        close(duplicate)
    }

    /// Flushes (when `flushes`) and closes the file, and hands out its digests: SHA-256, and the entry's
    /// checksum function's when that is another. The writer can be opened again.
    ///
    /// A file written in ranges is read back from disk, whole, through fresh digests: its
    /// bytes did not arrive in order.
    func finish() throws(BulkFileError) -> (bytes: Int64, sha256: String?, extra: String?) {
        try state.withLock { (state) throws(BulkFileError) in
            guard state.descriptor >= 0, let path = state.path else { throw BulkFileError("the partial file is not open") }
            defer {
                close(state.descriptor)
                state.descriptor = -1
            }
            guard !flushes || fsync(state.descriptor) == 0 else { throw BulkFileError("flush", path: path, errno: errno) }
            if let length = state.rangesLength {
                try Self.makeDigests(&state, sha256: makesSHA256, extra: extraAlgorithm)
                try Self.rehash(&state, upTo: length)
                state.bytes = length
                state.rangesLength = nil
            }
            let sha256 = state.sha256?.finish()
            let extra = state.extra?.finish()
            state.sha256 = nil
            state.extra = nil
            return (state.bytes, sha256, extra)
        }
    }

    /// Closes the file, if it is open, keeping it as it is (flushed first when `flushes`).
    func closeFile() {
        state.withLock { state in
            if state.descriptor >= 0 {
                if flushes { _ = fdatasync(state.descriptor) }
                close(state.descriptor)
            }
            state.descriptor = -1
        }
    }

    private static func makeDigests(_ state: inout State, sha256: Bool, extra: BulkChecksum.Algorithm?) throws(BulkFileError) {
        do throws(BulkDigestError) {
            state.sha256 = sha256 ? try BulkLibcryptoDigest(.sha256) : nil
            state.extra = try extra.map { (algorithm) throws(BulkDigestError) in try BulkLibcryptoDigest(algorithm) }
        } catch {
            throw BulkFileError(error.description)
        }
    }

    /// Feeds the first `count` bytes of the file to fresh digests.
    private static func rehash(_ state: inout State, upTo count: Int64) throws(BulkFileError) {
        guard count > 0, let path = state.path else { return }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        while offset < count {
            let wanted = Int(min(Int64(buffer.count), count - offset))
            let read = buffer.withUnsafeMutableBytes { pread(state.descriptor, $0.baseAddress, wanted, off_t(offset)) }
            if read < 0 {
                if errno == EINTR { continue }
                throw BulkFileError("read", path: path, errno: errno)
            }
            guard read > 0 else { throw BulkFileError("\(path) ended before byte \(count)") }
            buffer.withUnsafeBytes { whole in
                let slice = UnsafeRawBufferPointer(rebasing: whole[0..<read])
                state.sha256?.update(slice)
                state.extra?.update(slice)
            }
            offset += Int64(read)
        }
    }
}

extension BulkPartWriter {
    /// Closes what `state` had open and opens the claimed partial file at `path` in its place:
    /// a duplicate of the claim's descriptor, so closing the writer's leaves the claim's lock
    /// held. Returns its size (0 for a new file, not asked of the kernel).
    fileprivate func reopen(_ path: String, claim: Int32, isNew: Bool, in state: inout State) throws(BulkFileError) -> Int64 {
        if state.descriptor >= 0 { close(state.descriptor) }
        state = State()
        let descriptor = fcntl(claim, F_DUPFD_CLOEXEC, 0)
        guard descriptor >= 0 else { throw BulkFileError("open", path: path, errno: errno) }
        state.descriptor = descriptor
        state.path = path
        if isNew { return 0 }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw BulkFileError("inspect", path: path, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw BulkFileError("\(path) is not a regular file") }
        return Int64(info.st_size)
    }
}
