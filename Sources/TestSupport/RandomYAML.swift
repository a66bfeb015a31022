/// Random YAML documents in the shapes catalogs use (block and flow collections, block scalars,
/// comments, quoting), for the tests that compare the YAML subset parser with libyaml and the
/// catalog decoder's two ways of writing JSON.
package enum RandomYAML {
    static let keys = ["a", "b", "key", "\"q\"", "'s'", "é", "a:b", "-x", "x y", "a#b", "k ", "'a''b'", "日本", "\"{k}\"", "u.v"]
    static let values = [
        "1", "x", "two  words", "\"q\\\"\"", "'s''t'", "{a: 1}", "[1, 2]", "{ a: [b, {c: d}], e }", "[]", "{}", "http://h:1/p#f", "a:b",
        "-1", "x # c", "x#c", "{{t}}", "\"{y}\"", "[a b, c ]", "{ a: b , c: d}", "[\"a\", 'b']", "'# not'", "\"\\t\\n\\0\"", "ü", "- x",
        "a: b", "\"\\u0041\"", "&a x", "*a", "!t x", "[a,", "{a: b,}", ">", "%", "@x", "? x",
    ]
    static let blockLines = ["text", " leading space", "", "  ", "   deeper", "# hash", "more text", "tail  "]

    package static func document(using generator: inout SeededGenerator) -> String {
        var lines: [String] = []
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &generator)! }
        func chance(_ one: Int) -> Bool { Int.random(in: 0..<one, using: &generator) == 0 }
        func block(_ indentation: Int, _ depth: Int, indentless: Bool = false) {
            let isSequence = indentless || chance(3)
            let pad = String(repeating: " ", count: indentation)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let prefix = isSequence ? pad + "- " : pad + pick(keys) + ":"
                if chance(8) { lines.append(pick(["", "# comment", pad + "# indented", "   "])) }
                if depth < 3 && chance(3) {
                    if isSequence && chance(2) {
                        lines.append(prefix + pick(keys) + ": " + pick(values))
                        for _ in 0..<Int.random(in: 0...2, using: &generator) { lines.append(pad + "  " + pick(keys) + ": " + pick(values)) }
                    } else {
                        lines.append(prefix + (chance(4) ? " # after" : ""))
                        if !isSequence && chance(3) {
                            block(indentation, depth + 1, indentless: true)
                        } else {
                            block(indentation + [1, 2, 2, 4].randomElement(using: &generator)!, depth + 1)
                        }
                    }
                } else if chance(4) {
                    lines.append(prefix + " " + pick(["|", "|-", "|+", ">", ">-", ">+", "| # c"]))
                    let inner = pad + String(repeating: " ", count: Int.random(in: 1...3, using: &generator))
                    for _ in 0..<Int.random(in: 0...4, using: &generator) { lines.append(inner + pick(blockLines)) }
                } else {
                    lines.append(prefix + (isSequence ? "" : " ") + pick(values))
                }
            }
        }
        block(chance(6) ? 2 : 0, 0)
        return lines.joined(separator: "\n") + pick(["\n", "", "\n\n", "  \n"])
    }
}
