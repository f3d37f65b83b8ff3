import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the tool writes: unbuffered writes to the standard streams, so a line is out when
/// the call returns, even if the process is ended at once by a second Ctrl-C.
enum ToolOutput {
    /// Writes `text` to standard output.
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `text` to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Writes `salvo: message` as one line to standard error.
    static func message(_ message: String) {
        error("salvo: \(message)\n")
    }

    /// Whether standard output is a terminal, which chooses the progress display over lines.
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The columns a progress line may use: `COLUMNS` when set, else 80. One column is kept
    /// free so a full line never wraps, which would break the in-place redraw's line count.
    static var terminalColumns: Int {
        let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
        return max(20, columns - 1)
    }
}
