import Foundation
import Synchronization

/// Prints the first failed request's reason of a child process to standard error, so a
/// failure count in the table comes with a cause.
enum FirstFailure {
    private static let reported = Atomic<Bool>(false)

    static func report(_ client: DispatchClient, _ reason: @autoclosure () -> String) {
        report(named: client.rawValue, reason())
    }

    static func report(transfer client: TransferClient, _ reason: @autoclosure () -> String) {
        report(named: client.rawValue, reason())
    }

    static func report(named name: String, _ reason: @autoclosure () -> String) {
        guard !reported.exchange(true, ordering: .relaxed) else { return }
        FileHandle.standardError.write(Data("\n  [\(name)] first failed request: \(reason())\n".utf8))
    }
}
