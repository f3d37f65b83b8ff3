import Foundation
internal import CCrypto
import Salvo

/// A `BulkDigest` computed by OpenSSL's libcrypto (`EVP_Digest*`), the same library libcurl
/// uses for TLS: a checksum is only as good as its implementation, so none is written here.
///
/// - Warning: Not thread-safe: one digest is fed by one thread at a time (the file's writer
///   keeps it behind its lock).
final class BulkLibcryptoDigest: BulkDigest {
    let algorithm: BulkChecksum.Algorithm
    private var context: OpaquePointer?

    /// A new digest of `algorithm`.
    ///
    /// - Throws: `BulkDigestError` when libcrypto refuses to start one (out of memory, or a
    ///   function its configuration disables, such as MD5 under a FIPS provider).
    init(_ algorithm: BulkChecksum.Algorithm) throws(BulkDigestError) {
        self.algorithm = algorithm
        let type: OpaquePointer?
        switch algorithm {
        case .sha256: type = EVP_sha256()
        case .sha1: type = EVP_sha1()
        case .md5: type = EVP_md5()
        }
        guard let context = EVP_MD_CTX_new() else { throw BulkDigestError("EVP_MD_CTX_new failed") }
        guard EVP_DigestInit_ex(context, type, nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw BulkDigestError("libcrypto refused to compute \(algorithm.rawValue)")
        }
        self.context = context
    }

    deinit {
        if let context { EVP_MD_CTX_free(context) }
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let context, bytes.count > 0 else { return }
        // EVP_DigestUpdate fails only for a context that was never initialised.
        _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    func finish() -> String {
        guard let context else { return "" }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        EVP_MD_CTX_free(context)
        self.context = nil
        guard status == 1 else { return "" }
        return Self.hex(digest.prefix(Int(length)))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
