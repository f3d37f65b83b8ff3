import Salvo
/// The one rule for a `Name: value` header line, shared by input lists (`header=`) and the
/// command line (`--header`).
enum BulkHeaderLine {
    /// The header a `Name: value` line describes; blanks around the value are dropped.
    ///
    /// The name must be an HTTP token and the value free of CR, LF and NUL, which would end
    /// the header line early and let the rest pass as further headers or a second request.
    static func parse(_ text: String) throws(BulkValueError) -> HTTPHeader {
        guard let colon = text.firstIndex(of: ":") else {
            throw BulkValueError("header '\(text)' is not 'Name: value'")
        }
        let name = String(text[..<colon])
        guard WireCheck.isToken(name) else {
            throw BulkValueError("header name '\(name)' is not a valid HTTP field name")
        }
        let value = String(text[text.index(after: colon)...]).trimmingBlanks()
        guard WireCheck.isFieldValue(value) else {
            throw BulkValueError("header '\(name)' has a value with CR, LF or NUL")
        }
        return HTTPHeader(name: name, value: value)
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs, the blanks of aria2's lists.
    func trimmingBlanks() -> String {
        // Nearly every line has nothing to trim: a first and a last byte that are neither a
        // space nor a TAB cannot begin or end a Character that is one, so the Character walk
        // below (a quarter of the time spent reading a list) is skipped.
        let blank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = utf8.first, let last = utf8.last else { return self }
        if !blank(first) && !blank(last) { return self }
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return String(view)
    }
}
