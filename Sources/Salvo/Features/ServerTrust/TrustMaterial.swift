import Foundation
internal import CCrypto

/// Certificates and public keys given to the trust evaluators, read with libcrypto (the
/// library libcurl verifies with), and turned into what libcurl takes: PEM anchors and
/// `sha256//` public key pins.
///
/// Each input is DER or PEM; a PEM text may hold several blocks. What libcrypto cannot read is
/// left out, so an evaluator given nothing usable fails its requests rather than trusting more.
enum TrustMaterial {
    /// The DER certificates in `inputs`.
    static func certificates(in inputs: [Data]) -> [Data] {
        inputs.flatMap { input in blocks(in: input, label: "CERTIFICATE") }.filter(isCertificate)
    }

    /// The DER SubjectPublicKeyInfo of each public key in `inputs`: `PUBLIC KEY` blocks and DER
    /// keys as they are, and the key of each certificate.
    static func publicKeys(in inputs: [Data]) -> [Data] {
        var keys: [Data] = []
        for input in inputs {
            if isPEM(input) {
                keys += blocks(in: input, label: "PUBLIC KEY").filter(isPublicKey)
                keys += blocks(in: input, label: "CERTIFICATE").compactMap(publicKey(ofCertificate:))
            } else if isPublicKey(input) {
                keys.append(input)
            } else if let key = publicKey(ofCertificate: input) {
                keys.append(key)
            }
        }
        return keys
    }

    /// PEM text of `certificates` (DER), as libcurl's `CURLOPT_CAINFO_BLOB` takes it.
    static func pem(of certificates: [Data]) -> String {
        certificates.map { certificate in
            let lines = certificate.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            return "-----BEGIN CERTIFICATE-----\n\(lines)\n-----END CERTIFICATE-----\n"
        }.joined()
    }

    /// `sha256//<base64>;...` of `keys` (DER SubjectPublicKeyInfo), as libcurl's
    /// `CURLOPT_PINNEDPUBLICKEY` takes it.
    static func pins(of keys: [Data]) -> String {
        keys.map { "sha256//" + sha256($0).base64EncodedString() }.joined(separator: ";")
    }

    private static func isPEM(_ input: Data) -> Bool {
        input.range(of: Data("-----BEGIN ".utf8)) != nil
    }

    /// The DER bodies of the PEM blocks labelled `label`, or the input itself when it is not
    /// PEM text.
    private static func blocks(in input: Data, label: String) -> [Data] {
        guard isPEM(input) else { return [input] }
        let text = String(decoding: input, as: UTF8.self)
        let begin = "-----BEGIN \(label)-----", end = "-----END \(label)-----"
        var found: [Data] = []
        var rest = text[...]
        while let start = rest.range(of: begin), let stop = rest[start.upperBound...].range(of: end) {
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            if let der = Data(base64Encoded: String(body)) { found.append(der) }
            rest = rest[stop.upperBound...]
        }
        return found
    }

    private static func isCertificate(_ der: Data) -> Bool {
        withCertificate(der) { _ in true } ?? false
    }

    private static func isPublicKey(_ der: Data) -> Bool {
        der.withUnsafeBytes { raw -> Bool in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return false }
            var cursor: UnsafePointer<UInt8>? = base
            guard let key = d2i_PUBKEY(nil, &cursor, raw.count) else { return false }
            EVP_PKEY_free(key)
            return cursor == base + raw.count
        }
    }

    private static func publicKey(ofCertificate der: Data) -> Data? {
        withCertificate(der) { certificate -> Data? in
            guard let key = X509_get_X509_PUBKEY(certificate) else { return nil }
            let length = i2d_X509_PUBKEY(key, nil)
            guard length > 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: Int(length))
            let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var cursor = buffer.baseAddress
                return i2d_X509_PUBKEY(key, &cursor)
            }
            return written == length ? Data(bytes) : nil
        } ?? nil
    }

    /// Runs `body` with the certificate `der` holds, or returns `nil` when libcrypto cannot read
    /// one certificate from exactly these bytes.
    private static func withCertificate<Result>(_ der: Data, _ body: (OpaquePointer) -> Result) -> Result? {
        der.withUnsafeBytes { raw -> Result? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let certificate = d2i_X509(nil, &cursor, raw.count) else { return nil }
            defer { X509_free(certificate) }
            guard cursor == base + raw.count else { return nil }
            return body(certificate)
        }
    }

    private static func sha256(_ bytes: Data) -> Data {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var length: UInt32 = 0
        _ = bytes.withUnsafeBytes { raw in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(raw.baseAddress, raw.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        return Data(digest.prefix(Int(length)))
    }
}
