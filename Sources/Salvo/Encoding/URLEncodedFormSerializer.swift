import Foundation

/// Percent-escaping decided per byte by a table built once from an allowed set.
///
/// Foundation's `addingPercentEncoding(withAllowedCharacters:)` asks the `CharacterSet`
/// about every character and ignores the set's non-ASCII members; the same result comes
/// from two 64-bit masks over ASCII, with every byte of a non-ASCII character escaped.
struct FormEscapeTable: Sendable {
    let allowedCharacters: CharacterSet
    /// Bit `b` of `low` (for `b < 64`) or of `high` (for `b - 64`) is set when byte `b` is
    /// written as it is.
    private let low: UInt64
    private let high: UInt64
    private let plusForSpace: Bool
    /// Whether everything this table writes can go into a URL query as it is.
    ///
    /// Foundation's `URLComponents.percentEncodedQuery` stops the process on a byte a query
    /// may not hold, so output from a more permissive set is checked before it is used.
    let isQuerySafe: Bool
    /// The escaped forms of the punctuation the built-in key encodings add, computed once
    /// per table rather than once per encode.
    let openBracket: [UInt8]
    let closeBracket: [UInt8]
    let dot: [UInt8]

    init(allowedCharacters: CharacterSet, spaceEncoding: URLEncodedFormEncoder.SpaceEncoding) {
        self.allowedCharacters = allowedCharacters
        var low: UInt64 = 0
        var high: UInt64 = 0
        for byte in UInt8(0)..<128 where allowedCharacters.contains(Unicode.Scalar(byte)) {
            if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
        }
        // Alamofire adds the space to the allowed set and then rewrites the spaces that
        // survive, so the space encoding wins whatever the set says about spaces.
        low &= ~(1 << 0x20)
        self.low = low
        self.high = high
        if case .plusReplaced = spaceEncoding { plusForSpace = true } else { plusForSpace = false }

        let query = Self.querySafeMasks
        isQuerySafe = low & ~query.low == 0 && high & ~query.high == 0

        func escapedPunctuation(_ byte: UInt8) -> [UInt8] {
            let kept = byte < 64 ? low & (1 << byte) != 0 : high & (1 << (byte - 64)) != 0
            return kept ? [byte] : [UInt8(ascii: "%"), Self.hexDigit(byte >> 4), Self.hexDigit(byte & 0x0F)]
        }
        openBracket = escapedPunctuation(UInt8(ascii: "["))
        closeBracket = escapedPunctuation(UInt8(ascii: "]"))
        dot = escapedPunctuation(UInt8(ascii: "."))
    }

    /// The bytes `URLComponents` accepts raw in a query (measured on this Foundation: RFC
    /// 3986's query characters). `%` is left out: a raw one may not start a valid escape.
    private static let querySafeMasks: (low: UInt64, high: UInt64) = {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for byte in "!$&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~".utf8 {
            if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
        }
        return (low, high)
    }()

    @inline(__always)
    private func keeps(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << byte) != 0 }
        if byte < 128 { return high & (1 << (byte - 64)) != 0 }
        return false
    }

    /// Appends `bytes` escaped, copying runs of kept bytes whole.
    func append(escaping bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if keeps(byte) {
                index += 1
                continue
            }
            if runStart < index {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            }
            if byte == 0x20 && plusForSpace {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(Self.hexDigit(byte >> 4))
                output.append(Self.hexDigit(byte & 0x0F))
            }
            index += 1
            runStart = index
        }
        if runStart < bytes.count {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }

    func append(escaping string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { append(escaping: $0, to: &output) }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}

/// Writes a tree out as `key=value` pairs.
///
/// Keys are usually built escaped, one suffix per level, and copied for each pair. When a
/// key encoding or a custom array encoding must see whole keys, keys are built as strings
/// and transformed and escaped per pair instead, as Alamofire always does.
///
/// Everything is written into one buffer. With `alphabetize`, a container's pairs are
/// written one after another, their ranges sorted by bytes (the order of sorting the
/// strings, since the output is ASCII), and the region replaced by the pairs joined in that
/// order; a nested container thus leaves exactly its joined text behind for its parent to
/// sort as one pair, as Alamofire sorts the joined string of each nested container.
struct FormSerializer {
    private let table: FormEscapeTable
    private let arena: [UInt8]
    private let alphabetize: Bool
    private let arrayEncoding: URLEncodedFormEncoder.ArrayEncoding
    private let keyEncoding: URLEncodedFormEncoder.KeyEncoding
    private let keyPathEncoding: URLEncodedFormEncoder.KeyPathEncoding
    private let buildsKeyStrings: Bool

    private var output: [UInt8] = []
    /// The current key, escaped, when keys are built incrementally.
    private var escapedKey: [UInt8] = []
    /// The ranges of the pairs of every container being written, innermost last.
    private var pairs: [Range<Int>] = []
    private var joined: [UInt8] = []

