/// A list that keeps its first element inline, so the common case of one element (one
/// attempt, one response handler) allocates no array.
@usableFromInline
struct SmallList<Element> {
    @usableFromInline var head: Element?
    @usableFromInline var tail: [Element] = []

    @inlinable init() {}

    @inlinable
    var isEmpty: Bool { head == nil }
    @inlinable
    var count: Int { head == nil ? 0 : 1 + tail.count }
    @inlinable
    var first: Element? { head }
    @inlinable
    var last: Element? { tail.last ?? head }

    @inlinable
    mutating func append(_ element: Element) {
        if head == nil { head = element } else { tail.append(element) }
    }

    @inlinable
    mutating func replaceLast(_ element: Element) {
        if tail.isEmpty { head = element } else { tail[tail.count - 1] = element }
    }

    @inlinable
    var elements: [Element] {
        guard let head else { return [] }
        return [head] + tail
    }

    @inlinable
    func forEach(_ body: (Element) throws -> Void) rethrows {
        guard let head else { return }
        try body(head)
        for element in tail { try body(element) }
    }

    @inlinable
    mutating func removeAll() {
        head = nil
        tail = []
    }
}

extension SmallList: Sendable where Element: Sendable {}
