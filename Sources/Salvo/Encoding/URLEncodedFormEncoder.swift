import Foundation
import Synchronization

/// Encodes `Encodable` values as `application/x-www-form-urlencoded` text: `key=value` pairs
/// joined with `&`, nested containers flattened into keys such as `parent[child][]`.
///
/// Every option Alamofire 5 offers is here with the same name, label, default and output:
/// pair ordering (`alphabetizeKeyValuePairs`), `ArrayEncoding`, `BoolEncoding`,
/// `DataEncoding`, `DateEncoding`, `KeyEncoding`, `KeyPathEncoding`, `NilEncoding`,
/// `SpaceEncoding` and the `allowedCharacters` left unescaped.
///
/// ```swift
/// struct Search: Encodable { let q: String; let tags: [String] }
/// let query: String = try URLEncodedFormEncoder().encode(Search(q: "a b", tags: ["x", "y"]))
/// // "q=a%20b&tags%5B%5D=x&tags%5B%5D=y"
/// ```
///
/// The value encoded must produce a keyed container at its root (a struct, a class or a
/// `[String: Value]` dictionary); anything else throws `Error.invalidRootObject`.
///
/// - Note: Unlike Alamofire's, this class is `Sendable` for real: its settings are constants
///   and `allowedCharacters` is guarded by a lock, so one encoder can serve every thread.
///   The closures of the `custom` strategies must therefore be `@Sendable`.
public final class URLEncodedFormEncoder: Sendable {
    /// The error thrown when a value cannot be written as form pairs.
    public enum Error: Swift.Error, Sendable, LocalizedError {
        /// The value's root was not a keyed container; the payload describes what it was.
        case invalidRootObject(String)

        /// A sentence naming what the encoder received instead of a keyed root.
        public var errorDescription: String? {
            switch self {
            case let .invalidRootObject(object):
                return "URLEncodedFormEncoder requires keyed root object. Received \(object) instead."
            }
        }
    }

    /// Whether the pairs at each level are sorted (`true` by default).
    ///
    /// Sorting makes the output of a `Dictionary`, whose iteration order changes from one
    /// process to the next, the same every time. Without it, pairs come out in the order the
    /// value encoded them, which for a synthesized `Encodable` type is declaration order.
    public let alphabetizeKeyValuePairs: Bool
    /// How array elements' keys are written.
    public let arrayEncoding: ArrayEncoding
    /// How `Bool` values are written.
    public let boolEncoding: BoolEncoding
    /// How `Data` values are written.
    public let dataEncoding: DataEncoding
    /// How `Date` values are written.
    public let dateEncoding: DateEncoding
    /// How keys are transformed before they are escaped.
    public let keyEncoding: KeyEncoding
    /// How a nested key is joined to its parent's key.
    public let keyPathEncoding: KeyPathEncoding
    /// How `nil` values are written, or whether they are dropped.
    public let nilEncoding: NilEncoding
    /// How spaces are written.
    public let spaceEncoding: SpaceEncoding

    /// The characters written as they are; every other byte becomes `%XX`.
    ///
    /// Only the ASCII members matter, as with Foundation's `addingPercentEncoding`: non-ASCII
    /// characters are always escaped. Setting this rebuilds the encoder's escape table.
    public var allowedCharacters: CharacterSet {
        get { escaping.withLock { $0.allowedCharacters } }
        set {
            let table = FormEscapeTable(allowedCharacters: newValue, spaceEncoding: spaceEncoding)
            escaping.withLock { $0 = table }
        }
    }

