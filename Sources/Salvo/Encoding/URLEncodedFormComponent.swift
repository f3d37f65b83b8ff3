import Foundation

// The tree a value encodes into before it is written out.
//
// Alamofire rebuilds its tree from the root on every value written, following the value's
// coding path; where two writes disagree about the shape at a path (an object where an
// array is now wanted, a string where a container is), the later write replaces what was
// there. Those replacements are observable in the output, so Salvo follows the same rules,
// but on reference-type nodes mutated in place, with each container's node cached, so that
// a write costs a lookup in its parent instead of a walk and a copy of the whole path.

/// One step of a coding path, reduced to what decides the tree's shape: a key with an
/// integer value addresses an array element, any other key an object member.
enum FormPathKey {
    case key(String)
    case index(Int)

    init<Key: CodingKey>(_ codingKey: Key) {
        if let index = codingKey.intValue {
            self = .index(index)
        } else {
            self = .key(codingKey.stringValue)
        }
    }

    /// The kind of node that holds a child under this key.
    var parentKind: FormNode.Kind {
        switch self {
        case .key: return .object
        case .index: return .array
        }
    }

    var codingKey: FormCodingKey {
        switch self {
        case let .key(name): return FormCodingKey(stringValue: name, intValue: nil)
        case let .index(index): return FormCodingKey(stringValue: String(index), intValue: index)
        }
    }
}

/// The `CodingKey` reported in `codingPath`s.
struct FormCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String, intValue: Int?) {
        self.stringValue = stringValue
        self.intValue = intValue
    }

    init?(stringValue: String) {
        self.init(stringValue: stringValue, intValue: nil)
    }

    init?(intValue: Int) {
        self.init(stringValue: String(intValue), intValue: intValue)
    }
}

/// A container's position in the tree, as a link to its parent's, so creating a nested
/// container costs one small object rather than a copy of the whole path.
final class FormPath {
    let parent: FormPath?
    let key: FormPathKey
    /// The node this path resolved to, valid while the tree's epoch is `cachedEpoch`.
    @exclusivity(unchecked) var cachedNode: FormNode?
    @exclusivity(unchecked) var cachedEpoch = -1

    init(parent: FormPath?, key: FormPathKey) {
        self.parent = parent
        self.key = key
    }

    /// The coding path from the root, built only when someone asks for it.
    static func codingPath(of path: FormPath?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var link = path
        while let current = link {
            keys.append(current.key.codingKey)
            link = current.parent
        }
        return keys.reversed()
    }
}

/// A value in the tree: a leaf holds the raw UTF-8 bytes of a scalar, kept in the tree's
/// arena so that no string is built per value.
enum FormValue {
    case leaf(Range<Int>)
    case node(FormNode)
}

/// An object (members in the order first written) or an array.
///
/// Stored properties here and in `FormTree` and `FormPath` skip the runtime's exclusivity
/// checks, which otherwise cost about a tenth of an encode: each tree belongs to one encode
/// call on one thread, and no access to them spans a call that could reach them again.
final class FormNode {
    enum Kind {
        case object
        case array
    }

    /// A member name (empty for array elements) and its value, kept together so that a
    /// node costs one buffer rather than two.
    struct Entry {
        var key: String
        var value: FormValue
    }

    @exclusivity(unchecked) private(set) var kind: Kind
    @exclusivity(unchecked) private(set) var entries: [Entry] = []
    /// A name-to-position index, built once an object is too wide for a linear search.
    @exclusivity(unchecked) private var positions: [String: Int]?

    private static let indexThreshold = 16
    /// Room for a typical struct's members in the first allocation, instead of regrowing
    /// the buffer at 1, 2, 4 and 8 entries.
    private static let initialCapacity = 8

    init(kind: Kind) {
        self.kind = kind
    }

    var count: Int { entries.count }

    /// Empties the node and gives it another kind, as Alamofire does when a write needs a
    /// different container where one already is.
    func reset(to kind: Kind) {
        self.kind = kind
        entries.removeAll()
        positions = nil
    }

    /// The position a write under `key` goes to: an existing slot, or `nil` to append.
    ///
    /// An index beyond the end appends, at the end rather than at the index, which is what
    /// Alamofire does; a negative index (which crashes Alamofire) appends too.
    func slot(for key: FormPathKey) -> Int? {
        switch key {
        case let .index(index):
            return index >= 0 && index < entries.count ? index : nil
        case let .key(name):
            if let positions { return positions[name] }
            return entries.firstIndex { $0.key == name }
        }
    }

