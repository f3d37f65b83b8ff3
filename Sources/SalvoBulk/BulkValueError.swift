import Salvo
/// A value given to the bulk download tool (a checksum, a rate, a shard) that cannot be used.
///
/// The message is one line, fit to follow `salvo: ` or an input file's `FILE:LINE: `.
public struct BulkValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, in one line, naming the value.
    public let message: String

    /// Creates an error with a one-line message.
    ///
    /// - Parameter message: What is wrong, naming the value.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
