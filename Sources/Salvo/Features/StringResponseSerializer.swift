import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decodes the body as a `String`.
///
/// The text encoding is, in order of preference: the one given to the initializer, the
/// `charset` parameter of the response's `Content-Type`, and ISO-8859-1, HTTP/1.1's
/// historical default, as Alamofire falls back to. An empty or missing body fails with
/// `AFError.responseSerializationFailed(reason: .inputDataNilOrZeroLength)` unless the
/// request's method or the response's status code allows it, in which case the result is `""`.
public final class StringResponseSerializer: ResponseSerializer, InputSerializer {
    /// Applied to the body before it is decoded.
    public let dataPreprocessor: any DataPreprocessor
    /// The encoding to decode with; `nil` means the response's charset, else ISO-8859-1.
    public let encoding: String.Encoding?
    /// Status codes whose responses may have an empty body.
    public let emptyResponseCodes: Set<Int>
    /// Request methods whose responses may have an empty body.
    public let emptyRequestMethods: Set<HTTPMethod>

    /// Creates the serializer.
    ///
    /// - Parameters:
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - encoding: The encoding to decode with. `nil` by default: the response's charset,
    ///     falling back to ISO-8859-1.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    public init(dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                encoding: String.Encoding? = nil,
                emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods) {
        self.dataPreprocessor = dataPreprocessor
        self.encoding = encoding
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// Decodes the body as text.
    ///
    /// - Parameters:
    ///   - request: The request sent; its method decides whether an empty body is allowed.
    ///   - response: The response; its status code and charset are read.
    ///   - data: The body.
    ///   - error: The request's error, rethrown when present.
    /// - Returns: The text, or `""` for an allowed empty body.
    /// - Throws: The request's error; `.inputDataNilOrZeroLength` for an empty body that is
    ///   not allowed; `.stringSerializationFailed(encoding:)` when the bytes are not valid in
    ///   the chosen encoding; or the preprocessor's error.
    public func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> String {
        try serialize(input: SerializationInput(request: request, response: response), data: data, error: error)
    }

    func serialize(input: SerializationInput, data: Data?, error: (any Error)?) throws -> String {
        if let error { throw error }
        guard let data, !data.isEmpty else {
            guard emptyAllowed(input) else { throw AFError.responseSerializationFailed(reason: .inputDataNilOrZeroLength) }
            return ""
        }
        let body = try dataPreprocessor.preprocess(data)
        let chosen = encoding ?? input.textEncodingName.flatMap(String.Encoding.init(ianaCharsetName:)) ?? .isoLatin1
        guard let text = String(data: body, encoding: chosen) else {
            throw AFError.responseSerializationFailed(reason: .stringSerializationFailed(encoding: chosen))
        }
        return text
    }
}

extension ResponseSerializer where Self == StringResponseSerializer {
    /// A `StringResponseSerializer` with the default settings.
    public static var string: StringResponseSerializer { StringResponseSerializer() }

    /// A `StringResponseSerializer` with the given settings.
    ///
    /// - Parameters:
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - encoding: The encoding to decode with. `nil` by default: the response's charset,
    ///     falling back to ISO-8859-1.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    /// - Returns: The serializer.
    public static func string(dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                              encoding: String.Encoding? = nil,
                              emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                              emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods) -> StringResponseSerializer {
        StringResponseSerializer(dataPreprocessor: dataPreprocessor, encoding: encoding, emptyResponseCodes: emptyResponseCodes,
                                 emptyRequestMethods: emptyRequestMethods)
    }
}

extension String.Encoding {
    /// The encoding an IANA charset name (as found in a `Content-Type`) stands for, or `nil`
    /// when Salvo does not know it.
    ///
    /// Covers the names Alamofire recognises (which follow CoreFoundation's table) plus the
    /// aliases and single-byte Windows and ISO code pages that servers still send; on Linux
    /// there is no CoreFoundation lookup to fall back on.
    init?(ianaCharsetName name: String) {
        switch name.trimmingCharacters(in: .whitespaces).lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "us-ascii", "ascii", "ansi_x3.4-1968": self = .ascii
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1": self = .isoLatin1
        case "iso-8859-2", "iso8859-2", "iso_8859-2", "latin2", "l2": self = .isoLatin2
        case "unicode-1-1", "iso-10646-ucs-2", "utf-16": self = .utf16
        case "utf-16be": self = .utf16BigEndian
        case "utf-16le": self = .utf16LittleEndian
        case "utf-32": self = .utf32
        case "utf-32be": self = .utf32BigEndian
        case "utf-32le": self = .utf32LittleEndian
        case "windows-1250", "cp1250": self = .windowsCP1250
        case "windows-1251", "cp1251": self = .windowsCP1251
        case "windows-1252", "cp1252": self = .windowsCP1252
        case "windows-1253", "cp1253": self = .windowsCP1253
        case "windows-1254", "cp1254": self = .windowsCP1254
        case "shift_jis", "shift-jis", "sjis", "x-sjis": self = .shiftJIS
        case "euc-jp": self = .japaneseEUC
        case "iso-2022-jp": self = .iso2022JP
        case "macintosh", "x-mac-roman", "mac": self = .macOSRoman
        default: return nil
        }
    }
}
