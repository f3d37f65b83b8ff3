// Client code written against Alamofire uses `URL`, `URLRequest` and friends with only
// `import Alamofire`; re-exporting Foundation (and, on Linux, FoundationNetworking, where
// `URLRequest` lives) lets `import Salvo` do the same.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
