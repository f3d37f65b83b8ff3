#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Salvo

/// The URL a partial or finished file was downloaded for, kept on the file itself as the
/// extended attribute `user.salvo.url`.
///
/// Many processes write into one directory, and names collide (`a.txt`, `a (1).txt`, …), so
/// a name alone does not say whose file it is: a run that continues (`-c`) must find the files
/// of its own URLs and leave the others'. The attribute is set once on the open partial file
/// (no directory change, no flush) and a rename keeps it, so the finished file carries it too.
/// File systems without user attributes (older NFS, some FUSE ones) refuse it; there the
/// partial file's sidecar says whose it is.
enum BulkFileOwner {
    static let attribute = "user.salvo.url"

    private typealias SetAttribute = @convention(c) (Int32, UnsafePointer<CChar>?, UnsafeRawPointer?, Int, Int32) -> Int32
    private typealias GetAttributeOfDescriptor = @convention(c) (Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Int) -> Int
    private typealias GetAttributeOfPath = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
                                                          Int) -> Int

    // Swift's Glibc module does not declare <sys/xattr.h>; glibc has exported these since 2.3.
    private static let fsetxattr: SetAttribute? = dlsym(nil, "fsetxattr").map { unsafeBitCast($0, to: SetAttribute.self) }
    private static let fgetxattr: GetAttributeOfDescriptor? = dlsym(nil, "fgetxattr").map {
        unsafeBitCast($0, to: GetAttributeOfDescriptor.self)
    }
    private static let lgetxattr: GetAttributeOfPath? = dlsym(nil, "lgetxattr").map { unsafeBitCast($0, to: GetAttributeOfPath.self) }

    /// Records `url` on the open file; `false` when the file system keeps no such attribute.
    static func record(_ url: String, on descriptor: Int32) -> Bool {
        guard let fsetxattr else { return false }
        return url.withCString { value in fsetxattr(descriptor, attribute, value, strlen(value), 0) == 0 }
    }

    /// The URL recorded on the open file, or `nil`.
    static func read(descriptor: Int32) -> String? {
        guard let fgetxattr else { return nil }
        return readValue { fgetxattr(descriptor, attribute, $0, $1) }
    }

    /// The URL recorded on the file at `path` (not through a final symbolic link), or `nil`.
    static func read(path: String) -> String? {
        guard let lgetxattr else { return nil }
        return readValue { lgetxattr(path, attribute, $0, $1) }
    }

    /// Reads into a buffer that fits any URL of a list line; a longer value is not ours.
    private static func readValue(_ get: (UnsafeMutableRawPointer?, Int) -> Int) -> String? {
        let capacity = 16 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        let count = get(buffer, capacity)
        guard count > 0 else { return nil }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
        return String(decoding: bytes, as: UTF8.self)
    }
}
