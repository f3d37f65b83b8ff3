import Salvo
/// A download rate limit in bytes per second, written as aria2 writes it.
///
/// `100` is 100 bytes per second, `500K` (or `500k`) 500 × 1024, `2M` 2 × 1024 × 1024.
/// `0` means no limit. Nothing else is accepted: no fractions, signs, spaces or other units,
/// because a limit that silently meant something else would be worse than an error.
public struct BulkRate: Hashable, Sendable, CustomStringConvertible {
    /// Bytes per second; `0` when there is no limit.
    public let bytesPerSecond: Int64

    /// No limit.
    public static let unlimited = BulkRate(bytesPerSecond: 0)

    /// A limit of the given number of bytes per second.
    ///
    /// - Parameter bytesPerSecond: The limit; `0` for none. Negative values are taken as `0`.
    public init(bytesPerSecond: Int64) {
        self.bytesPerSecond = max(0, bytesPerSecond)
    }

    /// Parses `N`, `NK` or `NM` (K = 1024, M = 1024 × 1024, either case).
    ///
    /// - Parameter text: The limit as typed.
    /// - Throws: `BulkValueError` when the text is not digits with an optional `K` or `M`, or
    ///   when the product does not fit in 64 bits.
    public init(parsing text: String) throws(BulkValueError) {
        var digits = Substring(text)
        var multiplier: Int64 = 1
        switch text.last {
        case "k", "K":
            multiplier = 1024
            digits = digits.dropLast()
        case "m", "M":
            multiplier = 1024 * 1024
            digits = digits.dropLast()
        default:
            break
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw BulkValueError("rate '\(text)' is not a number of bytes per second with an optional K or M")
        }
        guard let count = Int64(digits) else { throw BulkValueError("rate '\(text)' is too large") }
        let (product, overflow) = count.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { throw BulkValueError("rate '\(text)' is too large") }
        self.bytesPerSecond = product
    }

    /// `true` when there is no limit.
    public var isUnlimited: Bool { bytesPerSecond == 0 }

    /// The limit in bytes per second, or `unlimited`.
    public var description: String { isUnlimited ? "unlimited" : "\(bytesPerSecond) B/s" }
}
