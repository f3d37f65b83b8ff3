// Target `query`: `URLEncoding` (`encode(_:with:)`, `queryComponents(fromKey:value:)`) and
// `JSONEncoding` over a `Parameters` tree decoded from the input.
//
// Decoding: one configuration byte, then a top-level dictionary. Each value is a tag byte
// (mod 13) and its payload; containers hold up to 7 entries; depth is at most 32 and the
// whole tree at most 256 values (beyond that, values become strings).

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private let queryURLs = [
    "https://example.com/path",
    "https://example.com/p?a=1#frag",
    "https://example.com:8080/x?",
    "http://[::1]:80/v6",
    "https://user:pw@example.com/",
    "https://example.com:080/lead",
    "https://example.com/#",
    "http://example.com",
]

private let queryMethods: [HTTPMethod] = [.get, .post, .head, .delete, .put, .patch, .get, .get]

/// Bytes that may appear in URLEncoding's output: its escaper's allowed set, `%XX`, `=` and `&`.
private let queryOutputBytes: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for byte in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/?%=&".utf8 { table[Int(byte)] = true }
    return table
}()

private struct Budget { var nodes = 256 }

private func makeValue(_ input: inout FuzzReader, depth: Int, budget: inout Budget) -> any Sendable {
    budget.nodes -= 1
    let tag = input.byte() % 13
    if depth >= 32 || budget.nodes <= 0 || input.isAtEnd { return input.string(maxLength: 15) }
    switch tag {
    case 0: return input.string()
    case 1: return input.int()
    case 2: return input.bool()
    case 3: return input.double()
    case 4: return makeDictionary(&input, depth: depth + 1, budget: &budget)
    case 5:
        let count = Int(input.byte() % 8)
        return (0..<count).map { _ in makeValue(&input, depth: depth + 1, budget: &budget) } as [any Sendable]
    case 6: return NSNumber(value: input.int())
    case 7: return NSNumber(value: input.bool())
    case 8: return NSNumber(value: input.double())
    case 9: return NSNull()
    case 10:
        switch input.byte() % 6 {
        case 0: return Int64(input.int())
        case 1: return UInt64(truncatingIfNeeded: input.int())
        case 2: return Float(input.double())
        case 3: return Int32(truncatingIfNeeded: input.int())
        case 4: return UInt(truncatingIfNeeded: input.int())
        default: return Int8(truncatingIfNeeded: input.int())
        }
    case 11:
        // Values the encoders meet only through their default cases.
        switch input.byte() % 4 {
        case 0: return Optional(input.string()) as String?
        case 1:
            // NaN included: Foundation's Date.description traps on it, which URLEncoding's
            // `"\(value)"` once reached (Fuzz/crashes/query-nan-date-description).
            return Date(timeIntervalSinceReferenceDate: input.double())
        case 2: return Decimal(input.int())
        default: return Substring(input.string())
        }
    default:
        // A string with characters the escaper must escape.
        return input.string() + "[]&= %#é\u{0}😀"
    }
}

private func makeDictionary(_ input: inout FuzzReader, depth: Int, budget: inout Budget) -> [String: any Sendable] {
    var dictionary: [String: any Sendable] = [:]
    let count = Int(input.byte() % 8)
    for _ in 0..<count {
        let key = input.string(maxLength: 15)
        dictionary[key] = makeValue(&input, depth: depth, budget: &budget)
    }
    return dictionary
}

private func checkQueryText<S: Sequence<UInt8>>(_ bytes: S, _ what: String) {
    for byte in bytes {
        fuzzCheck(queryOutputBytes[Int(byte)], "\(what) holds an unescaped byte \(byte)")
    }
}

func fuzzQuery(_ bytes: [UInt8]) {
    var input = FuzzReader(bytes)
    let config = input.byte()
    let options = input.byte()
    var budget = Budget()
    let parameters: Parameters = makeDictionary(&input, depth: 0, budget: &budget)

    let arrayEncoding: URLEncoding.ArrayEncoding
    switch config & 3 {
    case 0: arrayEncoding = .brackets
    case 1: arrayEncoding = .noBrackets
    case 2: arrayEncoding = .indexInBrackets
    default: arrayEncoding = .custom { key, index in "\(key)<\(index)>" }
    }
    let destination: URLEncoding.Destination = [.methodDependent, .queryString, .httpBody, .methodDependent][Int(config >> 2) & 3]
    let encoding = URLEncoding(destination: destination, arrayEncoding: arrayEncoding,
                               boolEncoding: config & 0x10 == 0 ? .numeric : .literal)

    var request = URLRequest(url: URL(string: queryURLs[Int(options) % queryURLs.count])!)
    request.method = queryMethods[Int(options >> 3) % queryMethods.count]

    if let encoded = try? encoding.encode(request, with: parameters) {
        if let body = encoded.httpBody { checkQueryText(body, "URLEncoding body") }
    }
    for (key, value) in parameters.prefix(4) {
        for (name, value) in encoding.queryComponents(fromKey: key, value: value) {
            checkQueryText(name.utf8, "queryComponents name")
            checkQueryText(value.utf8, "queryComponents value")
        }
    }

    // JSONEncoding: Salvo's writer for the options it models, JSONSerialization otherwise.
    let jsonOptions: JSONSerialization.WritingOptions
    switch (config >> 5) & 3 {
    case 0: jsonOptions = []
    case 1: jsonOptions = .prettyPrinted
    case 2: jsonOptions = .withoutEscapingSlashes
    default: jsonOptions = options & 0x80 == 0 ? [.prettyPrinted, .withoutEscapingSlashes] : .sortedKeys
    }
    let json = JSONEncoding(options: jsonOptions)
    if let encoded = try? json.encode(request, with: parameters), let body = encoded.httpBody {
        fuzzCheck((try? JSONSerialization.jsonObject(with: body)) != nil,
                     "JSONEncoding wrote invalid JSON: \(String(decoding: body, as: UTF8.self).debugDescription)")
    }
    if config & 0x80 != 0 {
        // A top-level array, or a scalar (which must be refused, not written).
        let object: Any = options & 1 == 0 ? Array(parameters.values) : (parameters.first?.value ?? 0)
        _ = try? json.encode(request, withJSONObject: object)
    }
}
