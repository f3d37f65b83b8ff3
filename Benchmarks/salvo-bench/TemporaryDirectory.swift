import Foundation

/// A private directory under the system's temporary directory, removed at cleanup.
struct TemporaryDirectory {
    let path: String

    init(prefix: String) throws {
        var template = Array((NSTemporaryDirectory() + "/\(prefix)XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
        }
        let path = String(cString: made)
        self.path = path
        Cleanup.shared.add { try? FileManager.default.removeItem(atPath: path) }
    }
}
