/// A plain-text table for the terminal: the first column left-aligned, the rest right.
struct TextTable {
    let header: [String]
    private(set) var rows: [[String]] = []

    init(_ header: [String]) {
        self.header = header
    }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)).joined(separator: "\n")
    }
}

/// Number formatting for the tables.
enum Format {
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "-" }
        var factor = 1.0
        for _ in 0..<decimals { factor *= 10 }
        let scaled = (abs(value) * factor).rounded()
        let whole = Int(scaled / factor)
        let fraction = Int(scaled) - whole * Int(factor)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        if decimals == 0 { return sign + grouped(whole) }
        let digits = String(fraction)
        return sign + grouped(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// A difference, with its sign: 1.5 → "+1.5", -0.3 → "-0.3".
    static func signed(_ value: Double, _ decimals: Int) -> String {
        let text = fixed(value, decimals)
        return text.hasPrefix("-") ? text : "+" + text
    }

    /// 12345 → "12,345".
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }

    /// A count, or the median of counts: 16 → "16", 16.5 → "16.5".
    static func count(_ value: Double) -> String {
        value == value.rounded() ? fixed(value, 0) : fixed(value, 1)
    }

    /// A value that may be large or small, with about three significant digits.
    static func adaptive(_ value: Double) -> String {
        if value >= 100 { return fixed(value, 0) }
        if value >= 10 { return fixed(value, 1) }
        return fixed(value, 2)
    }
}
