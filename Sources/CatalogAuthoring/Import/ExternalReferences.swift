import JSONSupport

/// The files an OpenAPI document's `$ref`s name (`schemas/pet.yaml`, `common.yaml#/Error`), read
/// one after the other. Each file's own references are rewritten relative to the root document
/// (`#/Pet` in `schemas/pet.yaml` becomes `schemas/pet.yaml#/Pet`, `../common.yaml` becomes
/// `common.yaml`), so one lookup by path serves every reference wherever it was written.
/// URLs are not fetched: references to them stay unresolved.
enum ExternalReferences {
    /// Every file reachable from `root`, by path relative to it; files `read` cannot give are left out.
    static func load(from root: JSONValue, readFile read: (String) -> JSONValue?) -> [String: JSONValue] {
        var documents: [String: JSONValue] = [:]
        var pending = files(in: root)
        var tried: Set<String> = []
        while let path = pending.popLast() {
            guard tried.insert(path).inserted, let value = read(path) else { continue }
            let rewritten = rewrite(value, base: path)
            documents[path] = rewritten
            pending += files(in: rewritten)
        }
        return documents
    }

    /// The file parts of the references in `value` that name other files (not URLs).
    static func files(in value: JSONValue) -> [String] {
        var result: [String] = []
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let object):
                for member in object {
                    if member.key == "$ref", case .string(let reference) = member.value {
                        let file = String(reference.prefix { $0 != "#" })
                        if !file.isEmpty, !file.contains("://") { result.append(file) }
                    } else {
                        visit(member.value)
                    }
                }
            case .array(let elements): elements.forEach(visit)
            default: break
            }
        }
        visit(value)
        return result
    }

    /// `value` (read from `base`) with its references made relative to the root document.
    static func rewrite(_ value: JSONValue, base: String) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.map { member in
                guard member.key == "$ref", case .string(let reference) = member.value, !reference.contains("://") else {
                    return (member.key, rewrite(member.value, base: base))
                }
                let file = String(reference.prefix { $0 != "#" })
                let fragment = String(reference.dropFirst(file.count))
                return (member.key, .string((file.isEmpty ? base : join(base, file)) + fragment))
            }))
        case .array(let elements):
            return .array(elements.map { rewrite($0, base: base) })
        default:
            return value
        }
    }

    /// `file` relative to the folder of `base`, `.` and `..` resolved: `schemas/a.yaml` + `../b.yaml` → `b.yaml`.
    static func join(_ base: String, _ file: String) -> String {
        if file.hasPrefix("/") { return file }
        var parts = base.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        for part in file.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty && parts.last != ".." { parts.removeLast() } else { parts.append("..") }
            default: parts.append(String(part))
            }
        }
        return parts.filter { !$0.isEmpty }.joined(separator: "/")
    }
}
