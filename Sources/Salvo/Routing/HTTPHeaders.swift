import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ordered list of HTTP headers whose names compare case-insensitively.
///
/// Adding or updating a header whose name is already present replaces its value in place,
/// so the order in which headers were first added is kept.
public struct HTTPHeaders: Equatable, Hashable, Sendable {
    private var headers: [HTTPHeader] = []

    /// Creates an empty list.
    public init() {}

    /// Creates a list from an array of headers; a later header replaces an earlier one
    /// with the same case-insensitive name.
    ///
    /// - Parameter headers: The headers.
    public init(_ headers: [HTTPHeader]) {
        self.headers.reserveCapacity(headers.count)
        for header in headers { update(header) }
    }

    /// Creates a list from a dictionary; names equal but for case collapse to one header.
    ///
    /// - Parameter dictionary: Header names and values.
    public init(_ dictionary: [String: String]) {
        headers.reserveCapacity(dictionary.count)
        for (name, value) in dictionary { update(HTTPHeader(name: name, value: value)) }
    }

    /// Adds a header, or replaces the value of the one with the same case-insensitive name.
    ///
    /// - Parameters:
    ///   - name: The header name.
    ///   - value: The header value.
    public mutating func add(name: String, value: String) {
        update(HTTPHeader(name: name, value: value))
    }

    /// Adds a header, or replaces the one with the same case-insensitive name.
    ///
    /// - Parameter header: The header.
    public mutating func add(_ header: HTTPHeader) {
        update(header)
    }

    /// Replaces the value of the header with the same case-insensitive name, or adds it.
    ///
    /// - Parameters:
    ///   - name: The header name.
    ///   - value: The header value.
    public mutating func update(name: String, value: String) {
        update(HTTPHeader(name: name, value: value))
    }

    /// Replaces the header with the same case-insensitive name, in place, or appends it.
    ///
    /// - Parameter header: The header.
    public mutating func update(_ header: HTTPHeader) {
        if let index = index(of: header.name) {
            headers[index] = header
        } else {
            headers.append(header)
        }
    }

    /// Removes the header with the given case-insensitive name, if present.
    ///
    /// - Parameter name: The header name.
    public mutating func remove(name: String) {
        if let index = index(of: name) { headers.remove(at: index) }
    }

    /// Sorts the headers by name, in place.
    public mutating func sort() {
        headers.sort { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// Returns a copy sorted by name.
    ///
    /// - Returns: The sorted copy.
    public func sorted() -> HTTPHeaders {
        var copy = self
        copy.sort()
        return copy
    }

    /// Returns the value of the header with the given case-insensitive name.
    ///
    /// - Parameter name: The header name.
    /// - Returns: The value, or `nil` when absent.
    public func value(for name: String) -> String? {
        guard let index = index(of: name) else { return nil }
        return headers[index].value
    }

    /// Reads, sets or (with `nil`) removes the header with the given case-insensitive name.
    ///
    /// - Parameter name: The header name.
    public subscript(_ name: String) -> String? {
        get { value(for: name) }
        set {
            if let newValue {
                update(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// The headers as a dictionary; when names repeat, the last value wins.
    public var dictionary: [String: String] {
        var result = [String: String](minimumCapacity: headers.count)
        for header in headers { result[header.name] = header.value }
        return result
    }

    private func index(of name: String) -> Int? {
        var i = 0
        while i < headers.count {
            if Self.equalIgnoringASCIICase(headers[i].name, name) { return i }
            i += 1
        }
        return nil
    }

    /// Header names are ASCII tokens, so an ASCII fold compares them without allocating
    /// lowercased copies. A name with any non-ASCII byte is compared as Alamofire compares
    /// every name, `lowercased()` on both sides, which folds more than ASCII (`"É"` matches
    /// `"é"`, the Kelvin sign matches `"k"`).
    static func equalIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        let asciiResult: Bool? = lhs.withUTF8 { a in
            rhs.withUTF8 { b in
                guard isASCII(a), isASCII(b) else { return nil }
                guard a.count == b.count else { return false }
                for i in 0..<a.count where a[i] != b[i] {
                    let x = a[i] | 0x20, y = b[i] | 0x20
                    guard x == y, x >= 0x61, x <= 0x7A else { return false }
                }
                return true
            }
        }
        return asciiResult ?? (lhs.lowercased() == rhs.lowercased())
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    /// Creates a list from a dictionary literal, keeping the literal's order.
    ///
    /// - Parameter elements: Name and value pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        headers.reserveCapacity(elements.count)
        for (name, value) in elements { update(name: name, value: value) }
    }
}

extension HTTPHeaders: ExpressibleByArrayLiteral {
    /// Creates a list from an array literal of headers.
    ///
    /// - Parameter elements: The headers.
    public init(arrayLiteral elements: HTTPHeader...) {
        self.init(elements)
    }
}

extension HTTPHeaders: Sequence {
    /// Returns an iterator over the headers, in order.
    ///
    /// - Returns: The iterator.
    public func makeIterator() -> IndexingIterator<[HTTPHeader]> {
        headers.makeIterator()
    }
}

extension HTTPHeaders: Collection {
    /// The position of the first header.
    public var startIndex: Int { headers.startIndex }

    /// The position one past the last header.
    public var endIndex: Int { headers.endIndex }

    /// The header at a position.
    ///
    /// - Parameter position: The position.
    public subscript(position: Int) -> HTTPHeader { headers[position] }

    /// The position after the one given.
    ///
    /// - Parameter i: A valid position.
    /// - Returns: The next position.
    public func index(after i: Int) -> Int { headers.index(after: i) }
}

extension HTTPHeaders: CustomStringConvertible {
    /// One `Name: Value` line per header.
    public var description: String {
        headers.map(\.description).joined(separator: "\n")
    }
}

extension HTTPURLResponse {
    /// The response's header fields as `HTTPHeaders`.
    public var headers: HTTPHeaders {
        (allHeaderFields as? [String: String]).map(HTTPHeaders.init) ?? HTTPHeaders()
    }
}
