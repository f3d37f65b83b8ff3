import Foundation

/// Turns a file name that came from the network (a `Content-Disposition` parameter, a URL's
/// last path component) into one safe to use inside a directory the caller chose.
///
/// Such a name is the server's choice, percent-decoded and unchecked: `..%2F..%2Fx` decodes to
/// a path that climbs out of the directory, `%2e%2e` to the directory's parent, and a NUL or
/// a control character cuts a name short or hides in a terminal. What is kept is one path
/// component that names a new entry in the directory, or nothing.
package enum NetworkFileName {
    /// The most bytes a name may take (Linux's `NAME_MAX`).
    static let maximumLength = 255

    /// The name's last path component with control characters removed and surrounding blanks
    /// trimmed, cut to `maximumLength` bytes; `nil` when nothing usable is left (empty, `.`
    /// or `..`).
    package static func sanitized(_ raw: String) -> String? {
        if isPlain(raw) { return raw }
        // Separators are found scalar by scalar: compared as Characters, "/" followed by a
        // combining mark is one grapheme that is not "/", and "..%2F%CC%81x" kept its slash.
        // Both separators: a name meant for another system may use the backslash.
        var kept = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            if scalar == "/" || scalar == "\\" {
                kept.removeAll()
            } else if !isControl(scalar) {
                kept.append(scalar)
            }
        }
        var name = String(kept).trimmingCharacters(in: .whitespaces)
        if name.utf8.count > maximumLength { name = truncated(name, to: maximumLength) }
        guard !name.isEmpty, name != ".", name != ".." else { return nil }
        return name
    }

    /// Whether `name` is already a safe name as it is: printable ASCII without separators or
    /// spaces at its ends, short enough, and not `.` or `..`. Most names from URLs are, and
    /// `trimmingCharacters` alone costs more than the rest of the cleaning.
    private static func isPlain(_ name: String) -> Bool {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= maximumLength, name != ".", name != "..",
              bytes.first != 0x20, bytes.last != 0x20 else { return false }
        return bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") }
    }

    /// C0 and C1 controls and DEL; also the Unicode line and paragraph separators and the
    /// bidirectional overrides, which make a name display as another.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The longest prefix of whole characters that fits in `limit` UTF-8 bytes, keeping an
    /// extension of up to 16 bytes when there is one.
    package static func truncated(_ name: String, to limit: Int) -> String {
        var suffix = ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, name.utf8[dot...].count <= 16 {
            suffix = String(name[dot...])
        }
        var prefix = ""
        var used = suffix.utf8.count
        for character in name.dropLast(suffix.count) {
            let size = character.utf8.count
            if used + size > limit { break }
            prefix.append(character)
            used += size
        }
        return prefix + suffix
    }

    /// The file name a `Content-Disposition` header suggests, sanitized: `filename*` (RFC 6266,
    /// UTF-8 percent-encoded) before `filename`, as RFC 6266 asks; `nil` when neither gives one.
    package static func fromContentDisposition(_ header: String) -> String? {
        var plain: String?
        var extended: String?
        for parameter in header.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let key = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = pair[1].trimmingCharacters(in: .whitespaces)
            if key == "filename" {
                plain = value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
                    ? String(value.dropFirst().dropLast()) : value
            } else if key == "filename*" {
                // charset'language'percent-encoded; Salvo reads UTF-8 (and ASCII, its subset).
                let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if parts.count == 3, ["utf-8", "us-ascii"].contains(parts[0].lowercased()) {
                    extended = String(parts[2]).removingPercentEncoding
                }
            }
        }
        return extended.flatMap(sanitized) ?? plain.flatMap(sanitized)
    }
}
