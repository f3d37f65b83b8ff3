// Target `form`: `URLEncodedFormEncoder` and `URLEncodedFormParameterEncoder` encoding an
// `Encodable` tree decoded from the input, with strategies chosen from the input.
//
// Decoding: three configuration bytes pick the strategies, a fourth the request, then one
// value: a tag byte (mod 16) and its payload. Containers hold up to 7 entries, each with a
// style byte that picks how it is written (through `encode(_:forKey:)`, the typed methods,
// nested containers, super encoders, nested containers written to again later, ...), so
// the encoder meets the container patterns hand-written `encode(to:)` methods produce, not
// only synthesized ones. Depth is at most 32 and the tree at most 160 values.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct FuzzKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String, _ int: Int?) {
        stringValue = string
        intValue = int
    }

    init?(stringValue: String) { self.init(stringValue, nil) }
    init?(intValue: Int) { self.init(String(intValue), intValue) }
}

indirect enum FuzzFormValue: Encodable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case float(Float)
    case int8(Int8)
    case uint64(UInt64)
    case int32(Int32)
    case uint16(UInt16)
    case data(Data)
    case date(Date)
    case decimal(Decimal)
    case null
    case array([FuzzFormValue], style: UInt8)
    case object([(key: FuzzKey, value: FuzzFormValue)], style: UInt8)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case let .array(items, style):
            var container = encoder.unkeyedContainer()
            var heldKeyed: [KeyedEncodingContainer<FuzzKey>] = []
            var heldUnkeyed: [any UnkeyedEncodingContainer] = []
            for (index, item) in items.enumerated() {
                switch (style >> ((index % 4) * 2)) & 3 {
                case 0: try container.encode(item)
                case 1: try item.encodeDirect(into: &container, heldKeyed: &heldKeyed, heldUnkeyed: &heldUnkeyed)
                case 2: try item.encode(to: container.superEncoder())
                default:
                    try container.encodeNil()
                    try container.encode(item)
                }
            }
            try writeLate(&heldKeyed, &heldUnkeyed)
        case let .object(members, style):
            var container = encoder.container(keyedBy: FuzzKey.self)
            var heldKeyed: [KeyedEncodingContainer<FuzzKey>] = []
            var heldUnkeyed: [any UnkeyedEncodingContainer] = []
            for (index, member) in members.enumerated() {
                switch (style >> ((index % 4) * 2)) & 3 {
                case 0: try container.encode(member.value, forKey: member.key)
                case 1: try member.value.encodeDirect(into: &container, forKey: member.key, heldKeyed: &heldKeyed, heldUnkeyed: &heldUnkeyed)
                case 2: try member.value.encode(to: container.superEncoder(forKey: member.key))
                default:
                    if index & 1 == 0 {
                        // Into this container's own path, as a superclass's members are.
                        try member.value.encode(to: container.superEncoder())
                    } else {
                        // Written twice: nil first, then the value over it.
                        try container.encodeNil(forKey: member.key)
                        try container.encodeIfPresent(member.value, forKey: member.key)
                    }
                }
            }
            try writeLate(&heldKeyed, &heldUnkeyed)
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case let .string(value): try container.encode(value)
            case let .int(value): try container.encode(value)
            case let .double(value): try container.encode(value)
            case let .bool(value): try container.encode(value)
            case let .float(value): try container.encode(value)
            case let .int8(value): try container.encode(value)
            case let .uint64(value): try container.encode(value)
            case let .int32(value): try container.encode(value)
            case let .uint16(value): try container.encode(value)
            case let .data(value): try container.encode(value)
            case let .date(value): try container.encode(value)
            case let .decimal(value): try container.encode(value)
            case .null: try container.encodeNil()
            case .array, .object: break
            }
        }
    }

    /// Nested containers made earlier, written to after their later siblings: the tree may
    /// have been reshaped under them in between.
    private func writeLate(_ keyed: inout [KeyedEncodingContainer<FuzzKey>], _ unkeyed: inout [any UnkeyedEncodingContainer]) throws {
        for index in keyed.indices { try keyed[index].encode("late", forKey: FuzzKey("late", nil)) }
        for index in unkeyed.indices { try unkeyed[index].encode("late") }
    }

    /// Writes the value with the container's typed methods, or through a nested container
    /// for arrays and objects (kept in `held*` to be written to again later).
    func encodeDirect(into container: inout KeyedEncodingContainer<FuzzKey>, forKey key: FuzzKey,
                      heldKeyed: inout [KeyedEncodingContainer<FuzzKey>],
                      heldUnkeyed: inout [any UnkeyedEncodingContainer]) throws {
        switch self {
        case let .string(value): try container.encode(value, forKey: key)
        case let .int(value): try container.encodeIfPresent(value, forKey: key)
        case let .double(value): try container.encode(value, forKey: key)
        case let .bool(value): try container.encodeIfPresent(value, forKey: key)
        case let .float(value): try container.encode(value, forKey: key)
        case let .int8(value): try container.encode(value, forKey: key)
        case let .uint64(value): try container.encodeIfPresent(value, forKey: key)
        case let .int32(value): try container.encode(value, forKey: key)
        case let .uint16(value): try container.encode(value, forKey: key)
        case let .data(value): try container.encode(value, forKey: key)
        case let .date(value): try container.encodeIfPresent(value, forKey: key)
        case let .decimal(value): try container.encode(value, forKey: key)
        case .null: try container.encodeIfPresent(nil as String?, forKey: key)
        case let .array(items, style):
            var nested = container.nestedUnkeyedContainer(forKey: key)
            for item in items { try nested.encode(item) }
            if style & 0x80 != 0 { heldUnkeyed.append(nested) }
        case let .object(members, style):
            var nested = container.nestedContainer(keyedBy: FuzzKey.self, forKey: key)
            for member in members { try nested.encode(member.value, forKey: member.key) }
            if style & 0x80 != 0 { heldKeyed.append(nested) }
        }
    }

    func encodeDirect(into container: inout any UnkeyedEncodingContainer,
                      heldKeyed: inout [KeyedEncodingContainer<FuzzKey>],
                      heldUnkeyed: inout [any UnkeyedEncodingContainer]) throws {
        switch self {
        case let .string(value): try container.encode(value)
        case let .int(value): try container.encode(value)
        case let .double(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        case let .float(value): try container.encode(value)
        case let .int8(value): try container.encode(value)
        case let .uint64(value): try container.encode(value)
        case let .int32(value): try container.encode(value)
        case let .uint16(value): try container.encode(value)
        case let .data(value): try container.encode(value)
        case let .date(value): try container.encode(value)
        case let .decimal(value): try container.encode(value)
        case .null: try container.encodeNil()
        case let .array(items, style):
            var nested = container.nestedUnkeyedContainer()
            for item in items { try nested.encode(item) }
            if style & 0x80 != 0 { heldUnkeyed.append(nested) }
        case let .object(members, style):
            var nested = container.nestedContainer(keyedBy: FuzzKey.self)
            for member in members { try nested.encode(member.value, forKey: member.key) }
            if style & 0x80 != 0 { heldKeyed.append(nested) }
        }
    }
}

