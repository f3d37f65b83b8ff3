/// Facts about the library itself.
///
/// - Note: This is not named `Salvo`: a type of the module's name would hide module-level
///   functions such as `Salvo.request(_:)` behind its own members.
public enum SalvoInfo {
    /// Salvo's version.
    public static let version = "0.1.0"
}

/// Alamofire's name for `SalvoInfo`, so `AFInfo.version` (in a User-Agent, say) compiles
/// unchanged. It reports Salvo's version, not an Alamofire version.
public typealias AFInfo = SalvoInfo
