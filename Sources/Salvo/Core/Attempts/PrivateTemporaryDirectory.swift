import Foundation
import Synchronization
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

    private static let rootPath: Result<String, any Error> = root.map(\.path)

    /// Numbers the files made in the private folder: no other process writes there, so a
    /// number is a new name. (A `UUID` per file read `/dev/urandom` each time.)
    private static let fileNumbers = Atomic<UInt64>(0)

    /// 64 random bits in hex, drawn once per process, that begin every file name made here.
    ///
    /// The numbers alone start from 1 in every process, and a name leaves the private folder
    /// with its file (`DownloadRequest.defaultDestination` keeps it in the shared temporary
    /// directory): a later process would number its file as an earlier one did and find that
    /// name taken. With the random part, two processes share a name with odds of about one
    /// in 2^64, and the number keeps names unique within the process at no cost per file.
    private static let processPrefix: String = {
        var generator = SystemRandomNumberGenerator()
        let bits = generator.next() as UInt64
        let hex = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "-"
    }()

    /// A folder for `purpose` (such as `downloads`) inside the process's private folder,
    /// made on first use with permissions for its owner only.
    ///
    /// - Throws: The system's error when the folder cannot be made.
    static func folder(_ purpose: String) throws -> URL {
        URL(fileURLWithPath: try folderPath(purpose), isDirectory: true)
    }

    /// A path for a new file in the folder for `purpose`, ending in `suffix`, whose name is
    /// unique across processes and runs (see `processPrefix`); the folder is made if it is
    /// missing (a cleaner of temporary folders may have removed it).
    ///
    /// - Throws: The system's error when the folder cannot be made.
    static func newFilePath(in purpose: String, suffix: String) throws -> String {
        let number = fileNumbers.wrappingAdd(1, ordering: .relaxed).newValue
        return try folderPath(purpose) + "/" + processPrefix + String(number) + suffix
    }

    private static func folderPath(_ purpose: String) throws -> String {
        let folder = try rootPath.get() + "/" + purpose
        // Inside a folder only this user can enter, an existing entry is one this process made.
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return folder
    }
}
