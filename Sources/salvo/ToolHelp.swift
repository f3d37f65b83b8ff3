/// The text `salvo --help` prints: every option, the exit statuses, the naming and retry
/// rules and the input-file format, so the tool can be used without other documentation.
/// It is laid out from ``ToolDocumentation/salvo``, as the manual page is.
enum ToolHelp {
    static let text = render(.salvo)

    /// The widest a line grows.
    static let width = 92
    /// The column where an option's description starts.
    static let descriptionColumn = 28

    static func render(_ documentation: ToolDocumentation) -> String {
        var parts = ["Usage: salvo \(documentation.usage)"]
        for section in documentation.sections where section.inHelp {
            var lines: [String] = []
            let indent: Int
            if let title = section.helpTitle {
                lines.append("\(title):")
                indent = 2
            } else {
                indent = 0
            }
            var blocks: [[String]] = []
            for block in section.blocks {
                let blockLines = render(block, indent: indent)
                if !blockLines.isEmpty { blocks.append(blockLines) }
            }
            for (index, block) in blocks.enumerated() {
                if index > 0 { lines.append("") }
                lines += block
            }
            parts.append(lines.joined(separator: "\n"))
        }
        return parts.joined(separator: "\n\n")
    }

    private static func render(_ block: ToolDocumentation.Block, indent: Int) -> [String] {
        switch block {
        case .options(let options):
            return options.flatMap { option(_: $0, indent: indent) }
        case .paragraph(let text):
            return wrap(text, firstLine: String(repeating: " ", count: indent), indent: indent)
        case .verbatim(let lines):
            return lines.map { String(repeating: " ", count: indent) + $0 }
        case .terms(let terms):
            let column = indent + (terms.map(\.term.count).max() ?? 0) + 2
            return terms.flatMap { term in
                let head = String(repeating: " ", count: indent) + term.term
                return wrap(term.text, firstLine: head.padding(toLength: column, withPad: " ", startingAt: 0), indent: column)
            }
        case .manualOnly:
            return []
        }
    }

    /// An option's lines: its spellings and argument, its description from
    /// ``descriptionColumn`` on, and its notes below at the same column.
    private static func option(_ option: ToolDocumentation.Option, indent: Int) -> [String] {
        var label = String(repeating: " ", count: indent) + (option.short.map { "\($0), " } ?? "    ") + option.long
        if let argument = option.argument { label += argument.hasPrefix("[") ? argument : " " + argument }
        let head = label.count <= descriptionColumn - 2
            ? label.padding(toLength: descriptionColumn, withPad: " ", startingAt: 0) : label + "  "
        var lines = wrap(option.text, firstLine: head, indent: descriptionColumn)
        for note in option.notes {
            lines += wrap(note, firstLine: String(repeating: " ", count: descriptionColumn), indent: descriptionColumn)
        }
        return lines
    }

    /// `text` filled into lines no wider than ``width``: the first starts with `firstLine`, the
    /// others with `indent` spaces. Words break at spaces only; no-break spaces become spaces.
    static func wrap(_ text: String, firstLine: String, indent: Int) -> [String] {
        var lines: [String] = []
        var line = firstLine
        var lineHasWord = false
        for word in text.split(separator: " ") {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.map { $0.replacingOccurrences(of: "\u{A0}", with: " ") }
    }
}
