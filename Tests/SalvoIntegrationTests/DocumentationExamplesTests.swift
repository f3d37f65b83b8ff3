import Foundation
import XCTest

// The code in the DocC articles (Sources/Salvo/Salvo.docc, Sources/SalvoBulk/SalvoBulk.docc)
// compiles against the modules this test binary was built with. Each article's ```swift
// blocks are read in order as one program (an article's examples build on each other), with
// the catalog's module imported, and type-checked in Swift 6 mode by
// Tests/ClientCode/check.sh. Nothing is run: the examples name servers that do not exist.

final class DocumentationExamplesTests: XCTestCase {
    func testSalvoArticlesCompileWithoutDiagnostics() throws {
        try assertArticlesCompile(catalog: "Sources/Salvo/Salvo.docc", imports: ["Salvo"])
    }

    func testSalvoBulkArticlesCompileWithoutDiagnostics() throws {
        try assertArticlesCompile(catalog: "Sources/SalvoBulk/SalvoBulk.docc", imports: ["Salvo", "SalvoBulk"])
    }

    /// The extraction itself: blocks in order, imports first, other fences left out.
    func testExtractionJoinsSwiftBlocksAndHoistsImports() {
        let markdown = """
            # Title

            ```swift
            import SalvoBulk
            let a = 1
            ```

            ```sh
            echo no
            ```

            ```swift
            let b = a
            ```
            """
        let program = DocumentationExamples.program(from: markdown, imports: ["Salvo"])
        XCTAssertEqual(program, "import Salvo\nimport SalvoBulk\nlet a = 1\nlet b = a\n")
        XCTAssertNil(DocumentationExamples.program(from: "```sh\nls\n```\n", imports: ["Salvo"]))
    }

    private func assertArticlesCompile(catalog: String, imports: [String], line: UInt = #line) throws {
        let folder = ClientCodeCheck.root.appendingPathComponent(catalog)
        let articles = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".md") }.sorted()
        XCTAssertFalse(articles.isEmpty, "no articles in \(catalog)", line: line)
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("salvo-doc-examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        var checked = 0
        for article in articles {
            let markdown = try String(contentsOf: folder.appendingPathComponent(article), encoding: .utf8)
            guard let program = DocumentationExamples.program(from: markdown, imports: imports) else { continue }
            // One file per article, named after it, so a diagnostic names the article (and not
            // after the module itself: Salvo.md becomes Salvo_article.swift).
            let file = scratch.appendingPathComponent(article.replacingOccurrences(of: ".md", with: "_article.swift"))
            try program.write(to: file, atomically: true, encoding: .utf8)
            let (status, transcript) = try ClientCodeCheck.typeCheck(file: file, languageMode: 6)
            XCTAssertEqual(status, 0, "\(catalog)/\(article) does not compile:\n\(transcript)", line: line)
            XCTAssertEqual(transcript, "", "\(catalog)/\(article) compiles with diagnostics:\n\(transcript)", line: line)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 0, "no ```swift block in \(catalog)", line: line)
    }
}

/// Reads the Swift examples out of a Markdown article.
enum DocumentationExamples {
    /// The article's ```swift blocks as one program: `imports` and every `import` line of the
    /// blocks first (each once), then the rest of the blocks in order; `nil` when there is
    /// no such block.
    static func program(from markdown: String, imports: [String]) -> String? {
        var importLines = imports.map { "import \($0)" }
        var body: [String] = []
        var inSwift = false
        var inOther = false
        var sawBlock = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if inSwift || inOther {
                if trimmed == "```" {
                    inSwift = false
                    inOther = false
                } else if inSwift {
                    if trimmed.hasPrefix("import ") {
                        if !importLines.contains(trimmed) { importLines.append(trimmed) }
                    } else {
                        body.append(line)
                    }
                }
            } else if trimmed == "```swift" {
                inSwift = true
                sawBlock = true
            } else if trimmed.hasPrefix("```") {
                inOther = true
            }
        }
        guard sawBlock else { return nil }
        return (importLines + body).joined(separator: "\n") + "\n"
    }
}

extension ClientCodeCheck {
    /// Type-checks a file outside Tests/ClientCode in `languageMode`, as `typeCheck(_:languageMode:)`
    /// does one inside it.
    /// - Returns: check.sh's exit status and everything it printed.
    static func typeCheck(file: URL, languageMode: Int) throws -> (Int32, String) {
        // Tests/ClientCode/../../<path from the root> would do for files inside the
        // repository; a file elsewhere is reached by climbing to "/" first.
        let climb = Array(repeating: "..", count: folder.pathComponents.count - 1).joined(separator: "/")
        return try typeCheck(climb + file.path, languageMode: languageMode)
    }
}
