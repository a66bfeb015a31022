/// A value kept in a class and shared by its copies until one of them changes it. For the large
/// values the dispatcher hands through many steps (an environment, a request, its settings, a
/// response): copying each of their references at every step cost more than the steps themselves.
struct CopyOnWrite<Value: Sendable>: @unchecked Sendable {
    /// Changed only through `value`'s `_modify` when no other copy shares it: that is what makes
    /// it safe to send, and why no access needs checking at run time.
    private final class Box {
        @exclusivity(unchecked) var value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    private var box: Box

    init(_ value: Value) {
        box = Box(value)
    }

    /// The value; changing it first copies it when another copy shares it.
    var value: Value {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }
}

extension CopyOnWrite: Equatable where Value: Equatable {
    static func == (left: CopyOnWrite, right: CopyOnWrite) -> Bool {
        left.box === right.box || left.box.value == right.box.value
    }
}

extension CopyOnWrite: Hashable where Value: Hashable {
    func hash(into hasher: inout Hasher) {
        hasher.combine(box.value)
    }
}
