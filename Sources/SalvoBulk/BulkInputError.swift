#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Salvo

/// A line of an input list that cannot be used, or a list that cannot be read.
///
/// Reading stops at the first such line: a list is taken whole or not at all, so a typo
/// never downloads half a list into the wrong place.
public struct BulkInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the line.
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// An option line (indented) before any URI line it could apply to.
        case optionBeforeEntry(name: String)
        /// An option this reader does not know (`BulkInputReader.optionNames` are known).
        case unknownOption(name: String)
        /// An indented line that is not `name=value`.
        case malformedOption(text: String)
        /// A URI that is not an absolute `http` or `https` URL; the message names it.
        case invalidURI(message: String)
        /// A `checksum=` value that is not `TYPE=HEX` of a supported type and length.
        case invalidChecksum(message: String)
        /// A `header=` value that is not `Name: value` with a token name and a clean value.
        case invalidHeader(message: String)
        /// An `out=` name that is empty, absolute or climbs out of the directory, or a `dir=`
        /// that is empty or holds control characters.
        case invalidPath(message: String)
        /// Another option's value that cannot be used: a proxy, a `true`/`false` or a
        /// `User-Agent`; the message names the option.
        case invalidValue(message: String)
        /// A line that is not UTF-8.
        case notUTF8
        /// A line longer than the reader holds (`BulkInputReader.maximumLineLength` bytes).
        case lineTooLong(limit: Int)
        /// The list could not be opened; the `errno` value.
        case cannotOpen(errno: Int32)
        /// Reading the list failed; the `errno` value.
        case readFailed(errno: Int32)

        /// The reason in one line.
        public var description: String {
            switch self {
            case let .optionBeforeEntry(name): return "option '\(name)' comes before any URI line"
            case let .unknownOption(name):
                return "unknown option '\(name)' (known: \(BulkInputReader.optionNames.joined(separator: ", ")))"
            case let .malformedOption(text): return "option line '\(text)' is not name=value"
            case let .invalidURI(message), let .invalidChecksum(message), let .invalidHeader(message),
                 let .invalidPath(message), let .invalidValue(message):
                return message
            case .notUTF8: return "line is not valid UTF-8"
            case let .lineTooLong(limit): return "line is longer than \(limit) bytes"
            case let .cannotOpen(code): return "cannot open: \(Self.systemMessage(code))"
            case let .readFailed(code): return "cannot read: \(Self.systemMessage(code))"
            }
        }

        private static func systemMessage(_ code: Int32) -> String {
            guard let text = strerror(code) else { return "error \(code)" }
            return String(cString: text)
        }
    }

    /// The 1-based line the problem is on; 0 when the list could not be opened.
    public let line: Int

    /// What is wrong.
    public let reason: Reason

    /// Creates an error for a line.
    ///
    /// - Parameters:
    ///   - line: The 1-based line number, or 0 for the list as a whole.
    ///   - reason: What is wrong.
    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    /// `line N: reason`, or the reason alone for line 0.
    public var description: String { line > 0 ? "line \(line): \(reason)" : reason.description }
}
