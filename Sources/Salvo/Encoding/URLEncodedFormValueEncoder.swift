import Foundation

/// The strategies that decide how scalars are written into the tree.
struct FormValueOptions {
    let boolEncoding: URLEncodedFormEncoder.BoolEncoding
    let dataEncoding: URLEncodedFormEncoder.DataEncoding
    let dateEncoding: URLEncodedFormEncoder.DateEncoding
    let nilEncoding: URLEncodedFormEncoder.NilEncoding
}

/// The `Encoder` handed to values' `encode(to:)`.
///
/// One instance serves a whole encode: before a nested value encodes itself the instance is
/// pointed at the value's position and afterwards pointed back, so nesting allocates no
/// encoder. Containers copy the position when they are made, which keeps them correct while
/// the instance moves on. Only `superEncoder` hands out separate instances, since its caller
/// keeps using the container it came from.
final class FormValueEncoder: Encoder {
    let tree: FormTree
    let options: FormValueOptions
    /// The position this encoder writes at: `base` extended by `pending` when it is set.
    /// The last key stays pending until a container needs a path of its own, so a scalar
    /// that encodes itself through a single value container costs no path object.
    @exclusivity(unchecked) private var base: FormPath?
    @exclusivity(unchecked) private var pending: FormPathKey?
    /// How many values are encoding themselves through this encoder and the ones it came from,
    /// bounded by `ParameterNesting.maximumDepth`.
    @exclusivity(unchecked) private(set) var depth: Int

    init(tree: FormTree, options: FormValueOptions, base: FormPath? = nil, pending: FormPathKey? = nil, depth: Int = 0) {
        self.tree = tree
        self.options = options
        self.base = base
        self.pending = pending
        self.depth = depth
    }

    var codingPath: [any CodingKey] {
        var path = FormPath.codingPath(of: base)
        if let pending { path.append(pending.codingKey) }
        return path
    }

