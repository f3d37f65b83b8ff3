import Foundation

/// A growable byte buffer that hands its storage to `Data` without a copy.
///
/// A response body is appended in pieces from libcurl's write callback; keeping raw
/// malloc'd storage lets the finished body become `Data(bytesNoCopy:)`. A non-copyable
/// value stored inside its `Transfer`, so a transfer costs one allocation fewer; it owns its
/// storage and frees it when dropped.
package struct ByteBuffer: ~Copyable {
    private var storage: UnsafeMutableRawPointer?
    package private(set) var count = 0
    private var capacity = 0

    package init() {}

    deinit {
        free(storage)
    }

    /// Makes room for at least `total` bytes in all, so a known Content-Length costs one
    /// allocation.
    package mutating func reserve(_ total: Int) {
        guard total > capacity else { return }
        storage = realloc(storage, total)
        capacity = total
    }

    package mutating func append(_ bytes: UnsafeRawPointer, _ length: Int) {
        if count + length > capacity {
            reserve(max(count + length, capacity * 2, 1024))
        }
        (storage! + count).copyMemory(from: bytes, byteCount: length)
        count += length
    }

    /// Gives the bytes away as `Data` and leaves the buffer empty.
    package mutating func takeData() -> Data {
        guard let storage, count > 0 else {
            clear()
            return Data()
        }
        let data = Data(bytesNoCopy: storage, count: count, deallocator: .free)
        self.storage = nil
        count = 0
        capacity = 0
        return data
    }

    package mutating func clear() {
        free(storage)
        storage = nil
        count = 0
        capacity = 0
    }
}
