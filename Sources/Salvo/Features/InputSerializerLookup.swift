import Synchronization

/// Finds out whether a serializer given through the generic API is one of Salvo's own
/// (`InputSerializer`), which read Salvo's response values instead of an `HTTPURLResponse`.
///
/// The answer needs a cast to a parameterized protocol, ~8,000 instructions. Salvo's named
/// methods (`responseData`, `serializingDecodable`, ...) never ask; this serves
/// `response(responseSerializer:)` and `serializingResponse(using:)`, and remembers the types
/// that are not Salvo's, so a custom serializer pays the failed cast once per type rather than
/// once per response.
enum InputSerializerLookup {
    private static let foreignTypes = Mutex<Set<ObjectIdentifier>>([])

    /// `serializer` as one of Salvo's serializers of `Object`s, or `nil`. Data and download
    /// serializers are different protocols with the same associated type, so the caller names it.
    static func builtIn<Serializer, Object>(_ serializer: Serializer, making _: Object.Type) -> (any InputSerializer<Object>)? {
        let type = ObjectIdentifier(Serializer.self)
        if foreignTypes.withLock({ $0.contains(type) }) { return nil }
        if let builtIn = serializer as? any InputSerializer<Object> { return builtIn }
        foreignTypes.withLock { _ = $0.insert(type) }
        return nil
    }
}