    /// Empty: the form encoder takes no user info, as Alamofire's does not.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FormKeyedContainer<Key>(encoder: self, path: materializedPath()))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FormUnkeyedContainer(encoder: self, path: materializedPath())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        if let pending {
            return FormSingleValueContainer(encoder: self, parent: base, key: pending)
        }
        if let base {
            return FormSingleValueContainer(encoder: self, parent: base.parent, key: base.key)
        }
        return FormSingleValueContainer(encoder: self, parent: nil, key: nil)
    }

    private func materializedPath() -> FormPath? {
        guard let key = pending else { return base }
        let path = FormPath(parent: base, key: key)
        base = path
        pending = nil
        return path
    }

    // MARK: Writing

    /// Writes a value under `key` in the container at `path` (at the root when `key` is nil).
    ///
    /// Scalars are written directly. `Date`, `Data` and `Decimal` are checked before the
    /// value is asked to encode itself, as Alamofire checks them, so that the date and data
    /// strategies apply and a `Decimal` is one string rather than its keyed representation.
    func encode<T: Encodable>(_ value: T, in path: FormPath?, key: FormPathKey?) throws {
        // Metatype comparisons cost a pointer compare each; a dynamic cast per value would
        // dominate the cost of encoding arrays and dictionaries, whose elements arrive here.
        if T.self == String.self { return write(reinterpret(value, as: String.self), in: path, key: key) }
        if T.self == Int.self { return write(reinterpret(value, as: Int.self), in: path, key: key) }
        if T.self == Bool.self { return write(reinterpret(value, as: Bool.self), in: path, key: key) }
        if T.self == Double.self { return write(reinterpret(value, as: Double.self), in: path, key: key) }
        if T.self == Date.self,
           let string = try options.dateEncoding.encode(reinterpret(value, as: Date.self)) {
            return write(string, in: path, key: key)
        }
        if T.self == Data.self,
           let string = try options.dataEncoding.encode(reinterpret(value, as: Data.self)) {
            return write(string, in: path, key: key)
        }
        if T.self == Decimal.self {
            return write(String(describing: reinterpret(value, as: Decimal.self)), in: path, key: key)
        }
        if T.self == Float.self { return write(reinterpret(value, as: Float.self), in: path, key: key) }
        if T.self == Int64.self { return write(reinterpret(value, as: Int64.self), in: path, key: key) }
        if T.self == UInt.self { return write(reinterpret(value, as: UInt.self), in: path, key: key) }
        if T.self == UInt64.self { return write(reinterpret(value, as: UInt64.self), in: path, key: key) }
        if T.self == Int32.self { return write(reinterpret(value, as: Int32.self), in: path, key: key) }
        if T.self == UInt32.self { return write(reinterpret(value, as: UInt32.self), in: path, key: key) }
        if T.self == Int16.self { return write(reinterpret(value, as: Int16.self), in: path, key: key) }
        if T.self == UInt16.self { return write(reinterpret(value, as: UInt16.self), in: path, key: key) }
        if T.self == Int8.self { return write(reinterpret(value, as: Int8.self), in: path, key: key) }
        if T.self == UInt8.self { return write(reinterpret(value, as: UInt8.self), in: path, key: key) }

        let saved = (base, pending)
        base = path
        pending = key
        defer { (base, pending) = saved }
        guard depth < ParameterNesting.maximumDepth else { throw ParameterNesting.tooDeep(value, codingPath: codingPath) }
        depth += 1
        defer { depth -= 1 }
        try value.encode(to: self)
    }

    func writeNil(in path: FormPath?, key: FormPathKey?) {
        guard let value = options.nilEncoding.encodeNil() else { return }
        write(value, in: path, key: key)
    }

    func write(_ value: String, in path: FormPath?, key: FormPathKey?) {
        tree.setLeaf(tree.store(value), in: path, key: key)
    }

    func write(_ value: Bool, in path: FormPath?, key: FormPathKey?) {
        let text: String
        switch options.boolEncoding {
        case .numeric: text = value ? "1" : "0"
        case .literal: text = value ? "true" : "false"
        }
        write(text, in: path, key: key)
    }

    func write(_ value: Double, in path: FormPath?, key: FormPathKey?) {
        write(String(value), in: path, key: key)
    }

    func write(_ value: Float, in path: FormPath?, key: FormPathKey?) {
        write(String(value), in: path, key: key)
    }

    func write<Integer: FixedWidthInteger>(_ value: Integer, in path: FormPath?, key: FormPathKey?) {
        let bytes = tree.store { buffer in
            if value < 0 { buffer.append(UInt8(ascii: "-")) }
            Self.appendDigits(of: UInt64(value.magnitude), to: &buffer)
        }
        tree.setLeaf(bytes, in: path, key: key)
    }

    /// Writes a number's decimal digits straight into the arena, where `String(value)` would
    /// allocate a string only to have it copied.
    private static func appendDigits(of value: UInt64, to buffer: inout [UInt8]) {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var remaining = value
        var position = start + count - 1
        while remaining > 0 {
            buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
            position -= 1
        }
    }
}

/// Reinterprets a value as the type it was just checked to be.
///
/// - Precondition: `T.self == U.self`, which every caller tests first; the call is then a
///   plain copy, where `as!` would go through the runtime's dynamic cast.
@inline(__always)
private func reinterpret<T, U>(_ value: T, as type: U.Type) -> U {
    unsafeBitCast(value, to: U.self)
}

// MARK: - Containers

struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FormValueEncoder
    let path: FormPath?

    var codingPath: [any CodingKey] { FormPath.codingPath(of: path) }

    mutating func encodeNil(forKey key: Key) throws {
        encoder.writeNil(in: path, key: FormPathKey(key))
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.write(value, in: path, key: FormPathKey(key)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encode(value, in: path, key: FormPathKey(key))
    }

    // The standard library's `encodeIfPresent` skips `nil` silently; Alamofire routes it
    // through `encodeNil` so that `NilEncoding` also applies to synthesized optionals.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodePresent(value, forKey: key) }

    private mutating func encodePresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value {
            try encoder.encode(value, in: path, key: FormPathKey(key))
        } else {
            encoder.writeNil(in: path, key: FormPathKey(key))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FormKeyedContainer<NestedKey>(encoder: encoder,
                                                             path: FormPath(parent: path, key: FormPathKey(key))))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FormUnkeyedContainer(encoder: encoder, path: FormPath(parent: path, key: FormPathKey(key)))
    }

    /// An encoder at this container's own path: Alamofire adds no `super` key, so a
    /// superclass's members land beside the subclass's.
    mutating func superEncoder() -> any Encoder {
        FormValueEncoder(tree: encoder.tree, options: encoder.options, base: path, depth: encoder.depth)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        FormValueEncoder(tree: encoder.tree, options: encoder.options, base: path, pending: FormPathKey(key),
                         depth: encoder.depth)
    }
}

struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: FormValueEncoder
    let path: FormPath?
    /// The index the next element is written at. A dropped `nil` does not advance it.
    private(set) var count = 0

    init(encoder: FormValueEncoder, path: FormPath?) {
        self.encoder = encoder
        self.path = path
    }

    var codingPath: [any CodingKey] { FormPath.codingPath(of: path) }

    private mutating func nextKey() -> FormPathKey {
        defer { count += 1 }
        return .index(count)
    }

    mutating func encodeNil() throws {
        guard let value = encoder.options.nilEncoding.encodeNil() else { return }
        encoder.write(value, in: path, key: nextKey())
    }

    mutating func encode(_ value: Bool) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: String) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: Double) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: Float) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: Int) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: Int8) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: Int16) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: Int32) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: Int64) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: UInt) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: UInt8) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: UInt16) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: UInt32) throws { encoder.write(value, in: path, key: nextKey()) }
    mutating func encode(_ value: UInt64) throws { encoder.write(value, in: path, key: nextKey()) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encode(value, in: path, key: nextKey())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FormKeyedContainer<NestedKey>(encoder: encoder, path: FormPath(parent: path, key: nextKey())))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        FormUnkeyedContainer(encoder: encoder, path: FormPath(parent: path, key: nextKey()))
    }

    /// An encoder at this container's own path, taking up an index as Alamofire's does.
    mutating func superEncoder() -> any Encoder {
        count += 1
        return FormValueEncoder(tree: encoder.tree, options: encoder.options, base: path, depth: encoder.depth)
    }
}

struct FormSingleValueContainer: SingleValueEncodingContainer {
    let encoder: FormValueEncoder
    /// The value goes under `key` in the container at `parent`; at the root when `key` is nil.
    let parent: FormPath?
    let key: FormPathKey?
    private var hasValue = false

    init(encoder: FormValueEncoder, parent: FormPath?, key: FormPathKey?) {
        self.encoder = encoder
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path = FormPath.codingPath(of: parent)
        if let key { path.append(key.codingKey) }
        return path
    }

    private mutating func claim<T>(for value: T) throws {
        guard !hasValue else {
            let context = EncodingError.Context(codingPath: codingPath,
                                                debugDescription: "Attempt to encode value through single value container when previously value already encoded.")
            throw EncodingError.invalidValue(value, context)
        }
        hasValue = true
    }

    mutating func encodeNil() throws {
        guard let value = encoder.options.nilEncoding.encodeNil() else { return }
        try claim(for: value)
        encoder.write(value, in: parent, key: key)
    }

    mutating func encode(_ value: Bool) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: String) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: Double) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: Float) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: Int) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: Int8) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: Int16) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: Int32) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: Int64) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: UInt) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: UInt8) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: UInt16) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: UInt32) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }
    mutating func encode(_ value: UInt64) throws { try claim(for: value); encoder.write(value, in: parent, key: key) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try claim(for: value)
        try encoder.encode(value, in: parent, key: key)
    }
}
