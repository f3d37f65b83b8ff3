/// The shape of the tool's documentation: sections of options, paragraphs, examples and
/// terms, from which both `salvo --help` (``ToolHelp``) and the salvo(1) manual page
/// (``ToolManPage``) are made, so the two cannot say different things.
struct ToolDocumentation: Sendable {
    /// One line of the synopsis and of the help's first line, without the program's name.
    var usage: String
    /// The manual page's one-line summary, after "salvo \-" in its NAME section.
    var summary: String
    var sections: [Section]

    /// One command-line option with every spelling it has.
    struct Option: Sendable {
        /// The one-letter spelling, such as `-i`, if the option has one.
        var short: String?
        /// The long spelling, such as `--input-file`.
        var long: String
        /// What the option takes: `FILE`, `K/N | auto`, or `[=true|false]`, which is written
        /// against the name.
        var argument: String?
        /// What it does, as one paragraph.
        var text: String
        /// Paragraphs under the option that speak of it and the options before it.
        var notes: [String] = []

        var spellings: [String] { (short.map { [$0] } ?? []) + [long] }
    }

    /// A term and what it means, such as an exit status.
    struct Term: Sendable {
        var term: String
        var text: String
    }

    /// A piece of a section.
    enum Block: Sendable {
        case options([Option])
        case paragraph(String)
        /// Lines shown as they are (an example, a file's contents).
        case verbatim([String])
        case terms([Term])
        /// Blocks the manual page has and the help leaves out: detail the help has no room for.
        case manualOnly([Block])
    }

    /// Where a section goes in the manual page.
    enum ManualPlace: Equatable, Sendable {
        /// Into DESCRIPTION.
        case description
        /// Into OPTIONS, before its subsections.
        case optionsIntroduction
        /// A subsection of OPTIONS with this title.
        case optionsSubsection(String)
        /// A section of its own with this title, after OPTIONS.
        case section(String)
    }

    struct Section: Sendable {
        /// The help's heading, such as "Input"; nil for a section shown without one.
        var helpTitle: String?
        var manualPlace: ManualPlace
        /// Whether `--help` shows the section; false for one the manual page alone has.
        var inHelp = true
        var blocks: [Block]
    }
}

/// Prose written over several source lines, joined into one paragraph: each line break
/// becomes a space. A no-break space (U+00A0) keeps two words on one line in both outputs.
func prose(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ")
}
