import Foundation

extension URLEncodedFormEncoder {
    /// How the key of each array element is written.
    public enum ArrayEncoding: Sendable {
        /// `key[]` for every element. The default.
        case brackets
        /// `key` for every element, unchanged.
        case noBrackets
        /// `key[0]`, `key[1]`, ..., the style jQuery and Node.js read.
        case indexInBrackets
        /// A closure given the element's full key and its position, returning the key to write.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        func encode(_ key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: return key + "[]"
            case .noBrackets: return key
            case .indexInBrackets: return key + "[" + String(index) + "]"
            case let .custom(encoding): return encoding(key, index)
            }
        }
    }

    /// How `Bool` values are written.
    public enum BoolEncoding: Sendable {
        /// `1` for `true`, `0` for `false`. The default.
        case numeric
        /// `true` and `false`.
        case literal
    }

    /// How `Data` values are written.
    public enum DataEncoding: Sendable {
        /// As `Data`'s own `Encodable` conformance writes it: an array of its bytes.
        case deferredToData
        /// As one Base64 string, without line breaks. The default.
        case base64
        /// As the string a closure returns; an error it throws stops the encoding.
        case custom(@Sendable (Data) throws -> String)

        /// Returns the string to write, or `nil` to let `Data` encode itself.
        func encode(_ data: Data) throws -> String? {
            switch self {
            case .deferredToData: return nil
            case .base64: return data.base64EncodedString()
            case let .custom(encoding): return try encoding(data)
            }
        }
    }

    /// How `Date` values are written.
    public enum DateEncoding: Sendable {
        /// As `Date`'s own `Encodable` conformance writes it: seconds since 1 January 2001,
        /// e.g. `123.456`. The default.
        case deferredToDate
        /// As seconds since 1 January 1970 UTC, e.g. `978307323.456`.
        case secondsSince1970
        /// As milliseconds since 1 January 1970 UTC, e.g. `978307323456.0`.
        case millisecondsSince1970
        /// As an ISO 8601 / RFC 3339 UTC timestamp to the second, e.g. `2001-01-01T00:02:03Z`.
        case iso8601
        /// As the given `DateFormatter` writes it.
        case formatted(DateFormatter)
        /// As the string a closure returns; an error it throws stops the encoding.
        case custom(@Sendable (Date) throws -> String)

        /// A value-type style matching `ISO8601DateFormatter` with `.withInternetDateTime`
        /// (checked to agree on fractional, negative and five-digit-year dates) but
        /// `Sendable`, so no lock is needed around it.
        private static let iso8601Style = Date.ISO8601FormatStyle()

        /// Returns the string to write, or `nil` to let `Date` encode itself.
        func encode(_ date: Date) throws -> String? {
            switch self {
            case .deferredToDate: return nil
            case .secondsSince1970: return String(date.timeIntervalSince1970)
            case .millisecondsSince1970: return String(date.timeIntervalSince1970 * 1000.0)
            case .iso8601: return date.formatted(Self.iso8601Style)
            case let .formatted(formatter): return formatter.string(from: date)
            case let .custom(encoding): return try encoding(date)
            }
        }
    }

    /// How keys are transformed before they are escaped.
    ///
    /// The transformation sees the whole key of a pair, nested parts and brackets included:
    /// with `.uppercased`, `user[firstName]` becomes `USER[FIRSTNAME]`.
    public enum KeyEncoding: Sendable {
        /// Keys as the value's `CodingKey`s give them. The default.
        case useDefaultKeys
        /// `oneTwoThree` becomes `one_two_three` and `myURLKey` becomes `my_url_key`; leading
        /// and trailing underscores are kept. Words split where a lowercase letter meets an
        /// uppercase one, and where a run of capitals gives way to a capitalized word.
        case convertToSnakeCase
        /// As `.convertToSnakeCase`, joined with `-`: `oneTwoThree` becomes `one-two-three`.
        case convertToKebabCase
        /// The first character uppercased: `oneTwoThree` becomes `OneTwoThree`.
        case capitalized
        /// Every letter uppercased: `oneTwoThree` becomes `ONETWOTHREE`.
        case uppercased
        /// Every letter lowercased: `oneTwoThree` becomes `onetwothree`.
        case lowercased
        /// The string a closure returns.
        case custom(@Sendable (String) -> String)

        var isIdentity: Bool {
            if case .useDefaultKeys = self { return true }
            return false
        }

        func encode(_ key: String) -> String {
            switch self {
            case .useDefaultKeys: return key
            case .convertToSnakeCase: return Self.splitIntoWords(key, joinedBy: "_")
            case .convertToKebabCase: return Self.splitIntoWords(key, joinedBy: "-")
            case .capitalized: return key.prefix(1).uppercased() + key.dropFirst()
            case .uppercased: return key.uppercased()
            case .lowercased: return key.lowercased()
            case let .custom(encoding): return encoding(key)
            }
        }

        /// Splits a camel-case key into lowercased words.
        ///
        /// The scan mirrors Alamofire's (itself `JSONEncoder`'s), character by character so
        /// combining marks stay with their letter: find the next capital after the current
        /// word; if a lowercase letter follows it directly the capital starts a word,
        /// otherwise the capitals up to the one before that lowercase letter form a word of
        /// their own (`URL` in `myURLKey`). Uppercase means Unicode categories Lu and Lt,
        /// lowercase Ll, as in Foundation's `uppercaseLetters` and `lowercaseLetters`.
        private static func splitIntoWords(_ key: String, joinedBy separator: String) -> String {
            let characters = Array(key)
            guard !characters.isEmpty else { return key }

            func firstIndex(from start: Int, where test: (Character) -> Bool) -> Int? {
                var index = start
                while index < characters.count {
                    if test(characters[index]) { return index }
                    index += 1
                }
                return nil
            }

            var words: [Range<Int>] = []
            var wordStart = 0
            var searchStart = 1
            while let upper = firstIndex(from: searchStart, where: isUppercase) {
                words.append(wordStart..<upper)
                guard let lower = firstIndex(from: upper, where: isLowercase) else {
                    wordStart = upper
                    break
                }
                if lower == upper + 1 {
                    wordStart = upper
                } else {
                    words.append(upper..<(lower - 1))
                    wordStart = lower - 1
                }
                searchStart = lower + 1
            }
            words.append(wordStart..<characters.count)

            return words.map { String(characters[$0]).lowercased() }.joined(separator: separator)
        }

        private static func isUppercase(_ character: Character) -> Bool {
            character.unicodeScalars.contains { scalar in
                let category = scalar.properties.generalCategory
                return category == .uppercaseLetter || category == .titlecaseLetter
            }
        }

        private static func isLowercase(_ character: Character) -> Bool {
            character.unicodeScalars.contains { $0.properties.generalCategory == .lowercaseLetter }
        }
    }

    /// How a nested key is joined to its parent's key.
    ///
    /// For `["parent": ["child": ["grandchild": "value"]]]`, `.brackets` writes
    /// `parent[child][grandchild]=value` and `.dots` writes `parent.child.grandchild=value`.
    public struct KeyPathEncoding: Sendable {
        /// Each nested key in brackets: `parent[child][grandchild]`. The default.
        public static let brackets = KeyPathEncoding(builtIn: .brackets)
        /// Each nested key after a dot: `parent.child.grandchild`.
        public static let dots = KeyPathEncoding(builtIn: .dots)

        /// The shapes the serializer writes without calling a closure or building strings.
        enum BuiltIn: Sendable {
            case brackets
            case dots
        }

        let builtIn: BuiltIn?
        private let encoding: @Sendable (_ subkey: String) -> String

        /// Creates an encoding from a closure called with each nested key.
        ///
        /// - Parameter encoding: Returns the text appended to the parent's key for a nested
        ///   key; `.brackets` is `{ "[\($0)]" }`.
        public init(encoding: @escaping @Sendable (_ subkey: String) -> String) {
            builtIn = nil
            self.encoding = encoding
        }

        private init(builtIn: BuiltIn) {
            self.builtIn = builtIn
            switch builtIn {
            case .brackets: encoding = { "[" + $0 + "]" }
            case .dots: encoding = { "." + $0 }
            }
        }

        func encodeKeyPath(_ subkey: String) -> String {
            encoding(subkey)
        }
    }

    /// How `nil` values are written.
    public struct NilEncoding: Sendable {
        /// The pair is left out entirely. The default.
        public static let dropKey = NilEncoding { nil }
        /// The key is written with an empty value: `a=1&nilValue=&b=2`.
        public static let dropValue = NilEncoding { "" }
        /// The value is written as `null`.
        public static let null = NilEncoding { "null" }

        private let encoding: @Sendable () -> String?

        /// Creates an encoding from a closure called for each `nil`.
        ///
        /// - Parameter encoding: Returns the value to write, or `nil` to leave the pair out.
        public init(encoding: @escaping @Sendable () -> String?) {
            self.encoding = encoding
        }

        func encodeNil() -> String? {
            encoding()
        }
    }

    /// How spaces are written.
    public enum SpaceEncoding: Sendable {
        /// As `%20`. The default.
        case percentEscaped
        /// As `+`, as HTML forms submit them.
        case plusReplaced
    }
}
