import Salvo
/// The few things a bulk download asks of a response head, under `HTTPURLResponse`'s names,
/// answered from the raw header lines (`ResponseHead.value(forHeader:)`).
extension ResponseHead {
    /// The value of the header `name` (any case), repeated lines joined with ", ".
    func value(forHTTPHeaderField name: String) -> String? {
        value(forHeader: name)
    }

    /// `Content-Length`, or -1 when it is missing or not one whole number.
    var expectedContentLength: Int64 {
        guard let text = value(forHeader: "Content-Length"), let length = Int64(text), length >= 0 else { return -1 }
        return length
    }
}
