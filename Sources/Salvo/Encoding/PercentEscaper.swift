import Foundation

/// Percent-escapes strings in one pass with a lookup table, instead of
/// `addingPercentEncoding(withAllowedCharacters:)`, which queries a `CharacterSet` per
/// scalar and bridges through `NSString`.
///
/// ASCII bytes are decided by a 128-bit mask built once. Every byte of a scalar beyond
/// ASCII is escaped, even when the allowed set contains the scalar: that is what
/// `addingPercentEncoding(withAllowedCharacters:)` produces on Linux (`"é"` with
/// `.alphanumerics` gives `%C3%A9`).
struct PercentEscaper: Sendable {
    /// The ASCII bytes left as they are, as bits: bytes 0-63 and 64-127.
    private let allowedLow: UInt64
    private let allowedHigh: UInt64

    /// The escaper for query names and values: RFC 3986's query characters less the
    /// general and sub-delimiters, leaving letters, digits, `-._~/?`. This matches
    /// `CharacterSet.afURLQueryAllowed`.
    static let query = PercentEscaper(asciiAllowed: "-._~/?")

    private init(asciiAllowed extra: String) {
        var table = [Bool](repeating: false, count: 128)
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
        for byte in extra.utf8 { table[Int(byte)] = true }
        (allowedLow, allowedHigh) = Self.masks(table)
    }

    /// Creates an escaper that keeps the characters in a set.
    ///
    /// - Note: Foundation recognises `.urlPathAllowed` and `.urlHostAllowed` and escapes `:`
    ///   (and `[`, `]` outside an IP literal) though the sets contain them; this escaper keeps
    ///   every ASCII member of the set it is given.
    ///
    /// - Parameter allowed: ASCII characters left as they are; everything else is escaped.
    init(allowedCharacters allowed: CharacterSet) {
        var table = [Bool](repeating: false, count: 128)
        for byte in 0..<128 {
            table[byte] = allowed.contains(Unicode.Scalar(UInt8(byte)))
        }
        (allowedLow, allowedHigh) = Self.masks(table)
    }

    private static func masks(_ table: [Bool]) -> (UInt64, UInt64) {
        var low: UInt64 = 0, high: UInt64 = 0
        for byte in 0..<64 where table[byte] { low |= 1 << UInt64(byte) }
        for byte in 64..<128 where table[byte] { high |= 1 << UInt64(byte - 64) }
        return (low, high)
    }

    /// Returns the escaped string.
    ///
    /// - Parameter string: The text to escape.
    /// - Returns: The text with every byte outside the allowed ASCII set written as `%XX`.
    func escape(_ string: String) -> String {
        var buffer: [UInt8] = []
        append(string, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Appends the escaped form of a string to a byte buffer.
    ///
    /// - Parameters:
    ///   - string: The text to escape.
    ///   - buffer: The buffer to append to.
    ///   - plusForSpace: Writes a space as `+` rather than `%20`.
    func append(_ string: String, to buffer: inout [UInt8], plusForSpace: Bool = false) {
        var string = string
        string.withUTF8 { bytes in
            let count = bytes.count
            // Growing ahead pays off only for long text: each call costs about as much as
            // escaping a short name.
            if count > 64 { buffer.reserveCapacity(buffer.count + count) }
            // Runs of bytes that stay as they are go in one copy: most names and values are
            // such a run from end to end.
            var runStart = 0
            var i = 0
            while i < count {
                let byte = bytes[i]
                if isAllowed(byte) {
                    i += 1
                    continue
                }
                if runStart < i { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                if plusForSpace && byte == 0x20 {
                    buffer.append(UInt8(ascii: "+"))
                } else {
                    Self.appendEscaped(byte, to: &buffer)
                }
                i += 1
                runStart = i
            }
            if runStart < count { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
        }
    }

    @inline(__always)
    private func isAllowed(_ byte: UInt8) -> Bool {
        byte < 64 ? (allowedLow >> UInt64(byte)) & 1 != 0 : byte < 128 && (allowedHigh >> UInt64(byte - 64)) & 1 != 0
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    @inline(__always)
    private static func appendEscaped(_ byte: UInt8, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "%"))
        buffer.append(hexDigits[Int(byte >> 4)])
        buffer.append(hexDigits[Int(byte & 0x0F)])
    }
}
