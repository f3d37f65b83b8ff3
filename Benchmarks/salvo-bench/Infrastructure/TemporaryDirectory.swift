import Foundation

/// A private directory under the system's temporary directory (or `parent`), removed at cleanup
/// unless `removedAtCleanup` is false (its parent's owner then removes it).
struct TemporaryDirectory {
    let path: String

    init(prefix: String, in parent: String = NSTemporaryDirectory(), removedAtCleanup: Bool = true) throws {
        var template = Array((parent + "/\(prefix)XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
        }
        let path = String(cString: made)
        self.path = path
        if removedAtCleanup { Cleanup.shared.add { try? FileManager.default.removeItem(atPath: path) } }
    }
}
