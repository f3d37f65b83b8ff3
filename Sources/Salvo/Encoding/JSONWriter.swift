import Foundation

/// Writes JSON with the exact bytes swift-corelibs-foundation's `JSONSerialization` writes,
/// for the value types parameters are normally made of, without bridging to Foundation
/// objects.
///
/// It declines (`.unsupported`) any value or option it does not model, so the caller can
/// fall back to `JSONSerialization` and get its output and its errors.
struct JSONWriter {
    enum Outcome {
        case written([UInt8])
        /// A value JSON cannot represent: NaN, infinity, a top-level scalar.
        case invalid
        /// Something this writer does not model; use `JSONSerialization`.
        case unsupported
        /// Nested deeper than `ParameterNesting.maximumDepth`.
        case tooDeep
    }

    private enum Failure: Error { case invalid, unsupported, tooDeep }

    private let pretty: Bool
    private let escapeSlashes: Bool
    private var bytes: [UInt8] = []
    private var indent = 0

    /// Returns `nil` for options this writer does not model (sorted keys, fragments).
    init?(options: JSONSerialization.WritingOptions) {
        let modelled: JSONSerialization.WritingOptions = [.prettyPrinted, .withoutEscapingSlashes]
        guard options.isSubset(of: modelled) else { return nil }
        pretty = options.contains(.prettyPrinted)
        escapeSlashes = !options.contains(.withoutEscapingSlashes)
    }

    func write(_ object: Any) -> Outcome {
        var writer = self
        writer.bytes.reserveCapacity(128)
        do {
            let objectType = type(of: object)
            if objectType == [String: any Sendable].self {
                try writer.writeObject(object as! [String: any Sendable], depth: 1)
            } else {
                switch object {
                case let dictionary as [String: Any]: try writer.writeObject(dictionary, depth: 1)
                case let array as [Any]: try writer.writeArray(array, depth: 1)
                default: return .invalid
                }
            }
        } catch Failure.invalid {
            return .invalid
        } catch Failure.tooDeep {
            return .tooDeep
        } catch {
            return .unsupported
        }
        return .written(writer.bytes)
    }

    /// Scalars match their exact dynamic type only. A cast alone would also accept an
    /// `NSNumber` (`as? Bool` succeeds for one holding 0 or 1, `as? Double` for one holding a
    /// `Float`) or an `Optional`, which Foundation writes differently; those are left to
    /// `JSONSerialization`.
    /// `depth`: the containers around `value`.
    private mutating func writeValue(_ value: Any, depth: Int) throws {
        let valueType = type(of: value)
        // The common exact types first, compared by metatype: a failed cast, or converting a
        // `[String: String]` into `[String: Any]` (a new dictionary), costs more than writing.
        if valueType == String.self {
            writeString(value as! String)
        } else if valueType == Int.self {
            bytes.append(contentsOf: String(value as! Int).utf8)
        } else if valueType == Bool.self {
            bytes.append(contentsOf: value as! Bool ? Self.trueBytes : Self.falseBytes)
        } else if valueType == Double.self {
            try writeFloat(value as! Double)
        } else if valueType == [String: any Sendable].self {
            try writeObject(value as! [String: any Sendable], depth: depth + 1)
        } else if valueType == [String: String].self {
            try writeObject(value as! [String: String], depth: depth + 1)
        } else if valueType == [any Sendable].self {
            try writeArray(value as! [any Sendable], depth: depth + 1)
        } else if valueType == [String].self {
            try writeArray(value as! [String], depth: depth + 1)
        } else if valueType == [Int].self {
            try writeArray(value as! [Int], depth: depth + 1)
        } else {
            try writeOtherValue(value, type: valueType, depth: depth)
        }
    }

    private mutating func writeOtherValue(_ value: Any, type valueType: Any.Type, depth: Int) throws {
        switch value {
        case let string as String where valueType == String.self: writeString(string)
        case let bool as Bool where valueType == Bool.self: bytes.append(contentsOf: bool ? Self.trueBytes : Self.falseBytes)
        case let int as Int where valueType == Int.self: bytes.append(contentsOf: String(int).utf8)
        case let double as Double where valueType == Double.self: try writeFloat(double)
        case let dictionary as [String: Any]: try writeObject(dictionary, depth: depth + 1)
        case let array as [Any]: try writeArray(array, depth: depth + 1)
        case is NSNull where valueType == NSNull.self: bytes.append(contentsOf: Self.nullBytes)
        case let int as Int64 where valueType == Int64.self: bytes.append(contentsOf: String(int).utf8)
        case let int as Int32 where valueType == Int32.self: bytes.append(contentsOf: String(int).utf8)
        case let int as UInt where valueType == UInt.self: bytes.append(contentsOf: String(int).utf8)
        case let int as UInt64 where valueType == UInt64.self: bytes.append(contentsOf: String(int).utf8)
        case let float as Float where valueType == Float.self: try writeFloat(float)
        default: throw Failure.unsupported
        }
    }

