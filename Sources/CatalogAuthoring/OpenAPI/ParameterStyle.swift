import JSONSupport

/// How OpenAPI serializes a parameter's or form field's value by its `style` and `explode`
/// (OpenAPI 3.0.3 §4.7.12.4, "Style Values"): the name/value pairs a query string or a
/// url-encoded form carries, the text a path segment or header carries.
enum ParameterStyle {
    /// The default style of a place: `form` for query, cookie and form fields, `simple` for path and header.
    static func defaultStyle(in location: String) -> String {
        location == "path" || location == "header" ? "simple" : "form"
    }

    /// `explode` as given, else true for `form` (the specification's default), false otherwise.
    static func explode(_ value: JSONValue?, style: String) -> Bool {
        if case .bool(let flag)? = value { return flag }
        return style == "form"
    }

    /// The pairs of a query parameter or form field: `form` (`a=1&a=2`, exploded objects as their
    /// own members, else `a=1,2` / `a=k,v`), `spaceDelimited` and `pipeDelimited` (`a=1 2`, `a=1|2`),
    /// `deepObject` (`a[k]=v`, nested `a[k][j]=v`).
    static func pairs(name: String, value: JSONValue, style: String, explode: Bool) -> [(String, String)] {
        switch value {
        case .array(let elements):
            let texts = elements.map(scalarText)
            switch style {
            case "spaceDelimited" where !explode: return [(name, texts.joined(separator: " "))]
            case "pipeDelimited" where !explode: return [(name, texts.joined(separator: "|"))]
            case "deepObject":
                return elements.enumerated().flatMap { pairs(name: "\(name)[\($0.offset)]", value: $0.element, style: style, explode: true) }
            default:
                return explode ? texts.map { (name, $0) } : [(name, texts.joined(separator: ","))]
            }
        case .object(let object):
            switch style {
            case "deepObject":
                return object.flatMap { member in
                    if case .object = member.value { return pairs(name: "\(name)[\(member.key)]", value: member.value, style: style, explode: true) }
                    return [("\(name)[\(member.key)]", scalarText(member.value))]
                }
            case "spaceDelimited" where !explode: return [(name, object.flatMap { [$0.key, scalarText($0.value)] }.joined(separator: " "))]
            case "pipeDelimited" where !explode: return [(name, object.flatMap { [$0.key, scalarText($0.value)] }.joined(separator: "|"))]
            default:
                return explode ? object.map { ($0.key, scalarText($0.value)) } : [(name, object.flatMap { [$0.key, scalarText($0.value)] }.joined(separator: ","))]
            }
        default:
            return [(name, scalarText(value))]
        }
    }

    /// A path segment's or header's text: `simple` (`1,2`, objects `k,v` or exploded `k=v`),
    /// `label` (`.1.2`) and `matrix` (`;id=1,2`, exploded `;id=1;id=2`).
    static func text(name: String, value: JSONValue, style: String, explode: Bool) -> String {
        let parts: [String]
        var separator = ","
        switch value {
        case .array(let elements): parts = elements.map(scalarText)
        case .object(let object):
            parts = explode ? object.map { "\($0.key)=\(scalarText($0.value))" } : object.flatMap { [$0.key, scalarText($0.value)] }
        default: parts = [scalarText(value)]
        }
        switch style {
        case "label":
            if explode { separator = "." }
            return "." + parts.joined(separator: separator)
        case "matrix":
            if explode, case .array = value { return parts.map { ";\(name)=\($0)" }.joined() }
            if explode, case .object = value { return parts.map { ";\($0)" }.joined() }
            return ";\(name)=" + parts.joined(separator: ",")
        default:
            return parts.joined(separator: separator)
        }
    }

    /// A value as the text it is sent as: strings as they are, numbers as written, objects as compact JSON.
    static func scalarText(_ value: JSONValue) -> String {
        PostmanVariable.text(value)
    }
}
