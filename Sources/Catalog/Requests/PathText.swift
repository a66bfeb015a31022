/// Path pieces of text written in catalogs, split by hand: Foundation's NSString path methods
/// trap on some inputs on Linux, and catalog text is untrusted.
enum PathText {
    /// `fixtures/pet.json` → `fixtures`; `pet.json` → ``.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// `fixtures/pet.json` → `pet.json`.
    static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `fixtures/pet.json` → `json`; no extension → ``.
    static func fileExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `petstore.yaml` → `petstore`.
    static func removingExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
