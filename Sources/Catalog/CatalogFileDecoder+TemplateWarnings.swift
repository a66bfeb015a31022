import DispatcherCore

extension CatalogFileDecoder {
    /// Warns about every value holding a `{{` that no `}}` closes: it would be sent as written
    /// (percent-encoded in a URL) rather than filled in. Each node is looked at once (aliases share nodes).
    func warnAboutUnclosedPlaceholders(in root: YAMLNode) {
        var visited = Set<ObjectIdentifier>()
        var pending = [root]
        while let node = pending.popLast() {
            guard visited.insert(ObjectIdentifier(node)).inserted else { continue }
            switch node.content {
            case .scalar(let scalar):
                if Template(scalar.text).hasUnclosedOpening {
                    warning("'\(scalar.text)' holds '{{' without a name and a closing '}}': it is sent as written, not filled in", at: node)
                }
            case .mapping(let pairs): pending.append(contentsOf: pairs.reversed().map(\.value))
            case .sequence(let items): pending.append(contentsOf: items.reversed())
            }
        }
    }
}
