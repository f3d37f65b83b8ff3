import Foundation
import Salvo

/// HTTP's date formats (RFC 9110, 5.6.7), read for `Last-Modified`.
enum BulkHTTPDate {
    /// The preferred IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), then the obsolete RFC 850
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms,
    /// which a recipient must still accept.
    private static let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]

    /// The moment `text` names, or `nil` when it is none of the formats.
    static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        let trimmed = text.trimmingBlanks()
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}
