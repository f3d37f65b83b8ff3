import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Salvo

extension BulkFileDownload {
    /// Gives the finished file at `path` the server's `Last-Modified` as its access and
    /// modification time (`remoteTime`); a file whose answer had none, or an unreadable one,
    /// keeps the time of its writing, as aria2 leaves it.
    func applyRemoteTime(to path: String) {
        guard let date = HTTPDate.parse(state.withLock { $0.lastModified }) else { return }
        let seconds = date.timeIntervalSince1970
        let whole = floor(seconds)
        let moment = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var times = [moment, moment]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }
}
