import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Moves a finished download from the process's private folder to its destination, which must
/// not exist yet, with the errors `FileManager.moveItem(at:to:)` throws.
///
/// `FileManager` stats both paths several times before its `rename`, and when the destination
/// is on another file system (a `/tmp` on tmpfs, a mounted volume) it copies 4 KiB at a time
/// straight into the destination's name, where a half-copied file can be seen. Here the file is
/// renamed with `RENAME_NOREPLACE`, which fails rather than replacing a file that appeared
/// meanwhile; across file systems it is copied in the kernel to a hidden name beside the
/// destination and renamed into place only when complete.
package enum DownloadedFileMove {
    /// Moves the file at `source` to `destination`.
    ///
    /// - Throws: A `CocoaError` for the failed step (`.fileWriteFileExists` when the
    ///   destination exists), with the path and the system's `POSIXError` as its underlying error.
    static func move(_ source: String, to destination: String) throws {
        let code = renameIfAbsent(source, to: destination)
        if code == 0 { return }
        guard code == EXDEV else { throw failure(code, destination) }
        // Fail before copying what may be gigabytes, as `FileManager` does; the rename into
        // place still refuses a file that appears during the copy.
        if nameExists(destination) { throw failure(EEXIST, destination) }
        try copyAcrossFileSystems(source, to: destination)
        unlink(source)
    }

    /// Copies `source` to a new hidden file beside `destination`, then gives it its name;
    /// `source` stays.
    static func copyAcrossFileSystems(_ source: String, to destination: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure(errno, source) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw failure(errno, source) }

        let (output, hidden) = try createHiddenFile(beside: destination)
        var placed = false
        defer {
            close(output)
            if !placed { unlink(hidden) }
        }
        guard fchmod(output, info.st_mode & 0o7777) == 0 else { throw failure(errno, destination) }
        try copyContents(from: input, to: output, count: Int(info.st_size), destination: destination)
        let code = renameIfAbsent(hidden, to: destination)
        guard code == 0 else { throw failure(code, destination) }
        placed = true
    }

    /// Numbers the hidden files this process makes.
    private static let hiddenNumbers = Atomic<UInt64>(0)

    /// A new `.salvo-move-PID-N` in the destination's folder, opened for writing, created
    /// with `O_EXCL` and closed to child processes from the start.
    private static func createHiddenFile(beside destination: String) throws -> (Int32, String) {
        let slash = destination.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(destination[..<$0]) } ?? "."
        while true {
            let number = hiddenNumbers.wrappingAdd(1, ordering: .relaxed).newValue
            let hidden = folder + "/.salvo-move-" + String(getpid()) + "-" + String(number)
            let output = open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if output >= 0 { return (output, hidden) }
            // A name left by an earlier process with the same id: take the next number.
            guard errno == EEXIST else { throw failure(errno, destination) }
        }
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

    // MARK: Renaming without replacing

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32

    /// glibc's `renameat2`, which Swift's Glibc module does not declare (glibc 2.28 and later).
    private static let renameat2: RenameAt2? = dlsym(nil, "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }

    /// Gives `source` the name `destination` unless that name exists (a file, a folder or a
    /// link, even one pointing nowhere); returns 0 or the `errno` of the step that failed.
    ///
    /// One `renameat2(RENAME_NOREPLACE)` where the kernel and the file system support it;
    /// else a hard link, which cannot replace either; else, on file systems without links
    /// (FAT, many FUSE and network ones), a check and a `rename`, as `FileManager` does.
    package static func renameIfAbsent(_ source: String, to destination: String) -> Int32 {
        if let renameat2 {
            let noReplace: UInt32 = 1  // RENAME_NOREPLACE
            if renameat2(AT_FDCWD, source, AT_FDCWD, destination, noReplace) == 0 { return 0 }
            let code = errno
            // The flag or the call unsupported here: the older ways.
            guard code == EINVAL || code == ENOSYS || code == EOPNOTSUPP else { return code }
        }
        return linkOrRename(source, to: destination)
    }

    /// `renameIfAbsent` without `renameat2`.
    static func linkOrRename(_ source: String, to destination: String) -> Int32 {
        if link(source, destination) == 0 {
            unlink(source)
            return 0
        }
        let code = errno
        if destinationIsAtFault(code) { return code }
        return checkAndRename(source, to: destination)
    }

    /// `renameIfAbsent` on a file system without hard links.
    static func checkAndRename(_ source: String, to destination: String) -> Int32 {
        if nameExists(destination) { return EEXIST }
        return rename(source, destination) == 0 ? 0 : errno
    }

    /// Whether `path` names anything, a link pointing nowhere included (`lstat`).
    private static func nameExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Errors of `link` that a `rename` would meet too; any other may mean only that the file
    /// system has no hard links (`EPERM`, `ENOSYS`, `EOPNOTSUPP`, `EMLINK`, ...).
    static func destinationIsAtFault(_ code: Int32) -> Bool {
        [EEXIST, EXDEV, ENOENT, ENOTDIR, ENAMETOOLONG, EROFS, ENOSPC, EDQUOT, ELOOP].contains(code)
    }

    /// The `CocoaError` `FileManager` reports for `code` on `path` when writing.
    static func failure(_ code: Int32, _ path: String) -> CocoaError {
        let cocoa: CocoaError.Code = switch code {
        case EEXIST: .fileWriteFileExists
        case ENOENT: .fileNoSuchFile
        case EACCES, EPERM: .fileWriteNoPermission
        case ENOSPC: .fileWriteOutOfSpace
        case EROFS: .fileWriteVolumeReadOnly
        case ENAMETOOLONG: .fileWriteInvalidFileName
        default: .fileWriteUnknown
        }
        var userInfo: [String: Any] = [NSFilePathErrorKey: path]
        if let posix = POSIXErrorCode(rawValue: code) { userInfo[NSUnderlyingErrorKey] = POSIXError(posix) }
        return CocoaError(cocoa, userInfo: userInfo)
    }
}
