import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Salvo

/// How a file's run ends: verified and renamed, parked for a later run, or failed with its
/// partial file kept or removed; and the paths, sidecar and result those need.
extension BulkFileDownload {
    /// `finalize` on the file's own queue: its `fsync` waits for the disk, which must not hold
    /// one of the few threads that run every task. Each file's serial queue gets a thread of
    /// its own from Dispatch, so the files finishing together flush together, and the
    /// journal commits their flushes as one.
    func finalizeOffThePool(directory: URL) async -> Result<(String, String?), BulkAttemptFailure> {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.finalize(directory: directory)) }
        }
    }

    /// Verifies the finished partial file and renames it to its final name; returns the path
    /// it got and the file's SHA-256.
    func finalize(directory: URL) -> Result<(String, String?), BulkAttemptFailure> {
        guard let partPath = partPath(), let name = state.withLock({ $0.name }) else {
            return .failure(BulkAttemptFailure(reason: "no file was written", isRetryable: true))
        }
        let finalPath = path(of: name)
        let digests: (bytes: Int64, sha256: String?, extra: String?)
        do {
            digests = try writer.finish()
        } catch {
            return .failure(BulkAttemptFailure(reason: error.description, isRetryable: false))
        }
        if let checksum = file.entry.checksum {
            let actual = (checksum.algorithm == .sha256 ? digests.sha256 : digests.extra) ?? ""
            if actual != checksum.hexDigest {
                // Bytes that do not match are no use to a later run either: the partial file
                // is emptied (it stays, claimed, for the next URI) and its sidecar goes, so
                // `--continue` does not append to them.
                let claim = state.withLock { $0.claim }
                if claim >= 0 { _ = ftruncate(claim, 0) }
                removeSidecar(of: partPath)
                state.withLock {
                    $0.etag = nil
                    $0.lastModified = nil
                    $0.bytesURI = nil
                    $0.ranges = nil
                }
                return .failure(BulkAttemptFailure(
                    reason: "\(checksum.algorithm.rawValue) mismatch: expected \(checksum.hexDigest), got \(actual)",
                    isRetryable: false))
            }
        }
        switch placeFinished(partPath: partPath, finalPath: finalPath) {
        case let .success(placed):
            return .success((placed, digests.sha256))
        case let .failure(error):
            return .failure(BulkAttemptFailure(reason: error.description, isRetryable: false))
        }
    }

    /// Renames the verified partial file to its final name without replacing anything; when
    /// something took that name after the claim (a process that does not claim names, or
    /// the user), the file gets the next free name instead. Returns the path it got.
    private func placeFinished(partPath: String, finalPath: String) -> Result<String, BulkFileError> {
        var partPath = partPath
        var finalPath = finalPath
        while true {
            let code = directoryLock.run { overwrites ? (rename(partPath, finalPath) == 0 ? 0 : errno)
                : DownloadedFileMove.renameIfAbsent(partPath, to: finalPath) }
            if code == 0 {
                removeSidecar(of: partPath)
                if file.entry.remoteTime ?? options.remoteTime { applyRemoteTime(to: finalPath) }
                return .success(finalPath)
            }
            guard code == EEXIST, let base = state.withLock({ $0.baseName }) else {
                return .failure(BulkFileError("rename", path: partPath, errno: code))
            }
            let other: BulkPartClaim
            do {
                other = try claimer.claim(base)
            } catch {
                return .failure(error)
            }
            // The new claim's empty partial file is this run's own, so the bytes may replace
            // it; the claim's lock stays with the bytes (the old descriptor), and the old
            // sidecar goes.
            let newPartPath = self.partPath(for: other.name)
            let moved = directoryLock.run { rename(partPath, newPartPath) == 0 ? nil : errno }
            close(other.descriptor)
            if let moved {
                directoryLock.run { _ = unlink(newPartPath) }
                return .failure(BulkFileError("rename", path: partPath, errno: moved))
            }
            removeSidecar(of: partPath)
            state.withLock {
                $0.name = other.name
                if other.sidecarMayExist { $0.sidecarMayExist = true }
            }
            partPath = newPartPath
            finalPath = path(of: other.name)
        }
    }

    /// Leaves the partial file for a later run (cancelled): see `leaveOrRemovePart`.
    func park(directory: URL, url: URL?, attempts: Int, since started: ContinuousClock.Instant) -> BulkDownloader.FileResult {
        let kept = leaveOrRemovePart(directory: directory, url: url)
        return result(.cancelled, url: url, path: kept, sha256: nil, attempts: attempts, since: started)
    }

    /// Keeps the partial file and its sidecar, brought up to date, when they can be continued
    /// (bytes, and a validator for `If-Range`); removes them otherwise. Returns the partial
    /// file kept.
    func leaveOrRemovePart(directory: URL, url: URL?) -> String? {
        guard let partPath = partPath() else { return nil }
        writer.closeFile()
        let resumable = state.withLock { $0.etag != nil || $0.lastModified != nil } && writer.bytes > 0
        if resumable, (try? writeSidecar(partPath: partPath)) != nil { return partPath }
        removePart(partPath)
        return nil
    }

    func removePart(_ partPath: String) {
        writer.closeFile()
        directoryLock.run { _ = unlink(partPath) }
        removeSidecar(of: partPath)
    }

    func removeSidecar(of partPath: String) {
        guard state.withLock({ $0.sidecarMayExist }) else { return }
        directoryLock.run { _ = unlink(BulkPartSidecar.path(forPart: partPath)) }
    }

    /// The kept bytes cannot be continued: the next attempt asks for the whole file.
    func forgetBytes() {
        state.withLock {
            $0.etag = nil
            $0.lastModified = nil
            $0.bytesURI = nil
            $0.ranges = nil
        }
        try? writer.restart()
    }

    /// The partial file, once this run has opened it.
    func partPath() -> String? {
        guard let name = state.withLock({ $0.opened ? $0.name : nil }) else { return nil }
        return partPath(for: name)
    }

    func partPath(for name: String) -> String {
        path(of: name) + ".part"
    }

    /// The path of `name` in the file's directory. Strings, not `URL`s: each
    /// `appendingPathComponent` and `path` cost more than a file's own syscalls.
    func path(of name: String) -> String {
        directoryPath + "/" + name
    }

    func writeSidecar(partPath: String) throws {
        try write(sidecarSnapshot(), partPath: partPath)
    }

    /// The sidecar for the bytes written so far, or `nil` before any came.
    func sidecarSnapshot() -> BulkPartSidecar? {
        let bytes = writer.bytes
        return state.withLock { state -> BulkPartSidecar? in
            guard let uri = state.bytesURI else { return nil }
            // Fetched in ranges: `bytesDone` is the prefix without a gap, for a reader that
            // knows nothing of ranges.
            return BulkPartSidecar(url: uri.absoluteString, etag: state.etag, lastModified: state.lastModified,
                                   expectedLength: state.expectedLength,
                                   bytesDone: state.ranges.map(BulkPartSidecar.prefixDone) ?? bytes, ranges: state.ranges)
        }
    }

    func write(_ sidecar: BulkPartSidecar?, partPath: String) throws {
        guard let sidecar else { return }
        state.withLock { $0.sidecarMayExist = true }
        // Not under the directory lock: a sidecar is rare (one per file every few seconds)
        // and its write waits for the disk.
        try sidecar.write(to: BulkPartSidecar.path(forPart: partPath))
    }

    func createParentDirectories(of name: String) throws {
        guard name.contains("/") else { return }
        try directoryLock.makeDirectory(atPath: URL(fileURLWithPath: path(of: name), isDirectory: false).deletingLastPathComponent().path)
    }

    func result(_ outcome: BulkDownloader.FileResult.Outcome, url: URL?, path: String?, sha256: String?, attempts: Int,
                        since started: ContinuousClock.Instant) -> BulkDownloader.FileResult {
        let elapsed = ContinuousClock.now - started
        let (received, resumedFrom) = state.withLock { ($0.bytesReceived, $0.resumedFrom) }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let bytes: Int64
        if outcome == .alreadyComplete, let path {
            // An earlier run's file, never written here. stat(2) alone: FileManager's
            // attributes also look up the owner's and group's names.
            var info = stat()
            bytes = stat(path, &info) == 0 ? Int64(info.st_size) : writer.bytes
        } else {
            // A file that succeeded is the partial file this run wrote and renamed: its
            // length is the writer's count.
            bytes = writer.bytes
        }
        return BulkDownloader.FileResult(file: file, url: url, filePath: path, bytes: bytes, bytesReceived: received,
                                         resumedFrom: resumedFrom, sha256: sha256, attempts: attempts, seconds: seconds,
                                         outcome: outcome)
    }

    /// `start` and `total` of `Content-Range: bytes START-END/TOTAL` (`total` `nil` for `*`).
    static func contentRange(_ value: String?) -> (start: Int64, total: Int64?)? {
        guard let value, value.hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst(6)
        guard let dash = spec.firstIndex(of: "-"), let slash = spec.firstIndex(of: "/"), dash < slash,
              let start = Int64(spec[..<dash].trimmingCharacters(in: .whitespaces)) else { return nil }
        let total = Int64(spec[spec.index(after: slash)...].trimmingCharacters(in: .whitespaces))
        return (start, total)
    }
}
