import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Salvo

/// What `continuePartial` finds of an earlier run beyond a partial file at the name known
/// before the first request: a partial file at a name only the response gives (its
/// `Content-Disposition`), and a file already whole under its final name.
extension BulkFileDownload {
    /// Looks at a response's head (an attempt that does not continue kept bytes) for work an
    /// earlier run did; returns how the attempt ends instead of taking the body, or `nil`.
    ///
    /// With `continuePartial`, when `prepare` could not settle the name, this entry's earlier
    /// work is looked for under the name the response gives (`BulkPartClaimer.findOwn`):
    /// - its partial file, taken up before the next attempt (`resumable`), which then asks
    ///   only for the rest when the sidecar allows, or written anew by this one;
    /// - its finished file (`alreadyComplete`): one recorded as downloaded from one of the
    ///   entry's URIs, or, where nothing is recorded on it, one whose size is the length the
    ///   response gives (its `Content-Length`, or the total of a probe's `Content-Range`) and,
    ///   when the entry has a checksum, whose checksum matches.
    func existingWork(_ response: ResponseHead, uri: URL, directory: URL) -> AttemptOutcome? {
        guard options.continuePartial, !writer.isOpen, (200..<300).contains(response.statusCode) else { return nil }
        let lookNow = state.withLock { state -> Bool in
            defer { state.lookedForPart = true }
            return !state.lookedForPart && state.name == nil
        }
        guard lookNow else { return nil }
        let length: Int64? = response.statusCode == 206
            ? Self.contentRange(response.value(forHTTPHeaderField: "Content-Range"))?.total
            : (response.expectedContentLength >= 0 ? response.expectedContentLength : nil)
        let checksum = file.entry.checksum
        let isOwnUnrecorded: (String) -> Bool = { [self] path in
            guard let length, Self.regularFileSize(path) == length else { return false }
            return checksum == nil || ((try? existingFileMatchesChecksum(path)) ?? false)
        }
        guard let own = claimer.findOwn(suggestedName(response: response, uri: uri), isOwnUnrecorded: isOwnUnrecorded) else {
            return nil
        }
        adopt(own)
        switch own.kind {
        case .complete:
            return .alreadyComplete
        case .abandoned:
            let partPath = partPath(for: own.name)
            if let sidecar = Self.resumableSidecar(at: partPath, uris: file.entry.uris) {
                state.withLock { $0.pendingResume = (sidecar, partPath) }
                return .resumable
            }
            return nil
        case .new:
            return nil
        }
    }

    /// Takes up the partial file `existingWork` found; when it cannot be, the file is fetched
    /// whole (and written anew) by the next attempt.
    func takeUpPendingResume() {
        guard let pending = state.withLock({ state in defer { state.pendingResume = nil }; return state.pendingResume }) else { return }
        do {
            try takeUp(pending.sidecar, partPath: pending.partPath)
        } catch {
            forgetBytes()
        }
    }

    /// Whether a regular file at `path` has the entry's checksum, so it is the file, whole,
    /// with no request at all. `false` when there is no checksum or no such file.
    func existingFileMatchesChecksum(_ path: String) throws -> Bool {
        guard let checksum = file.entry.checksum, Self.regularFileSize(path) != nil else { return false }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let digest = try BulkLibcryptoDigest(checksum.algorithm)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        return digest.finish() == checksum.hexDigest
    }

    /// The final file of the settled name.
    func finalPath() -> String? {
        state.withLock { $0.name }.map(path(of:))
    }

    /// The size of a regular file at `path` (not through a final symbolic link), or `nil`.
    static func regularFileSize(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }
}
