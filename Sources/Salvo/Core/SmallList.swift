/// A list that keeps its first element inline, so the common case of one element (one
/// attempt, one response handler) allocates no array.
struct SmallList<Element> {
    private var head: Element?
    private var tail: [Element] = []

    init() {}

    var isEmpty: Bool { head == nil }
    var count: Int { head == nil ? 0 : 1 + tail.count }
    var first: Element? { head }
    var last: Element? { tail.last ?? head }

    mutating func append(_ element: Element) {
        if head == nil { head = element } else { tail.append(element) }
    }

    mutating func replaceLast(_ element: Element) {
        if tail.isEmpty { head = element } else { tail[tail.count - 1] = element }
    }

    var elements: [Element] {
        guard let head else { return [] }
        return [head] + tail
    }

    func forEach(_ body: (Element) throws -> Void) rethrows {
        guard let head else { return }
        try body(head)
        for element in tail { try body(element) }
    }

    mutating func removeAll() {
        head = nil
        tail = []
    }
}

extension SmallList: Sendable where Element: Sendable {}