    /// The table built from `allowedCharacters`, swapped whole when the set changes so each
    /// encode reads one consistent table under the lock and then works without it.
    private let escaping: Mutex<FormEscapeTable>

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - alphabetizeKeyValuePairs: Whether to sort the pairs at each level. `true` by default.
    ///   - arrayEncoding: How array elements' keys are written. `.brackets` by default.
    ///   - boolEncoding: How `Bool` values are written. `.numeric` by default.
    ///   - dataEncoding: How `Data` values are written. `.base64` by default.
    ///   - dateEncoding: How `Date` values are written. `.deferredToDate` by default.
    ///   - keyEncoding: How keys are transformed. `.useDefaultKeys` by default.
    ///   - keyPathEncoding: How nested keys are joined. `.brackets` by default.
    ///   - nilEncoding: How `nil` values are written. `.dropKey` by default.
    ///   - spaceEncoding: How spaces are written. `.percentEscaped` by default.
    ///   - allowedCharacters: The characters left unescaped. `.afURLQueryAllowed` by default.
    public init(alphabetizeKeyValuePairs: Bool = true,
                arrayEncoding: ArrayEncoding = .brackets,
                boolEncoding: BoolEncoding = .numeric,
                dataEncoding: DataEncoding = .base64,
                dateEncoding: DateEncoding = .deferredToDate,
                keyEncoding: KeyEncoding = .useDefaultKeys,
                keyPathEncoding: KeyPathEncoding = .brackets,
                nilEncoding: NilEncoding = .dropKey,
                spaceEncoding: SpaceEncoding = .percentEscaped,
                allowedCharacters: CharacterSet = .afURLQueryAllowed) {
        self.alphabetizeKeyValuePairs = alphabetizeKeyValuePairs
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dataEncoding = dataEncoding
        self.dateEncoding = dateEncoding
        self.keyEncoding = keyEncoding
        self.keyPathEncoding = keyPathEncoding
        self.nilEncoding = nilEncoding
        self.spaceEncoding = spaceEncoding
        escaping = Mutex(FormEscapeTable(allowedCharacters: allowedCharacters, spaceEncoding: spaceEncoding))
    }

    /// An encoder with every default, sharing one escape table: building the table asks the
    /// character set about each of the 128 ASCII bytes (~12,000 instructions, more than most
    /// encodes), and `URLEncodedFormParameterEncoder.default` makes a new encoder per call, as
    /// in Alamofire.
    static func withDefaults() -> URLEncodedFormEncoder {
        URLEncodedFormEncoder(escapeTable: defaultEscapeTable)
    }

    private static let defaultEscapeTable = FormEscapeTable(allowedCharacters: .afURLQueryAllowed, spaceEncoding: .percentEscaped)

    private init(escapeTable: FormEscapeTable) {
        alphabetizeKeyValuePairs = true
        arrayEncoding = .brackets
        boolEncoding = .numeric
        dataEncoding = .base64
        dateEncoding = .deferredToDate
        keyEncoding = .useDefaultKeys
        keyPathEncoding = .brackets
        nilEncoding = .dropKey
        spaceEncoding = .percentEscaped
        escaping = Mutex(escapeTable)
    }

    /// Encodes a value as form text.
    ///
    /// - Parameter value: The value to encode; its root must be a keyed container.
    /// - Returns: The `&`-joined, percent-escaped pairs; empty when the value has none.
    /// - Throws: `Error.invalidRootObject` when the root is not keyed, an `EncodingError`
    ///   from the value's own `encode(to:)`, or what a `custom` strategy throws.
    public func encode(_ value: any Encodable) throws -> String {
        String(decoding: try encodeBytes(value).bytes, as: UTF8.self)
    }

    /// Encodes a value as form text, returned as its UTF-8 bytes.
    ///
    /// - Parameter value: The value to encode; its root must be a keyed container.
    /// - Returns: The UTF-8 bytes of the text `encode(_:) -> String` returns.
    /// - Throws: The same errors as `encode(_:) -> String`.
    public func encode(_ value: any Encodable) throws -> Data {
        Data(try encodeBytes(value).bytes)
    }

    /// Encodes a value into bytes: builds the tree of the value's containers in one pass over
    /// the value, then writes it out once.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The encoded bytes, and whether they are certainly valid in a URL query
    ///   (true unless `allowedCharacters` lets through a byte a query may not hold).
    func encodeBytes(_ value: any Encodable) throws -> (bytes: [UInt8], isQuerySafe: Bool) {
        let table = escaping.withLock { $0 }
        let tree = FormTree()
        let encoder = FormValueEncoder(tree: tree, options: FormValueOptions(boolEncoding: boolEncoding,
                                                                              dataEncoding: dataEncoding,
                                                                              dateEncoding: dateEncoding,
                                                                              nilEncoding: nilEncoding),
                                       // The root value is the first level.
                                       depth: 1)
        try value.encode(to: encoder)

        guard case let .node(root) = tree.root, root.kind == .object else {
            throw Error.invalidRootObject("\(tree.component(of: tree.root))")
        }

        var serializer = FormSerializer(table: table,
                                        arena: tree.arena,
                                        alphabetize: alphabetizeKeyValuePairs,
                                        arrayEncoding: arrayEncoding,
                                        keyEncoding: keyEncoding,
                                        keyPathEncoding: keyPathEncoding)
        return (serializer.serialize(root), table.isQuerySafe)
    }
}
