/// A namespace for extensions reached as `.af`, as in Alamofire: `URLSessionConfiguration.af.default`.
///
/// Add members with a constrained extension, `extension AlamofireExtension where
/// ExtendedType == MyType { ... }`, and reach them through `value.af` or `MyType.af`.
public struct AlamofireExtension<ExtendedType> {
    /// The extended value (or, through the static `af`, nothing: it is reached as a type).
    public private(set) var type: ExtendedType

    /// Wraps a value.
    ///
    /// - Parameter type: The value being extended.
    public init(_ type: ExtendedType) {
        self.type = type
    }
}

/// A type with `af` extension points, as in Alamofire. Conform with an empty extension,
/// `extension MyType: AlamofireExtended {}`: the default implementations supply both
/// `af` properties.
public protocol AlamofireExtended {
    /// The type being extended; `Self` with the default implementations.
    associatedtype ExtendedType

    /// The static extension point: `MyType.af.someStaticMember`.
    static var af: AlamofireExtension<ExtendedType>.Type { get set }
    /// The instance extension point: `value.af.someMember`.
    var af: AlamofireExtension<ExtendedType> { get set }
}

extension AlamofireExtended {
    /// `AlamofireExtension<Self>.self`. Setting it does nothing; the setter exists so that
    /// mutating members of the namespace can be called.
    public static var af: AlamofireExtension<Self>.Type {
        get { AlamofireExtension<Self>.self }
        set {}
    }

    /// `self` wrapped in an `AlamofireExtension`. Setting it does nothing; the setter exists
    /// so that mutating members of the namespace can be called.
    public var af: AlamofireExtension<Self> {
        get { AlamofireExtension(self) }
        set {}
    }
}
