import Foundation
import Salvo
import SalvoBulk
import Synchronization

/// `--manifest FILE`: one JSON line per file, in the order files finished, in place under
/// FILE when the run ends.
///
/// Lines go to `FILE.tmp` as files finish, so memory stays flat over a list of millions, and
/// the file is renamed to FILE at the end, so FILE never holds a half-written manifest.
final class ToolManifest: Sendable {
    private let path: String
    private let temporaryPath: String
    private let handle: Synchronization.Mutex<FileHandle?>

    /// Creates `FILE.tmp`, before anything is downloaded, so a manifest that cannot be
    /// written is a usage error rather than a surprise at the end.
    ///
    /// - Throws: A message naming the file.
    init(path: String) throws(ToolManifestError) {
        self.path = path
        temporaryPath = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporaryPath) else {
            throw ToolManifestError(message: "cannot write the manifest '\(path)' (creating \(temporaryPath) failed)")
        }
        self.handle = Synchronization.Mutex(handle)
    }

    /// Adds the file's line.
    func record(_ result: BulkDownloader.FileResult) {
        let text = Self.line(result).text
        handle.withLock { handle in
            do {
                try handle?.write(contentsOf: Data(text.utf8))
            } catch {
                ToolOutput.message("cannot write the manifest '\(path)': \(error.localizedDescription)")
                handle = nil
            }
        }
    }

    /// Closes the file and moves it under its name.
    ///
    /// - Throws: A message when the rename fails.
    func finish() throws(ToolManifestError) {
        let handle = self.handle.withLock { handle in
            defer { handle = nil }
            return handle
        }
        guard let handle else { throw ToolManifestError(message: "the manifest '\(path)' was not written") }
        try? handle.close()
        if rename(temporaryPath, path) != 0 {
            throw ToolManifestError(message: "cannot move \(temporaryPath) to '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the unfinished manifest, for a run ended at once by a second Ctrl-C.
    func abandon() {
        handle.withLock { handle in
            try? handle?.close()
            handle = nil
        }
        unlink(temporaryPath)
    }

    private static func line(_ result: BulkDownloader.FileResult) -> ToolJSONLine {
        var line = ToolJSONLine()
        line.add("url", ToolSummary.url(of: result))
        line.add("path", result.path?.path)
        line.add("bytes", result.bytes)
        line.add("sha256", result.sha256)
        line.add("attempts", result.attempts)
        line.add("seconds", result.seconds)
        switch result.outcome {
        case .succeeded: line.add("status", "done")
        case let .failed(reason):
            line.add("status", "failed")
            line.add("reason", reason)
        case .cancelled: line.add("status", "interrupted")
        case .alreadyComplete: line.add("status", "skipped")
        }
        return line
    }
}

/// Why the manifest could not be written, in one line fit to follow `salvo: `.
struct ToolManifestError: Error {
    let message: String
}
