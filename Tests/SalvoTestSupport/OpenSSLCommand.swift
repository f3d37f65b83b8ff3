import Foundation

/// Runs the `openssl` command (which the test servers' setup installs) to make throw-away
/// certificates and keys.
public enum OpenSSLCommand {
    /// Runs `openssl` with `arguments`, its output dropped.
    /// - Returns: Whether it exited with status 0.
    public static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