private struct FormBudget { var nodes = 160 }

private func makeFormValue(_ input: inout FuzzReader, depth: Int, budget: inout FormBudget) -> FuzzFormValue {
    budget.nodes -= 1
    let tag = input.byte() % 16
    if depth >= 32 || budget.nodes <= 0 || input.isAtEnd { return .string(input.string(maxLength: 15)) }
    switch tag {
    case 0: return .string(input.string())
    case 1: return .int(input.int())
    case 2: return .double(input.double())
    case 3: return .bool(input.bool())
    case 4: return .float(Float(input.double()))
    case 5: return .int8(input.integer())
    case 6: return .uint64(input.integer())
    case 7: return input.bool() ? .int32(input.integer()) : .uint16(input.integer())
    case 8: return .data(Data(input.rawBytes(maxLength: 32)))
    case 9:
        // Mostly dates within a few thousand years; any double now and then.
        let seconds = input.bool() ? Double(Int32(bitPattern: input.integer(UInt32.self))) * 37 : input.double()
        return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case 10:
        let significand = UInt64(truncatingIfNeeded: input.int().magnitude)
        let exponent = Int(Int8(bitPattern: input.byte()))
        return .decimal(Decimal(sign: input.bool() ? .minus : .plus, exponent: exponent, significand: Decimal(significand)))
    case 11: return .null
    case 12, 13:
        let style = input.byte()
        let count = Int(input.byte() % 8)
        return .array((0..<count).map { _ in makeFormValue(&input, depth: depth + 1, budget: &budget) }, style: style)
    default:
        return makeFormObject(&input, depth: depth + 1, budget: &budget)
    }
}

