import DispatcherCore

extension CatalogFileDecoder {
    /// Warns about every value holding a `{{` that no `}}` closes: it would be sent as written
    /// (percent-encoded in a URL) rather than filled in. Each node is looked at once (aliases share nodes).
    func warnAboutUnclosedPlaceholders(in root: YAMLNode) {
        // Collections are visited once (aliases share them); scalars without a `{` are skipped
        // before a template is read: this walk sees every value of every file.
        var visited = Set<ObjectIdentifier>()
        var pending = [root]
        while let node = pending.popLast() {
            switch node.content {
            case .scalar(let scalar):
                if scalar.text.utf8.contains(UInt8(ascii: "{")), Template(scalar.text).hasUnclosedOpening {
                    warning("'\(scalar.text)' holds '{{' without a name and a closing '}}': it is sent as written, not filled in", at: node)
                }
            case .mapping(let pairs):
                guard visited.insert(ObjectIdentifier(node)).inserted else { continue }
                for pair in pairs.reversed() { pending.append(pair.value) }
            case .sequence(let items):
                guard visited.insert(ObjectIdentifier(node)).inserted else { continue }
                pending.append(contentsOf: items.reversed())
            }
        }
    }
}
