import Foundation
import XCTest

/// The salvo(1) manual page, Documentation/salvo.1: it is what `salvo --help-man` prints (so
/// it was made from the same text as `--help`), it names the options `--help` names and no
/// others, and groff and man render it without a warning.
final class SalvoManPageTests: XCTestCase {
    /// Options of other programs that the page names in its prose (sbatch's, for a Slurm array).
    private static let otherProgramsOptions: Set<String> = ["--array"]

    func testCommittedPageIsWhatTheToolGenerates() throws {
        let outcome = try SalvoToolProcess.run(["--help-man"])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.standardError, "")
        XCTAssertTrue(outcome.standardOutput.hasPrefix(#".\" salvo(1)."#))
        let committed = try ManPageSource.roff().split(separator: "\n", omittingEmptySubsequences: false)
        let generated = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        guard committed != generated else { return }
        let line = (0..<min(committed.count, generated.count)).first { committed[$0] != generated[$0] }
            ?? min(committed.count, generated.count)
        XCTFail("""
            \(ManPageSource.path) is stale from its line \(line + 1); regenerate it with \
            `.build/debug/salvo --help-man > \(ManPageSource.path)`
            """)
    }

    func testHelpManStandsAloneAsHelpDoes() throws {
        let outcome = try SalvoToolProcess.run(["--help-man", "https://a.example/"])
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(outcome.standardOutput, "")
        let help = try SalvoToolProcess.run(["--help"]).standardOutput
        XCTAssertFalse(help.contains("--help-man"), "--help-man is for regenerating the page, not listed in --help")
    }

    func testHelpAndPageListTheSameOptions() throws {
        let help = try SalvoToolProcess.run(["--help"]).standardOutput
        let helpOptions = try Set(matches(#"(?m)^(?:  (-[A-Za-z]), |      )(--[a-z][a-z-]*)"#, in: help).flatMap { $0 })
        let page = ManPageSource.plainText(try ManPageSource.roff())
        let options = try XCTUnwrap(ManPageSource.section("OPTIONS", of: page))
        let tags = options.components(separatedBy: "\n.TP\n").dropFirst().map { $0.prefix { $0 != "\n" } }
        let pageOptions = try Set(tags.flatMap { tag in
            try matches(#"(?:^|, )(--?[A-Za-z][a-z-]*)"#, in: String(tag)).flatMap { $0 }
        })
        XCTAssertGreaterThan(helpOptions.count, 40)
        XCTAssertEqual(helpOptions.subtracting(pageOptions).sorted(), [], "in --help, not in the page's OPTIONS")
        XCTAssertEqual(pageOptions.subtracting(helpOptions).sorted(), [], "in the page's OPTIONS, not in --help")
    }

    /// Every option word anywhere in the help (`-j4`, `--opt=value`, `curl -c`) is in the page;
    /// every one in the page's prose and in its example command lines is in the help.
    func testEveryOptionWordOfOneIsInTheOther() throws {
        let help = try SalvoToolProcess.run(["--help"]).standardOutput
        let page = ManPageSource.plainText(try ManPageSource.roff())
        var prose: [String] = []
        var commands: [String] = []
        var verbatim = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == ".nf" { verbatim = true } else if line == ".fi" { verbatim = false }
            if line.hasPrefix(".") { continue }
            if !verbatim {
                prose.append(line)
            } else if let salvo = line.range(of: "salvo ") {
                commands.append(String(line[salvo.upperBound...]))
            }
        }
        let helpWords = try optionWords(help)
        let pageWords = try optionWords(page)
        XCTAssertEqual(helpWords.subtracting(pageWords).sorted(), [], "in --help, not in the page")
        let pageOnly = try optionWords((prose + commands).joined(separator: "\n"))
            .subtracting(helpWords).subtracting(Self.otherProgramsOptions)
        XCTAssertEqual(pageOnly.sorted(), [], "in the page, not in --help")
    }

    func testPageRendersWithoutWarnings() throws {
        let groff = try XCTUnwrap(Self.program("groff"), "groff is missing: Scripts/setup.sh installs groff-base")
        let checked = try SalvoToolProcess.run(executable: groff, ["-ww", "-man", "-Tutf8", ManPageSource.url.path])
        XCTAssertEqual(checked.status, 0)
        XCTAssertEqual(checked.standardError, "", "groff -ww warns")
        XCTAssertTrue(checked.standardOutput.contains("every file downloaded and verified"))

        let man = try XCTUnwrap(Self.program("man"), "man is missing: Scripts/setup.sh installs man-db")
        var environment = ProcessInfo.processInfo.environment
        environment["MANWIDTH"] = "80"
        environment["MANPAGER"] = "cat"
        environment["PAGER"] = "cat"
        let shown = try SalvoToolProcess.run(executable: man, ["-l", ManPageSource.url.path], environment: environment)
        XCTAssertEqual(shown.status, 0)
        XCTAssertEqual(shown.standardError, "", "man -l warns")
        XCTAssertTrue(shown.standardOutput.contains("every file downloaded and verified"))
    }

    /// Every word that starts with one or two hyphens and a letter, up to any `=`.
    private func optionWords(_ text: String) throws -> Set<String> {
        try Set(matches(#"(?<![A-Za-z0-9_\-])(--?[A-Za-z][A-Za-z0-9\-]*)"#, in: text).flatMap { $0 })
    }

    /// The capture groups of every match of `pattern` in `text` that took part in it.
    private func matches(_ pattern: String, in text: String) throws -> [[String]] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
        }
    }

    /// The program's path on `PATH`, if it is there.
    private static func program(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
