import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A namespace for Salvo's extensions, reached as `.af`, as in Alamofire.
public struct AlamofireExtension<ExtendedType> {
    /// The extended value.
    public private(set) var type: ExtendedType

    /// Wraps a value.
    public init(_ type: ExtendedType) {
        self.type = type
    }
}

extension URLSessionConfiguration {
    /// Salvo's extensions.
    public static var af: AlamofireExtension<URLSessionConfiguration>.Type { AlamofireExtension<URLSessionConfiguration>.self }
}

extension AlamofireExtension where ExtendedType: URLSessionConfiguration {
    /// `URLSessionConfiguration.default` with `HTTPHeaders.default` as additional headers.
    public static var `default`: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = HTTPHeaders.default.dictionary
        return configuration
    }

    /// `URLSessionConfiguration.ephemeral` with `HTTPHeaders.default` as additional headers.
    public static var ephemeral: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = HTTPHeaders.default.dictionary
        return configuration
    }
}
