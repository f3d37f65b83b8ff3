import Foundation
import Synchronization

/// The header dictionary of the last response whose names all differ, kept with those names,
/// to build the next response's dictionary from when it has the same names in the same order.
///
/// A server answers one endpoint with the same header lines every time, only their values
/// changing (Date, Content-Length, ETag). Building the dictionary anew hashes and inserts every
/// name; a copy of the last one with its values replaced in place hashes none (~3,500
/// instructions of the ~11,000 nginx's eight headers cost). Any difference in the names, their
/// order, their spelling or their count, a repeated name, or more than `maximumLines` lines
/// falls back to `ResponseHead.parsedHeaderFields`, whose result this always equals.
final class HeaderFieldsTemplate: Sendable {
    /// The one template, shared by every session: one endpoint's or one server's names are
    /// what most processes see most of the time.
    static let shared = HeaderFieldsTemplate()

    /// Responses with more header lines are not templated (a hostile server's thousands).
    static let maximumLines = 32

    private struct Template {
        /// The names' bytes one after another, and where each ends.
        var nameBytes: [UInt8]
        var nameEnds: [Int]
        /// The dictionary, its values emptied (`remember`).
        var fields: [String: String]
        /// The header line each of `fields`' entries came from, in the dictionary's order.
        var lineOfEntry: [Int]
    }

    private let last = Mutex<Template?>(nil)

    /// `head`'s header dictionary, as `parsedHeaderFields` makes it.
    func fields(of head: ResponseHead) -> [String: String] {
        head.rawHeaders.withUnsafeBufferPointer { bytes in
            withUnsafeTemporaryAllocation(of: Line.self, capacity: Self.maximumLines) { lines in
                var count = 0
                var tooMany = false
                head.forEachField { _, name, value in
                    guard count < Self.maximumLines else {
                        tooMany = true
                        return
                    }
                    lines.initializeElement(at: count, to: Line(name: name, value: value))
                    count += 1
                }
                let used = UnsafeBufferPointer(rebasing: lines[..<count])
                if !tooMany, let reused = reuse(bytes, used) { return reused }
                let parsed = head.parsedHeaderFields
                if !tooMany { remember(parsed, bytes, used) }
                return parsed
            }
        }
    }

    /// One header line's name and value in the raw bytes.
    private struct Line {
        var name: Range<Int>
        var value: Range<Int>
    }

    /// The template's dictionary with `lines`' values, when their names are the template's.
    private func reuse(_ bytes: UnsafeBufferPointer<UInt8>, _ lines: UnsafeBufferPointer<Line>) -> [String: String]? {
        guard let template = last.withLock({ $0 }), template.nameEnds.count == lines.count else { return nil }
        let same = template.nameBytes.withUnsafeBufferPointer { names -> Bool in
            var start = 0
            for (line, end) in zip(lines, template.nameEnds) {
                guard end - start == line.name.count,
                      memcmp(names.baseAddress! + start, bytes.baseAddress! + line.name.lowerBound, line.name.count) == 0
                else { return false }
                start = end
            }
            return true
        }
        guard same else { return nil }
        var fields = template.fields
        // Values replaced through the dictionary's own positions: no key is hashed. The first
        // write copies the template's storage, which keeps its positions valid.
        var index = fields.startIndex
        var entry = 0
        while index != fields.endIndex {
            fields.values[index] = ResponseHead.text(bytes, lines[template.lineOfEntry[entry]].value)
            index = fields.index(after: index)
            entry += 1
        }
        return fields
    }

    /// Makes `fields`, parsed from `lines`, the template, when every line gave an entry of its
    /// own under its name's exact bytes.
    private func remember(_ fields: [String: String], _ bytes: UnsafeBufferPointer<UInt8>, _ lines: UnsafeBufferPointer<Line>) {
        // A repeated name was joined into one entry: not a template.
        guard fields.count == lines.count else { return }
        var lineOfEntry: [Int] = []
        lineOfEntry.reserveCapacity(lines.count)
        for key in fields.keys {
            // A name that is not valid UTF-8 is a repaired key, which matches no line's bytes.
            guard let line = lines.firstIndex(where: { key.utf8.elementsEqual(UnsafeBufferPointer(rebasing: bytes[$0.name])) })
            else { return }
            lineOfEntry.append(line)
        }
        var nameBytes: [UInt8] = []
        var nameEnds: [Int] = []
        nameEnds.reserveCapacity(lines.count)
        for line in lines {
            nameBytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[line.name]))
            nameEnds.append(nameBytes.count)
        }
        // Kept without its values: a response's cookies or tokens do not outlive it here.
        var blank = fields
        var index = blank.startIndex
        while index != blank.endIndex {
            blank.values[index] = ""
            index = blank.index(after: index)
        }
        let template = Template(nameBytes: nameBytes, nameEnds: nameEnds, fields: blank, lineOfEntry: lineOfEntry)
        last.withLock { $0 = template }
    }
}
