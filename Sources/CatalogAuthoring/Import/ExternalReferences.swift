import FoundationEssentials
import JSONSupport

/// The files an OpenAPI document's `$ref`s name (`schemas/pet.yaml`, `common.yaml#/Error`), read
/// one after the other. Each file's own references are rewritten relative to the root document
/// (`#/Pet` in `schemas/pet.yaml` becomes `schemas/pet.yaml#/Pet`, `../common.yaml` becomes
/// `common.yaml`), so one lookup by path serves every reference wherever it was written.
/// URLs are not fetched, and no file outside the root document's folder is read (an absolute
/// path, or `..` that climbs out): references to them stay unresolved, each named in a note.
enum ExternalReferences {
    /// Every file reachable from `root`, by path relative to it, read through `files` (only the
    /// document's folder); each file that was not read is named in a note with the place of the
    /// first `$ref` to it (what it names is then missing).
    static func load(
        from root: JSONValue, documentName: String, files: DocumentFiles, parse: (Data, String) -> JSONValue?
    ) -> (documents: [String: JSONValue], notes: [ImportNote]) {
        var documents: [String: JSONValue] = [:]
        var notes: [ImportNote] = []
        var pending = references(in: root, document: documentName)
        var tried: Set<String> = []
        while !pending.isEmpty {
            let (path, place) = pending.removeLast()
            guard tried.insert(path).inserted else { continue }
            switch files.read(path) {
            case .read(let data, _):
                guard let value = parse(data, path) else {
                    notes.append(ImportNote(.skipped, at: place, "the file \(path) a $ref names is neither JSON nor YAML: what it names is missing"))
                    continue
                }
                let rewritten = rewrite(value, base: path)
                documents[path] = rewritten
                pending += references(in: rewritten, document: path).reversed()
            case .refused(let reason):
                // A split document's part beside its folder (`../common/Error.yaml`) is the person's to allow.
                let climbs = reason == .outside && DocumentFiles.confined(path) == nil && !path.hasPrefix("/") && path.split(separator: "/").contains("..")
                let widen = climbs ? " (--root with a folder that holds both reads it)" : ""
                notes.append(ImportNote(.skipped, at: place, "the file \(path) a $ref names \(reason): not read, what it names is missing\(widen)"))
            }
        }
        return (documents, notes)
    }

    /// The file parts of the references in `value` that name other files (not URLs), each with
    /// the place of its first `$ref` (`DOCUMENT POINTER`), in document order.
    static func references(in value: JSONValue, document: String) -> [(file: String, place: String)] {
        var result: [(file: String, place: String)] = []
        var seen: Set<String> = []
        var tokens: [String] = []
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let object):
                for member in object {
                    tokens.append(member.key)
                    if member.key == "$ref", case .string(let reference) = member.value {
                        let file = String(reference.prefix { $0 != "#" })
                        if !file.isEmpty, !file.contains("://"), seen.insert(file).inserted {
                            result.append((file, DocumentPlace.pointer(document, tokens)))
                        }
                    } else {
                        visit(member.value)
                    }
                    tokens.removeLast()
                }
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    tokens.append(String(index))
                    visit(element)
                    tokens.removeLast()
                }
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
