import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Moves a finished download from the process's private folder to its destination, which must
/// not exist yet, with the errors `FileManager.moveItem(at:to:)` throws.
///
/// `FileManager` stats both paths several times before its `rename`, and when the destination
/// is on another file system (a `/tmp` on tmpfs, a mounted volume) it copies 4 KiB at a time
/// straight into the destination's name, where a half-copied file can be seen. Here the file is
/// linked into place, which fails rather than replacing a file that appeared meanwhile; across
/// file systems it is copied in large pieces to a hidden name beside the destination and
/// linked into place only when complete.
enum DownloadedFileMove {
    /// Moves the file at `source` to `destination`.
    ///
    /// - Throws: A `CocoaError` for the failed step (`.fileWriteFileExists` when the
    ///   destination exists), with the path and the system's `POSIXError` as its underlying error.
    static func move(_ source: String, to destination: String) throws {
        if link(source, destination) == 0 {
            unlink(source)
            return
        }
        let code = errno
        switch code {
        case EXDEV:
            try copyAcrossFileSystems(source, to: destination)
            unlink(source)
        case EPERM, EOPNOTSUPP, EMLINK:
            // A file system without hard links (FAT, some network and FUSE ones).
            try renameIfAbsent(source, to: destination)
        default:
            throw failure(code, destination)
        }
    }

    /// Copies `source` to a new hidden file beside `destination`, then gives it its name.
    static func copyAcrossFileSystems(_ source: String, to destination: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure(errno, source) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw failure(errno, source) }

        let slash = destination.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(destination[..<$0]) } ?? "."
        var template = Array((folder + "/.salvo-move-XXXXXX").utf8CString)
        let output = mkstemp(&template)
        guard output >= 0 else { throw failure(errno, destination) }
        _ = fcntl(output, F_SETFD, FD_CLOEXEC)
        let hidden = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var placed = false
        defer {
            close(output)
            if !placed { unlink(hidden) }
        }
        guard fchmod(output, info.st_mode & 0o7777) == 0 else { throw failure(errno, destination) }
        try copyContents(from: input, to: output, count: Int(info.st_size), destination: destination)
        try renameIfAbsent(hidden, to: destination, linking: true)
        placed = true
    }

    /// Copies `count` bytes with `sendfile`, in the kernel; with `read` and `write` where a file
    /// system does not support it.
    private static func copyContents(from input: Int32, to output: Int32, count: Int, destination: String) throws {
        var left = count
        while left > 0 {
            let sent = sendfile(output, input, nil, min(left, 1 << 30))
            if sent > 0 {
                left -= sent
                continue
            }
            if sent == 0 { break }  // the file got shorter: copy what there is
            if errno == EINTR { continue }
            if errno == EINVAL || errno == ENOSYS {
                try copyByReading(from: input, to: output, destination: destination)
                return
            }
            throw failure(errno, destination)
        }
    }

    private static func copyByReading(from input: Int32, to output: Int32, destination: String) throws {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let got = read(input, buffer, size)
            if got == 0 { return }
            if got < 0 {
                if errno == EINTR { continue }
                throw failure(errno, destination)
            }
            var offset = 0
            while offset < got {
                let wrote = write(output, buffer + offset, got - offset)
                if wrote < 0 {
                    if errno == EINTR { continue }
                    throw failure(errno, destination)
                }
                offset += wrote
            }
        }
    }

    /// Gives `source` the name `destination` unless that name exists: by a hard link when
    /// `linking` (no window in which another file could be replaced), else by `rename` after a
    /// check, as `FileManager` does.
    private static func renameIfAbsent(_ source: String, to destination: String, linking: Bool = false) throws {
        if linking {
            if link(source, destination) == 0 {
                unlink(source)
                return
            }
            let code = errno
            guard code == EPERM || code == EOPNOTSUPP || code == EMLINK else { throw failure(code, destination) }
        }
        var info = stat()
        if lstat(destination, &info) == 0 { throw failure(EEXIST, destination) }
        guard rename(source, destination) == 0 else { throw failure(errno, destination) }
    }

    /// The `CocoaError` `FileManager` reports for `code` on `path`.
    static func failure(_ code: Int32, _ path: String) -> CocoaError {
        let cocoa: CocoaError.Code = switch code {
        case EEXIST: .fileWriteFileExists
        case ENOENT, ENOTDIR: .fileNoSuchFile
        case EACCES, EPERM: .fileWriteNoPermission
        case ENOSPC, EDQUOT: .fileWriteOutOfSpace
        case EROFS: .fileWriteVolumeReadOnly
        case ENAMETOOLONG: .fileWriteInvalidFileName
        default: .fileWriteUnknown
        }
        var userInfo: [String: Any] = [NSFilePathErrorKey: path]
        if let posix = POSIXErrorCode(rawValue: code) { userInfo[NSUnderlyingErrorKey] = POSIXError(posix) }
        return CocoaError(cocoa, userInfo: userInfo)
    }
}