    private mutating func writeObject<Value>(_ dictionary: [String: Value], depth: Int) throws {
        if depth > ParameterNesting.maximumDepth { throw Failure.tooDeep }
        bytes.append(UInt8(ascii: "{"))
        if pretty { openLevel() }
        var first = true
        for (key, value) in dictionary {
            if !first { bytes.append(contentsOf: pretty ? Self.prettyComma : Self.comma) }
            first = false
            if pretty { writeIndent() }
            writeString(key)
            bytes.append(contentsOf: pretty ? Self.prettyColon : Self.colon)
            try writeValue(value, depth: depth)
        }
        if pretty { closeLevel() }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func writeArray<Element>(_ array: [Element], depth: Int) throws {
        if depth > ParameterNesting.maximumDepth { throw Failure.tooDeep }
        bytes.append(UInt8(ascii: "["))
        if pretty { openLevel() }
        var first = true
        for value in array {
            if !first { bytes.append(contentsOf: pretty ? Self.prettyComma : Self.comma) }
            first = false
            if pretty { writeIndent() }
            try writeValue(value, depth: depth)
        }
        if pretty { closeLevel() }
        bytes.append(UInt8(ascii: "]"))
    }

    // Foundation writes a newline after an opening bracket even for an empty container,
    // which is why `{}` pretty-printed comes out as "{\n\n}".
    private mutating func openLevel() {
        bytes.append(UInt8(ascii: "\n"))
        indent += 2
    }

    private mutating func closeLevel() {
        bytes.append(UInt8(ascii: "\n"))
        indent -= 2
        writeIndent()
    }

    private mutating func writeIndent() {
        for _ in 0..<indent { bytes.append(UInt8(ascii: " ")) }
    }

    /// Foundation prints a float's shortest round-trip description and drops a trailing
    /// `.0`, so `1.0` is written `1` and `1e20` is written `1e+20`.
    private mutating func writeFloat<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) throws {
        guard value.isFinite else { throw Failure.invalid }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            // Runs that need no escape go in one copy: most keys and values are one such run.
            var runStart = 0
            for (index, byte) in utf8.enumerated() where needsEscape(byte) {
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                appendEscaped(byte)
                runStart = index + 1
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (byte == UInt8(ascii: "/") && escapeSlashes)
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: Self.escapedQuote)
        case UInt8(ascii: "\\"): bytes.append(contentsOf: Self.escapedBackslash)
        case UInt8(ascii: "/"): bytes.append(contentsOf: Self.escapedSlash)
        case 0x0A: bytes.append(contentsOf: Self.escapedNewline)
        case 0x0D: bytes.append(contentsOf: Self.escapedReturn)
        case 0x09: bytes.append(contentsOf: Self.escapedTab)
        case 0x08: bytes.append(contentsOf: Self.escapedBackspace)
        case 0x0C: bytes.append(contentsOf: Self.escapedFormFeed)
        default:
            bytes.append(contentsOf: Self.unicodeEscapePrefix)
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)
    private static let comma = Array(",".utf8)
    private static let prettyComma = Array(",\n".utf8)
    private static let colon = Array(":".utf8)
    private static let prettyColon = Array(" : ".utf8)
    private static let escapedQuote = Array("\\\"".utf8)
    private static let escapedBackslash = Array("\\\\".utf8)
    private static let escapedSlash = Array("\\/".utf8)
    private static let escapedNewline = Array("\\n".utf8)
    private static let escapedReturn = Array("\\r".utf8)
    private static let escapedTab = Array("\\t".utf8)
    private static let escapedBackspace = Array("\\b".utf8)
    private static let escapedFormFeed = Array("\\f".utf8)
    private static let unicodeEscapePrefix = Array("\\u00".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)
}
