/// Facts about the library itself.
///
/// - Note: This is not named `Salvo`: a type of the module's name would hide module-level
///   functions such as `Salvo.request(_:)` behind its own members.
public enum SalvoInfo {
    /// Salvo's version.
    public static let version = "0.1.0"
}
