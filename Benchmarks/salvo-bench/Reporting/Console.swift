import Foundation

/// The bench's terminal output: standard output written a line at a time, unbuffered,
/// so tables and the progress on standard error stay in order.
enum Console {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Progress on standard error, without a newline.
    static func progress(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