    init(table: FormEscapeTable,
         arena: [UInt8],
         alphabetize: Bool,
         arrayEncoding: URLEncodedFormEncoder.ArrayEncoding,
         keyEncoding: URLEncodedFormEncoder.KeyEncoding,
         keyPathEncoding: URLEncodedFormEncoder.KeyPathEncoding) {
        self.table = table
        self.arena = arena
        self.alphabetize = alphabetize
        self.arrayEncoding = arrayEncoding
        self.keyEncoding = keyEncoding
        self.keyPathEncoding = keyPathEncoding
        if case .custom = arrayEncoding {
            buildsKeyStrings = true
        } else {
            buildsKeyStrings = !keyEncoding.isIdentity
        }
    }

    /// Returns the pairs of the root object.
    mutating func serialize(_ root: FormNode) -> [UInt8] {
        output.reserveCapacity(2 * arena.count + 24 * root.count)
        escapedKey.reserveCapacity(64)
        writeChildren(of: root, key: "", depth: 0)
        return output
    }

    /// Appends the pairs under `node`, joined with `&`. `key` is the node's own key when
    /// keys are built as strings.
    private mutating func writeChildren(of node: FormNode, key: String, depth: Int) {
        guard alphabetize else {
            for position in node.entries.indices {
                if position > 0 { output.append(UInt8(ascii: "&")) }
                writeChild(at: position, of: node, key: key, depth: depth)
            }
            return
        }

        let regionStart = output.count
        let firstPair = pairs.count
        for position in node.entries.indices {
            let start = output.count
            writeChild(at: position, of: node, key: key, depth: depth)
            pairs.append(start..<output.count)
        }
        guard pairs.count - firstPair > 1 else {
            pairs.removeLast(pairs.count - firstPair)
            return
        }

        output.withUnsafeBufferPointer { bytes in
            pairs[firstPair...].sort { Self.precedes($0, $1, in: bytes) }
        }
        joined.removeAll(keepingCapacity: true)
        for (number, pair) in pairs[firstPair...].enumerated() {
            if number > 0 { joined.append(UInt8(ascii: "&")) }
            output.withUnsafeBufferPointer { joined.append(contentsOf: UnsafeBufferPointer(rebasing: $0[pair])) }
        }
        output.replaceSubrange(regionStart..., with: joined)
        pairs.removeLast(pairs.count - firstPair)
    }

    private mutating func writeChild(at position: Int, of node: FormNode, key: String, depth: Int) {
        if buildsKeyStrings {
            let childKey: String
            switch node.kind {
            case .object:
                let name = node.entries[position].key
                childKey = depth == 0 ? name : key + keyPathEncoding.encodeKeyPath(name)
            case .array:
                childKey = arrayEncoding.encode(key, atIndex: position)
            }
            switch node.entries[position].value {
            case let .leaf(value):
                table.append(escaping: keyEncoding.encode(childKey), to: &output)
                writeValue(value)
            case let .node(child):
                writeChildren(of: child, key: childKey, depth: depth + 1)
            }
            return
        }

        let mark = escapedKey.count
        switch node.kind {
        case .object:
            let name = node.entries[position].key
            if depth == 0 {
                table.append(escaping: name, to: &escapedKey)
            } else {
                switch keyPathEncoding.builtIn {
                case .brackets:
                    escapedKey.append(contentsOf: table.openBracket)
                    table.append(escaping: name, to: &escapedKey)
                    escapedKey.append(contentsOf: table.closeBracket)
                case .dots:
                    escapedKey.append(contentsOf: table.dot)
                    table.append(escaping: name, to: &escapedKey)
                case nil:
                    table.append(escaping: keyPathEncoding.encodeKeyPath(name), to: &escapedKey)
                }
            }
        case .array:
            switch arrayEncoding {
            case .brackets:
                escapedKey.append(contentsOf: table.openBracket)
                escapedKey.append(contentsOf: table.closeBracket)
            case .noBrackets:
                break
            case .indexInBrackets:
                escapedKey.append(contentsOf: table.openBracket)
                table.append(escaping: String(position), to: &escapedKey)
                escapedKey.append(contentsOf: table.closeBracket)
            case .custom:
                preconditionFailure("custom array encodings build key strings")
            }
        }
        switch node.entries[position].value {
        case let .leaf(value):
            output.append(contentsOf: escapedKey)
            writeValue(value)
        case let .node(child):
            writeChildren(of: child, key: key, depth: depth + 1)
        }
        escapedKey.removeLast(escapedKey.count - mark)
    }

    private mutating func writeValue(_ value: Range<Int>) {
        output.append(UInt8(ascii: "="))
        arena.withUnsafeBufferPointer { arena in
            table.append(escaping: UnsafeBufferPointer(rebasing: arena[value]), to: &output)
        }
    }

    private static func precedes(_ lhs: Range<Int>, _ rhs: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return lhs.count < rhs.count }
        let shared = min(lhs.count, rhs.count)
        let order = memcmp(base + lhs.lowerBound, base + rhs.lowerBound, shared)
        return order < 0 || (order == 0 && lhs.count < rhs.count)
    }
}
