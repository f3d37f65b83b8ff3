import Foundation

extension CharacterSet {
    /// The characters Salvo's form encoders leave unescaped in query names and values.
    ///
    /// RFC 3986 lets a query hold its general delimiters (`:#[]@`) and sub-delimiters
    /// (`!$&'()*+,;=`) raw, but a server splitting `a=b&c=d` would then misread a value that
    /// contains `&` or `=`; so every delimiter is escaped except `?` and `/`, which section
    /// 3.4 of RFC 3986 explicitly allows so that a query can carry a URL. What remains is
    /// ASCII letters, digits and `-._~/?`, the set Alamofire uses under the same name.
    ///
    /// - Note: Foundation ignores non-ASCII members of an allowed set when percent-escaping,
    ///   and so does Salvo: a non-ASCII character is always written as its escaped UTF-8 bytes.
    public static let afURLQueryAllowed: CharacterSet = {
        let generalDelimiters = ":#[]@"
        let subDelimiters = "!$&'()*+,;="
        return CharacterSet.urlQueryAllowed
            .subtracting(CharacterSet(charactersIn: generalDelimiters + subDelimiters))
    }()
}
