import Foundation

/// A URL as the tool shows it: a password in it (`https://user:password@host/`, as aria2 and
/// curl take a login) is masked in the display, the JSON events and the manifest.
enum ToolURLText {
    /// The URL's text, with `***` for its password when it has one.
    static func shown(_ url: URL) -> String {
        guard url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.percentEncodedPassword = "***"
        return components.string ?? url.absoluteString
    }
}