private func makeFormObject(_ input: inout FuzzReader, depth: Int, budget: inout FormBudget) -> FuzzFormValue {
    let style = input.byte()
    let count = Int(input.byte() % 8)
    var members: [(key: FuzzKey, value: FuzzFormValue)] = []
    for _ in 0..<count {
        let keyTag = input.byte()
        // A key with an integer value addresses an array element, even in a keyed container.
        let key = keyTag & 3 == 3 ? FuzzKey(input.string(maxLength: 7), Int(Int8(bitPattern: input.byte())) % 12)
                                  : FuzzKey(input.string(maxLength: 15), nil)
        members.append((key, makeFormValue(&input, depth: depth, budget: &budget)))
    }
    return .object(members, style: style)
}

private struct CustomFailure: Error {}

/// Made once: a `DateFormatter` costs far more than an encode.
private let fixedFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS Z"
    return formatter
}()

private let printableASCII = CharacterSet(charactersIn: Unicode.Scalar(0x21)...Unicode.Scalar(0x7E))

private struct FormSettings {
    var encoder: URLEncodedFormEncoder
    /// The ASCII bytes the encoder writes as they are (for the output check), or nil for a
    /// set whose members are not worth computing per input.
    var allowed: [Bool]
}

private func asciiTable(_ set: CharacterSet) -> [Bool] {
    (0..<256).map { $0 < 128 && $0 != 0x20 && set.contains(Unicode.Scalar(UInt8($0))) }
}

private let fixedSets: [(CharacterSet, [Bool])] = [
    CharacterSet.afURLQueryAllowed, .urlQueryAllowed, .alphanumerics, printableASCII,
].map { ($0, asciiTable($0)) }

