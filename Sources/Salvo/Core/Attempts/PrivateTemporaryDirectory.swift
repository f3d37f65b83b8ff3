import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's own folder for partial downloads and large multipart bodies: made once with
/// `mkdtemp` under the user's temporary directory, so it is new, owned by this user and
/// closed to others (0700).
///
/// A fixed shared name (`/tmp/org.salvo.downloads`) failed for a second user, whose process
/// found the first one's folder closed to it, and let any local user create that folder
/// first, or a link in its place, and so read or choose where downloads are written.
enum PrivateTemporaryDirectory {
    private static let root: Result<URL, any Error> = {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast()) + Array("org.salvo.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            return .failure(POSIXError(code))
        }
        return .success(URL(fileURLWithPath: String(cString: made), isDirectory: true))
    }()

    /// A folder for `purpose` (such as `downloads`) inside the process's private folder,
    /// made on first use with permissions for its owner only.
    ///
    /// - Throws: The system's error when the folder cannot be made.
    static func folder(_ purpose: String) throws -> URL {
        let folder = try root.get().appendingPathComponent(purpose, isDirectory: true)
        // Inside a folder only this user can enter, an existing entry is one this process made.
        if mkdir(folder.path, 0o700) != 0 && errno != EEXIST {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return folder
    }
}
