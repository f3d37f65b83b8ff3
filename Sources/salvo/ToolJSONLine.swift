import Foundation

/// One JSON object written as one line, with its keys in the order they were added (so
/// `"event"` comes first and a person can read the stream), and strings escaped by hand
/// so no value can break the line.
struct ToolJSONLine {
    private var members: [String] = []

    /// An object whose first member is `"event": name`, or an empty object.
    init(event: String? = nil) {
        if let event { add("event", event) }
    }

    mutating func add(_ key: String, _ value: String?) {
        members.append(Self.quote(key) + ":" + (value.map(Self.quote) ?? "null"))
    }

    mutating func add(_ key: String, _ value: Int64) {
        members.append(Self.quote(key) + ":" + String(value))
    }

    mutating func add(_ key: String, _ value: Int) {
        members.append(Self.quote(key) + ":" + String(value))
    }

    mutating func add(_ key: String, _ value: Bool) {
        members.append(Self.quote(key) + ":" + (value ? "true" : "false"))
    }

    /// Seconds and other fractions, to the millisecond; non-finite values become `null`,
    /// which JSON has no number for.
    mutating func add(_ key: String, _ value: Double) {
        members.append(Self.quote(key) + ":" + (value.isFinite ? String(format: "%.3f", value) : "null"))
    }

    /// The object followed by a newline.
    var text: String { "{" + members.joined(separator: ",") + "}\n" }

    private static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                result += String(format: "\\u%04x", scalar.value)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
