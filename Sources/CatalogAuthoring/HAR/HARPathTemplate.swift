/// Finds the ids in captured URL paths: a segment that is a number, a UUID or a long hex string
/// becomes a `{{placeholder}}` when other requests share the path's shape with another value there
/// (`/users/42`, `/users/57` → `/users/{{userId}}`); a path seen once stays as it was.
struct HARPathTemplate {
    /// How many distinct values each shape's id positions were seen with, by shape.
    private var values: [String: [Int: Set<String>]] = [:]

    /// Whether a segment looks like an id.
    static func isID(_ segment: Substring) -> Bool {
        let bytes = segment.utf8
        guard !bytes.isEmpty else { return false }
        if bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        let isHex = { (byte: UInt8) in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
        }
        // 8-4-4-4-12
        if bytes.count == 36 {
            let dashes: Set<Int> = [8, 13, 18, 23]
            return bytes.enumerated().allSatisfy { dashes.contains($0.offset) ? $0.element == UInt8(ascii: "-") : isHex($0.element) }
        }
        // Object ids, hashes: long hex with at least one digit (so `deadbeefcafe` words are not ids).
        return bytes.count >= 8 && bytes.allSatisfy(isHex) && bytes.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The path with its id segments as `*`: requests with the same shape are the same endpoint.
    static func shape(_ segments: [Substring]) -> String {
        segments.map { isID($0) ? "*" : $0 }.joined(separator: "/")
    }

    /// Records a path seen in the capture.
    mutating func record(_ segments: [Substring]) {
        let key = Self.shape(segments)
        for (index, segment) in segments.enumerated() where Self.isID(segment) {
            values[key, default: [:]][index, default: []].insert(String(segment))
        }
    }

    /// The path as an endpoint writes it, with the placeholders and their values (the first value
    /// seen): only positions seen with more than one value become placeholders.
    func template(_ segments: [Substring]) -> (path: String, parameters: [(String, String)]) {
        let seen = values[Self.shape(segments)] ?? [:]
        var parameters: [(String, String)] = []
        var names = UniqueNames()
        var parts: [String] = []
        for (index, segment) in segments.enumerated() {
            guard let distinct = seen[index], distinct.count > 1 else {
                parts.append(String(segment))
                continue
            }
            var noun = index > 0 && !Self.isID(segments[index - 1]) ? String(segments[index - 1]) : ""
            if noun.hasSuffix("s") { noun.removeLast() }
            let name = names.claim(Identifier.camelCase([noun, "id"], fallback: "id"))
            parameters.append((name, String(segment)))
            parts.append("{{\(name)}}")
        }
        return (parts.joined(separator: "/"), parameters)
    }
}
