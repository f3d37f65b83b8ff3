import Salvo
/// The digest a downloaded file must have, as aria2 writes it: `TYPE=HEX`.
///
/// `sha-256=9F86D0...` parses to `.sha256` with the digest in lowercase. The type name is
/// matched without regard to case; the digest must be hexadecimal of exactly the length its
/// type produces, so a digest pasted for the wrong type is refused when the list is read,
/// not after the download.
public struct BulkChecksum: Hashable, Sendable, CustomStringConvertible {
    /// The hash functions a checksum may name.
    public enum Algorithm: String, CaseIterable, Hashable, Sendable {
        /// SHA-256 (`sha-256`), 64 hexadecimal digits.
        case sha256 = "sha-256"
        /// SHA-1 (`sha-1`), 40 hexadecimal digits.
        case sha1 = "sha-1"
        /// MD5 (`md5`), 32 hexadecimal digits.
        case md5 = "md5"

        /// How many hexadecimal digits the function's digest takes.
        public var hexLength: Int {
            switch self {
            case .sha256: return 64
            case .sha1: return 40
            case .md5: return 32
            }
        }
    }

    /// The hash function.
    public let algorithm: Algorithm

    /// The expected digest: lowercase hexadecimal, `algorithm.hexLength` digits.
    public let hexDigest: String

    /// Parses aria2's `TYPE=HEX` form.
    ///
    /// - Parameter text: `sha-256=HEX`, `sha-1=HEX` or `md5=HEX`; the type in any case, the
    ///   digest in either case.
    /// - Throws: `BulkValueError` naming what is wrong: no `=`, an unknown type, a digit that
    ///   is not hexadecimal, or a digest of the wrong length for its type.
    public init(parsing text: String) throws(BulkValueError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw BulkValueError("checksum '\(text)' is not TYPE=HEX (sha-256, sha-1 or md5)")
        }
        let typeName = text[..<equals].lowercased()
        let digest = text[text.index(after: equals)...]
        guard let algorithm = Algorithm(rawValue: typeName) else {
            throw BulkValueError("checksum type '\(text[..<equals])' is not supported (sha-256, sha-1 or md5)")
        }
        guard digest.utf8.allSatisfy(Self.isHexDigit) else {
            throw BulkValueError("checksum '\(text)' has a digest that is not hexadecimal")
        }
        guard digest.utf8.count == algorithm.hexLength else {
            throw BulkValueError(
                "\(algorithm.rawValue) checksum needs \(algorithm.hexLength) hexadecimal digits, not \(digest.utf8.count)")
        }
        self.algorithm = algorithm
        self.hexDigest = digest.lowercased()
    }

    /// `TYPE=hex`, as it would be written in an input file.
    public var description: String { "\(algorithm.rawValue)=\(hexDigest)" }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