private func makeSettings(_ input: inout FuzzReader, alphabetize: Bool? = nil) -> FormSettings {
    let a = input.byte(), b = input.byte(), c = input.byte()
    let arrayEncoding: URLEncodedFormEncoder.ArrayEncoding
    switch a & 3 {
    case 0: arrayEncoding = .brackets
    case 1: arrayEncoding = .noBrackets
    case 2: arrayEncoding = .indexInBrackets
    default: arrayEncoding = .custom { key, index in key + "(" + String(index) + ")" }
    }
    let dataEncoding: URLEncodedFormEncoder.DataEncoding
    switch (a >> 2) & 3 {
    case 0: dataEncoding = .deferredToData
    case 1, 2: dataEncoding = .base64
    default: dataEncoding = .custom { data in
        if data.count % 5 == 4 { throw CustomFailure() }
        return "<\(data.count)>"
    }
    }
    let dateEncoding: URLEncodedFormEncoder.DateEncoding
    switch (a >> 4) % 8 {
    case 0: dateEncoding = .deferredToDate
    case 1: dateEncoding = .secondsSince1970
    case 2: dateEncoding = .millisecondsSince1970
    case 3, 4: dateEncoding = .iso8601
    case 5: dateEncoding = .formatted(fixedFormatter)
    case 6: dateEncoding = .custom { date in
        if date.timeIntervalSinceReferenceDate < -1e12 { throw CustomFailure() }
        return String(date.timeIntervalSinceReferenceDate)
    }
    default: dateEncoding = .iso8601
    }
    let keyEncoding: URLEncodedFormEncoder.KeyEncoding
    switch b % 8 {
    case 0: keyEncoding = .useDefaultKeys
    case 1: keyEncoding = .convertToSnakeCase
    case 2: keyEncoding = .convertToKebabCase
    case 3: keyEncoding = .capitalized
    case 4: keyEncoding = .uppercased
    case 5: keyEncoding = .lowercased
    case 6: keyEncoding = .custom { String($0.reversed()) }
    default: keyEncoding = .useDefaultKeys
    }
    let keyPathEncoding: URLEncodedFormEncoder.KeyPathEncoding
    switch (b >> 3) & 3 {
    case 0, 3: keyPathEncoding = .brackets
    case 1: keyPathEncoding = .dots
    default: keyPathEncoding = URLEncodedFormEncoder.KeyPathEncoding { "/" + $0 }
    }
    let nilEncoding: URLEncodedFormEncoder.NilEncoding
    switch (b >> 5) & 3 {
    case 0: nilEncoding = .dropKey
    case 1: nilEncoding = .dropValue
    case 2: nilEncoding = .null
    default: nilEncoding = URLEncodedFormEncoder.NilEncoding { "nil value" }
    }
    var allowedSet: CharacterSet
    var allowed: [Bool]
    if c & 7 == 7 {
        // A set chosen by the input, which may let through bytes a query may not hold.
        let members = input.rawBytes(maxLength: 24).map { $0 & 0x7F }
        allowedSet = CharacterSet(charactersIn: String(decoding: members, as: UTF8.self))
        allowed = [Bool](repeating: false, count: 256)
        for byte in members where byte != 0x20 { allowed[Int(byte)] = true }
    } else {
        (allowedSet, allowed) = fixedSets[Int(c & 7) % fixedSets.count]
    }
    let spaceEncoding: URLEncodedFormEncoder.SpaceEncoding = c & 8 == 0 ? .percentEscaped : .plusReplaced
    let encoder = URLEncodedFormEncoder(alphabetizeKeyValuePairs: alphabetize ?? (b & 0x80 == 0),
                                        arrayEncoding: arrayEncoding,
                                        boolEncoding: c & 0x10 == 0 ? .numeric : .literal,
                                        dataEncoding: dataEncoding,
                                        dateEncoding: dateEncoding,
                                        keyEncoding: keyEncoding,
                                        keyPathEncoding: keyPathEncoding,
                                        nilEncoding: nilEncoding,
                                        spaceEncoding: spaceEncoding,
                                        allowedCharacters: allowedSet)
    // Raw in the output besides the allowed set: separators, escapes, and '+' for spaces.
    for byte in "=&%0123456789ABCDEF".utf8 { allowed[Int(byte)] = true }
    if case .plusReplaced = spaceEncoding { allowed[Int(UInt8(ascii: "+"))] = true }
    return FormSettings(encoder: encoder, allowed: allowed)
}

private let formURLs = [
    "https://example.com/search",
    "https://example.com/p?a=1#frag",
    "http://[::1]:8080/v6?",
    "https://user@example.com/x",
    "https://example.com:080/y#",
]

func fuzzForm(_ bytes: [UInt8]) {
    var input = FuzzReader(bytes)
    let settings = makeSettings(&input)
    let requestByte = input.byte()
    var budget = FormBudget()
    let root: FuzzFormValue = requestByte & 0x80 == 0 ? makeFormObject(&input, depth: 1, budget: &budget)
                                                      : makeFormValue(&input, depth: 1, budget: &budget)

    if let text: String = try? settings.encoder.encode(root) {
        for byte in text.utf8 {
            fuzzCheck(settings.allowed[Int(byte)], "URLEncodedFormEncoder wrote byte \(byte) raw in \(text.debugDescription)")
        }
        if requestByte & 0x1C == 0, let data: Data = try? settings.encoder.encode(root) {
            fuzzCheck(data.elementsEqual(text.utf8), "encode -> Data and encode -> String differ")
        }
    }

    // URLEncodedFormParameterEncoder: into the query (through QuerySplice or URLComponents,
    // which stops the process on a query byte it rejects) or into the body.
    let destination: URLEncodedFormParameterEncoder.Destination = [.methodDependent, .queryString, .httpBody, .methodDependent][Int(requestByte & 3)]
    let parameterEncoder = URLEncodedFormParameterEncoder(encoder: settings.encoder, destination: destination)
    var request = URLRequest(url: URL(string: formURLs[Int((requestByte >> 2) & 7) % formURLs.count])!)
    request.method = requestByte & 0x20 == 0 ? .get : .post
    _ = try? parameterEncoder.encode(root, into: request)
}