    func append(_ value: FormValue, for key: FormPathKey) {
        if entries.isEmpty { entries.reserveCapacity(Self.initialCapacity) }
        guard case let .key(name) = key else {
            entries.append(Entry(key: "", value: value))
            return
        }
        entries.append(Entry(key: name, value: value))
        if positions != nil {
            positions?[name] = entries.count - 1
        } else if entries.count > Self.indexThreshold {
            var built: [String: Int] = [:]
            built.reserveCapacity(entries.count * 2)
            for (position, entry) in entries.enumerated() where built[entry.key] == nil {
                built[entry.key] = position
            }
            positions = built
        }
    }

    func replace(at position: Int, with value: FormValue) {
        entries[position].value = value
    }
}

/// The tree of one encode call, with the arena holding its leaves' bytes.
final class FormTree {
    /// The value at the root: an empty object until something is written.
    @exclusivity(unchecked) private(set) var root: FormValue = .node(FormNode(kind: .object))
    @exclusivity(unchecked) private(set) var arena: [UInt8] = []
    /// Bumped whenever a node is emptied or dropped from the tree, which invalidates every
    /// cached resolution at once; that happens only when writes disagree about the shape.
    @exclusivity(unchecked) private var epoch = 0

    init() {
        arena.reserveCapacity(256)
    }

    /// Appends a leaf's bytes to the arena.
    ///
    /// - Returns: Where the bytes are.
    func store(_ string: String) -> Range<Int> {
        let start = arena.count
        arena.append(contentsOf: string.utf8)
        return start..<arena.count
    }

    /// Appends a leaf's bytes to the arena, written by a closure.
    ///
    /// - Returns: Where the bytes are.
    func store(_ write: (inout [UInt8]) -> Void) -> Range<Int> {
        let start = arena.count
        write(&arena)
        return start..<arena.count
    }

    /// Writes a leaf under `key` in the container at `path`, or at the root when `key` is nil.
    func setLeaf(_ bytes: Range<Int>, in path: FormPath?, key: FormPathKey?) {
        guard let key else {
            root = .leaf(bytes)
            epoch += 1
            return
        }
        let parent = node(at: path, as: key.parentKind).node
        if let position = parent.slot(for: key) {
            if case .node = parent.entries[position].value { epoch += 1 }
            parent.replace(at: position, with: .leaf(bytes))
        } else {
            parent.append(.leaf(bytes), for: key)
        }
    }

    /// Finds the container at `path`, creating it or changing its kind as needed.
    ///
    /// - Returns: The node, and whether a later call is certain to return the same node.
    ///   It is not when an element was appended short of the index asked for: Alamofire
    ///   looks that index up afresh on every write, so later writes land elsewhere.
    func node(at path: FormPath?, as kind: FormNode.Kind) -> (node: FormNode, isStable: Bool) {
        guard let path else { return (rootNode(as: kind), true) }
        if let cached = path.cachedNode, path.cachedEpoch == epoch, cached.kind == kind {
            return (cached, true)
        }

        let (parent, parentIsStable) = node(at: path.parent, as: path.key.parentKind)
        let child: FormNode
        var isStable = parentIsStable
        if let position = parent.slot(for: path.key) {
            switch parent.entries[position].value {
            case let .node(existing):
                if existing.kind != kind {
                    existing.reset(to: kind)
                    epoch += 1
                }
                child = existing
            case .leaf:
                child = FormNode(kind: kind)
                parent.replace(at: position, with: .node(child))
            }
        } else {
            if case let .index(index) = path.key, index != parent.count {
                isStable = false
            }
            child = FormNode(kind: kind)
            parent.append(.node(child), for: path.key)
        }

        if isStable {
            path.cachedNode = child
            path.cachedEpoch = epoch
        }
        return (child, isStable)
    }

    private func rootNode(as kind: FormNode.Kind) -> FormNode {
        if case let .node(node) = root {
            if node.kind != kind {
                node.reset(to: kind)
                epoch += 1
            }
            return node
        }
        let node = FormNode(kind: kind)
        root = .node(node)
        return node
    }

    /// A description of a value in the shape Alamofire prints in `invalidRootObject`.
    func component(of value: FormValue) -> URLEncodedFormComponent {
        switch value {
        case let .leaf(bytes):
            return .string(String(decoding: arena[bytes], as: UTF8.self))
        case let .node(node):
            switch node.kind {
            case .array:
                return .array(node.entries.map { component(of: $0.value) })
            case .object:
                return .object(node.entries.map { (key: $0.key, value: component(of: $0.value)) })
            }
        }
    }
}

/// The tree as plain values, used only to describe a rejected root in an error message.
enum URLEncodedFormComponent {
    case string(String)
    case array([URLEncodedFormComponent])
    case object([(key: String, value: URLEncodedFormComponent)])
}
