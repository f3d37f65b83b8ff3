import Foundation

/// The query as percent-encoded bytes, written pair by pair.
struct QueryBytes {
    var bytes: [UInt8]
    private var pairs = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Writes `name=value`; `name` is already escaped.
    mutating func pair(name: [UInt8], value: String) {
        if pairs > 0 { bytes.append(UInt8(ascii: "&")) }
        pairs += 1
        bytes.append(contentsOf: name)
        bytes.append(UInt8(ascii: "="))
        PercentEscaper.query.append(value, to: &bytes)
    }
}

extension URLEncoding {
    /// Writes one value's pairs into `query`, the escaped name growing in place with each
    /// level of nesting: the output of `forEachComponent` with each pair escaped, without a
    /// `String` per key, a closure call per pair or escaping a key's prefix again at each
    /// level. Only for the built-in array encodings, which need no unescaped key.
    ///
    /// Recursion stays in this function for the common types, one stack frame per level:
    /// the walk must fit `ParameterNesting.maximumDepth` levels in a small thread stack.
    func write(_ value: Any, name: inout [UInt8], depth: Int, into query: inout QueryBytes) throws {
        let valueType = type(of: value)
        if valueType == String.self {
            query.pair(name: name, value: value as! String)
        } else if valueType == Int.self {
            query.pair(name: name, value: String(value as! Int))
        } else if valueType == Bool.self {
            query.pair(name: name, value: boolEncoding.encode(value: value as! Bool))
        } else if valueType == [String: String].self {
            try checkDepth(depth, value)
            let mark = name.count
            for (key, element) in (value as! [String: String]).sorted(by: { $0.key < $1.key }) {
                Self.appendBracketed(key, to: &name)
                query.pair(name: name, value: element)
                name.removeSubrange(mark...)
            }
        } else if valueType == [String].self {
            try checkDepth(depth, value)
            let mark = name.count
            for (index, element) in (value as! [String]).enumerated() {
                appendArrayKey(index, to: &name)
                query.pair(name: name, value: element)
                name.removeSubrange(mark...)
            }
        } else if valueType == [String: any Sendable].self {
            try checkDepth(depth, value)
            let dictionary = value as! [String: any Sendable]
            let mark = name.count
            for index in dictionary.indices.sorted(by: { dictionary[$0].key < dictionary[$1].key }) {
                Self.appendBracketed(dictionary[index].key, to: &name)
                try write(dictionary[index].value, name: &name, depth: depth + 1, into: &query)
                name.removeSubrange(mark...)
            }
        } else if valueType == [String: Any].self {
            try checkDepth(depth, value)
            let dictionary = value as! [String: Any]
            let mark = name.count
            for index in dictionary.indices.sorted(by: { dictionary[$0].key < dictionary[$1].key }) {
                Self.appendBracketed(dictionary[index].key, to: &name)
                try write(dictionary[index].value, name: &name, depth: depth + 1, into: &query)
                name.removeSubrange(mark...)
            }
        } else if valueType == [any Sendable].self {
            try checkDepth(depth, value)
            let mark = name.count
            for (index, element) in (value as! [any Sendable]).enumerated() {
                appendArrayKey(index, to: &name)
                try write(element, name: &name, depth: depth + 1, into: &query)
                name.removeSubrange(mark...)
            }
        } else if valueType == [Any].self {
            try checkDepth(depth, value)
            let mark = name.count
            for (index, element) in (value as! [Any]).enumerated() {
                appendArrayKey(index, to: &name)
                try write(element, name: &name, depth: depth + 1, into: &query)
                name.removeSubrange(mark...)
            }
        } else {
            // Any other type takes the general walk, from the key as it was before escaping
            // (escaped names are ASCII and decode back exactly).
            let key = String(decoding: name, as: UTF8.self).removingPercentEncoding ?? ""
            try forEachComponent(key: key, value: value, depth: depth) { name, value in
                var escaped: [UInt8] = []
                PercentEscaper.query.append(name, to: &escaped)
                query.pair(name: escaped, value: value)
            }
        }
    }

    /// `[key]`, escaped.
    private static func appendBracketed(_ key: String, to name: inout [UInt8]) {
        name.append(contentsOf: [UInt8(ascii: "%"), UInt8(ascii: "5"), UInt8(ascii: "B")])
        PercentEscaper.query.append(key, to: &name)
        name.append(contentsOf: [UInt8(ascii: "%"), UInt8(ascii: "5"), UInt8(ascii: "D")])
    }

    /// What the array encoding adds to an element's key, escaped.
    private func appendArrayKey(_ index: Int, to name: inout [UInt8]) {
        switch arrayEncoding {
        case .brackets:
            name.append(contentsOf: [UInt8(ascii: "%"), UInt8(ascii: "5"), UInt8(ascii: "B"),
                                     UInt8(ascii: "%"), UInt8(ascii: "5"), UInt8(ascii: "D")])
        case .noBrackets:
            break
        case .indexInBrackets:
            Self.appendBracketed(String(index), to: &name)
        case let .custom(encoding):
            // Not reached: `appendQuery` walks custom encodings through strings. Kept right
            // all the same, from the key before escaping.
            let key = String(decoding: name, as: UTF8.self).removingPercentEncoding ?? ""
            name.removeAll(keepingCapacity: true)
            PercentEscaper.query.append(encoding(key, index), to: &name)
        }
    }
}
