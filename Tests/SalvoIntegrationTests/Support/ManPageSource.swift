import Foundation

/// The salvo(1) page kept in the repository, Documentation/salvo.1, and its roff read back as
/// plain text for the tests that compare it with `salvo --help` and with the files it quotes.
enum ManPageSource {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let path = "Documentation/salvo.1"
    static var url: URL { repository.appendingPathComponent(path) }

    /// The page's roff as it is committed.
    static func roff() throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// Roff with the escapes the generator writes turned back into the characters they stand
    /// for and font changes dropped; request lines (`.SH NAME`) are kept, unescaped too.
    static func plainText(_ roff: String) -> String {
        var text = roff
        for font in [#"\fB"#, #"\fI"#, #"\fR"#, #"\fP"#, #"\&"#] { text = text.replacingOccurrences(of: font, with: "") }
        let characters = [(#"\-"#, "-"), (#"\(aq"#, "'"), (#"\(ga"#, "`"), (#"\(ti"#, "~"), (#"\(ha"#, "^"), (#"\ "#, " ")]
        for (escape, character) in characters { text = text.replacingOccurrences(of: escape, with: character) }
        return text.replacingOccurrences(of: #"\e"#, with: #"\"#)
    }

    /// The plain text of one `.SH` section, its heading line excluded, up to the next one.
    static func section(_ title: String, of plainText: String) -> Substring? {
        guard let start = plainText.range(of: "\n.SH \(title)\n") else { return nil }
        let rest = plainText[start.upperBound...]
        let end = rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex
        return rest[..<end]
    }
}
