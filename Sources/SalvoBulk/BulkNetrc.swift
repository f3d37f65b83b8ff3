import Foundation
import Salvo

/// Logins from a netrc file (`~/.netrc`, or aria2's `--netrc-path`), by host.
///
/// The format is curl's and ftp's: words separated by blanks or line ends; `machine NAME`
/// starts a host's entry, whose `login NAME` and `password WORD` follow (`account` is read
/// and ignored); `macdef NAME` skips its lines up to an empty line; a word starting with `#`
/// begins a comment to the line's end; a word in double quotes may hold blanks, with `\"`
/// and `\\` inside. The first entry of a host wins.
///
/// The `default` entry is read but never used, as aria2 does for HTTP: a login for any host
/// would go to whatever host a list or a redirect names.
public struct BulkNetrc: Hashable, Sendable {
    private var logins: [String: BulkLogin]

    /// Parses a netrc file's text.
    ///
    /// - Parameter text: The file's contents.
    public init(parsing text: String) {
        logins = [:]
        let words = Self.words(text)
        var index = 0
        var machine: String?
        var isDefault = false
        var user: String?
        var password: String?
        func close() {
            if let machine, !isDefault, let user, logins[machine] == nil {
                logins[machine] = BulkLogin(user: user, password: password ?? "")
            }
            machine = nil
            isDefault = false
            user = nil
            password = nil
        }
        while index < words.count {
            let word = words[index]
            index += 1
            func next() -> String? {
                guard index < words.count else { return nil }
                defer { index += 1 }
                return words[index].text
            }
            if word.quoted {
                continue
            }
            switch word.text {
            case "machine":
                close()
                machine = next()?.lowercased()
            case "default":
                close()
                isDefault = true
                machine = ""
            case "login":
                user = next()
            case "password":
                password = next()
            case "account":
                _ = next()
            default:
                break
            }
        }
        close()
    }

    /// Reads and parses the netrc file at `path`.
    ///
    /// - Parameter path: The file's path.
    /// - Throws: The error reading it.
    public init(contentsOfFile path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        self.init(parsing: String(decoding: data, as: UTF8.self))
    }

    /// The login of the entry for `host` (compared without regard to case), if there is one.
    public func login(forHost host: String) -> BulkLogin? {
        logins[host.lowercased()]
    }

    /// The file's words, with `macdef` bodies and comments left out.
    private static func words(_ text: String) -> [(text: String, quoted: Bool)] {
        var words: [(text: String, quoted: Bool)] = []
        // By `isNewline`: a CRLF file's "\r\n" is one Character, which "\n" never equals.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var inMacro = false
        for line in lines {
            if inMacro {
                if line.allSatisfy({ $0 == " " || $0 == "\t" }) { inMacro = false }
                continue
            }
            var characters = line[...]
            while true {
                while let first = characters.first, first == " " || first == "\t" { characters.removeFirst() }
                guard let first = characters.first else { break }
                if first == "#" { break }
                var word = ""
                var quoted = false
                if first == "\"" {
                    quoted = true
                    characters.removeFirst()
                    while let character = characters.popFirst(), character != "\"" {
                        if character == "\\", let escaped = characters.popFirst() {
                            word.append(escaped)
                        } else {
                            word.append(character)
                        }
                    }
                } else {
                    while let character = characters.first, character != " " && character != "\t" {
                        word.append(character)
                        characters.removeFirst()
                    }
                }
                words.append((word, quoted))
            }
            // `macdef NAME` ends its line; the macro's lines follow, up to an empty one.
            if words.count >= 2, words[words.count - 2].text == "macdef", !words[words.count - 2].quoted {
                words.removeLast(2)
                inMacro = true
            }
        }
        return words
    }
}
