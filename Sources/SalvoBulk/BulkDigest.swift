import Foundation
import Salvo

/// A running hash over the bytes of one file, fed in order, read once at the end.
///
/// Internal so that where the hash comes from (OpenSSL's libcrypto, `BulkLibcryptoDigest`) can
/// change without touching the downloader.
protocol BulkDigest: AnyObject {
    /// The function this digest computes.
    var algorithm: BulkChecksum.Algorithm { get }
    /// Adds bytes to the hash.
    func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest of everything added, in lowercase hexadecimal. Called once; the digest
    /// takes no more bytes afterwards.
    func finish() -> String
}

extension BulkDigest {
    /// Adds the bytes of `data` (a `Data`, an `[UInt8]`) to the hash.
    func update(_ data: some ContiguousBytes) {
        data.withUnsafeBytes { update($0) }
    }
}

/// Why a digest could not be made.
struct BulkDigestError: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}
