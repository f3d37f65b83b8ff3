import Salvo
/// A command line the bulk download tool cannot act on: an unknown option, a missing or bad
/// value, or options that do not fit together.
public struct BulkUsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, in one line, fit to follow `salvo: `.
    public let message: String

    /// Creates an error with a one-line message.
    ///
    /// - Parameter message: What is wrong, naming the option or argument.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
