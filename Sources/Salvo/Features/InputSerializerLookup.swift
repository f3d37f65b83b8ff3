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

    static func builtIn<Serializer: DataResponseSerializerProtocol>(_ serializer: Serializer)
        -> (any InputSerializer<Serializer.SerializedObject>)? {
        let type = ObjectIdentifier(Serializer.self)
        if foreignTypes.withLock({ $0.contains(type) }) { return nil }
        if let builtIn = serializer as? any InputSerializer<Serializer.SerializedObject> { return builtIn }
        foreignTypes.withLock { _ = $0.insert(type) }
        return nil
    }

    static func builtIn<Serializer: DownloadResponseSerializerProtocol>(download serializer: Serializer)
        -> (any InputSerializer<Serializer.SerializedObject>)? {
        let type = ObjectIdentifier(Serializer.self)
        if foreignTypes.withLock({ $0.contains(type) }) { return nil }
        if let builtIn = serializer as? any InputSerializer<Serializer.SerializedObject> { return builtIn }
        foreignTypes.withLock { _ = $0.insert(type) }
        return nil
    }
}
