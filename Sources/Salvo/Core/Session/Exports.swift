// Client code written against Alamofire uses `URL`, `URLRequest` and friends with only
// `import Alamofire`; re-exporting Foundation (and, on Linux, FoundationNetworking, where
// `URLRequest` lives) lets `import Salvo` do the same.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
// The engine is a module of its own, so the compiler keeps Core from reaching past what the
// engine offers the package (`package` declarations). Its public types (`TransferMetrics`,
// `HTTPVersionPolicy`, `CurlError`) are Salvo's API, and re-exported with it; re-exported, the
// module is also visible to every file of Salvo. Scripts/fuzz.sh compiles the engine's files
// into Salvo itself, where there is no such module.
#if canImport(SalvoEngine)
@_exported public import SalvoEngine
#endif
