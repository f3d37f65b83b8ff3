import Foundation

/// Reads an HTTP date (RFC 9110 section 5.6.7) in any of its three forms: the IMF-fixdate
/// servers send (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete ones recipients must
/// still accept.
///
/// The formatters are made once: making one costs far more than parsing with it. Foundation
/// does not promise that one formatter may parse on several threads at once, so they are used
/// one caller at a time.
package enum HTTPDate {
    private static let parser = Parser()

    /// The date `text` names, or `nil` when it is not an HTTP date.
    package static func parse(_ text: String?) -> Date? {
        guard let text else { return nil }
        return parser.parse(text.trimmingCharacters(in: .whitespaces))
    }

    private final class Parser: @unchecked Sendable { // `formatters` used only under `lock`
        private let lock = NSLock()
        private let formatters: [DateFormatter] = [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
        ].map { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            return formatter
        }

        func parse(_ text: String) -> Date? {
            lock.withLock {
                for formatter in formatters {
                    if let date = formatter.date(from: text) { return date }
                }
                return nil
            }
        }
    }
}
