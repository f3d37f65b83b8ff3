// Target `names`: `NetworkFileName.sanitized(_:)` and `fromContentDisposition(_:)` on the
// input as text (decoded leniently as UTF-8), directly and inside the two parameters of a
// Content-Disposition header. A result that breaks the sanitiser's promises stops the
// process, so libFuzzer reports it as a crash.

import Foundation

func fuzzNames(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    checkFileName(NetworkFileName.sanitized(text), from: text)
    checkFileName(NetworkFileName.fromContentDisposition(text), from: text)
    checkFileName(NetworkFileName.fromContentDisposition("attachment; filename=\"" + text + "\""), from: text)
    checkFileName(NetworkFileName.fromContentDisposition("attachment; filename*=UTF-8''" + text), from: text)
}

/// nil, or one non-empty path component other than `.` and `..`, of at most 255 UTF-8 bytes,
/// without separators, NUL or other controls (C0, DEL and C1, as NetworkFileName documents).
private func checkFileName(_ name: String?, from text: String) {
    guard let name else { return }
    func fail(_ what: String) -> Never {
        fatalError("NetworkFileName gave \(name.debugDescription) (\(what)) for \(text.debugDescription)")
    }
    if name.isEmpty { fail("empty") }
    if name == "." || name == ".." { fail("a dot entry") }
    if name.utf8.count > NetworkFileName.maximumLength { fail("\(name.utf8.count) bytes") }
    for byte in name.utf8 where byte < 0x20 || byte == 0x7F { fail("control byte \(byte)") }
    // Bytes, not Characters: "/" followed by a combining mark is one Character that is not
    // "/" (the first finding, Fuzz/crashes/names-*).
    if name.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) { fail("a path separator") }
    for scalar in name.unicodeScalars where (0x80...0x9F).contains(scalar.value) {
        fail("C1 control U+\(String(scalar.value, radix: 16))")
    }
}
