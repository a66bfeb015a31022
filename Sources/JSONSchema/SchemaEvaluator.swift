import JSONSupport
import TextSupport

/// One validation: walks the schema and the instance together, keeping where it is in each so
/// that a violation names both exactly.
struct SchemaEvaluator {
    let document: JSONValue
    let dialect: SchemaDialect
    let limits: ValidationLimits
    private(set) var violations: [SchemaViolation] = []
    /// Whether failures are kept: inside `anyOf`, `oneOf`, `not` and `if` only passing matters.
    private var recording = true
    private var instancePath: [String] = []
    private var schemaPath: [String]
    private var depth = 0
    private var referenceChain = 0
    private var steps = 0
    /// Why the validation gave up, and where.
    private var stopped: SchemaViolation?
    private var references: [String: (tokens: [String], schema: JSONValue)?] = [:]
    private var patterns: [String: Result<BoundedRegex, BoundedRegex.Refusal>] = [:]
    /// The keywords of each schema object met, by the address of its members (the document is
    /// held, so it stays put): most keywords are absent, and looking each up scans the members.
    private var keywordSets: [UnsafeRawPointer: Keywords] = [:]

    init(document: JSONValue, dialect: SchemaDialect, limits: ValidationLimits, schemaPath: [String]) {
        self.document = document
        self.dialect = dialect
        self.limits = limits
        self.schemaPath = schemaPath
    }

    /// The violations found, the reason for giving up (when it did) last.
    func finish() -> [SchemaViolation] {
        stopped.map { violations + [$0] } ?? violations
    }

    private var canContinue: Bool { recording && stopped == nil && violations.count < limits.violations }

    /// Records that `keyword` failed; whether evaluating goes on (to find more violations).
    private mutating func fail(_ keyword: String, _ message: @autoclosure () -> String) -> Bool {
        guard recording, stopped == nil, violations.count < limits.violations else { return false }
        violations.append(
            SchemaViolation(
                instancePointer: JSONPointer.text(instancePath), schemaLocation: "#" + JSONPointer.text(keyword.isEmpty ? schemaPath : schemaPath + [keyword]),
                message: message()))
        return canContinue
    }

    /// Gives up the whole validation (a limit was reached); always false.
    private mutating func stop(_ message: String) -> Bool {
        if stopped == nil {
            stopped = SchemaViolation(instancePointer: JSONPointer.text(instancePath), schemaLocation: "#" + JSONPointer.text(schemaPath), message: message)
        }
        return false
    }

    // MARK: Schemas

    mutating func evaluate(_ schema: JSONValue, _ instance: JSONValue) -> Bool {
        guard stopped == nil else { return false }
        steps += 1
        guard steps <= limits.steps else { return stop("validation gave up after \(limits.steps) schema evaluations (a schema this costly is not checked)") }
        switch schema {
        case .bool(true): return true
        case .bool(false): return fail("", "no value is allowed here (the schema is false)")
        case .object(let object):
            depth += 1
            defer { depth -= 1 }
            guard depth <= limits.depth else { return stop("validation gave up: schemas nest deeper than \(limits.depth)") }
            return evaluate(object: object, instance)
        default:
            return true
        }
    }

    private mutating func keywords(of schema: JSONObject) -> Keywords {
        guard let address = schema.members.withUnsafeBufferPointer({ $0.baseAddress.map(UnsafeRawPointer.init) }) else { return [] }
        if let known = keywordSets[address] { return known }
        var found: Keywords = []
        for member in schema { found.formUnion(Keywords.named[member.key] ?? []) }
        keywordSets[address] = found
        return found
    }

    private mutating func evaluate(object schema: JSONObject, _ instance: JSONValue) -> Bool {
        let keywords = keywords(of: schema)
        // OpenAPI 3.0: `nullable: true` lets null through (also beside a `$ref` or `allOf`, as it is commonly written).
        if dialect == .openAPI30, instance == .null, keywords.contains(.nullable), schema["nullable"] == .bool(true) { return true }
        var valid = true
        if keywords.contains(.reference), let reference = schema["$ref"]?.stringValue {
            let followed = follow(reference, instance)
            if dialect == .openAPI30 { return followed }  // draft 4: `$ref` replaces its siblings
            if !followed {
                valid = false
                guard canContinue else { return false }
            }
        }
        if keywords.contains(.type), let type = schema["type"], !matches(type: type, instance) {
            valid = false
            guard fail("type", "expected \(Self.typeText(type)), found \(Self.typeName(instance))") else { return false }
        }
        if keywords.contains(.enumeration), case .array(let options)? = schema["enum"], !options.contains(where: { $0.isSameValue(as: instance) }) {
            valid = false
            guard fail("enum", "\(Self.short(instance)) is not one of \(Self.short(.array(options)))") else { return false }
        }
        if keywords.contains(.constant), let constant = schema["const"], !constant.isSameValue(as: instance) {
            valid = false
            guard fail("const", "expected \(Self.short(constant)), found \(Self.short(instance))") else { return false }
        }
        switch instance {
        case .number(let literal) where keywords.contains(.number): valid = evaluate(number: literal, schema) && valid
        case .string(let string) where keywords.contains(.string): valid = evaluate(string: string, schema) && valid
        case .array(let elements) where keywords.contains(.array): valid = evaluate(array: elements, schema) && valid
        case .object(let object) where keywords.contains(.object): valid = evaluate(object: object, schema) && valid
        default: break
        }
        guard keywords.contains(.combinator) else { return valid }
        guard valid || canContinue else { return false }
        return evaluate(combinators: schema, instance) && valid
    }

    private mutating func follow(_ reference: String, _ instance: JSONValue) -> Bool {
        guard let (tokens, target) = resolve(reference) else {
            return fail("$ref", "the $ref \(Self.short(.string(reference))) cannot be followed (only pointers into the same document, #/…, are)")
        }
        referenceChain += 1
        defer { referenceChain -= 1 }
        guard referenceChain <= limits.referenceChain else {
            return stop("validation gave up: $refs lead to $refs \(limits.referenceChain) times without reaching a value (a cycle)")
        }
        let saved = schemaPath
        schemaPath = tokens
        defer { schemaPath = saved }
        return evaluate(target, instance)
    }

    private mutating func resolve(_ reference: String) -> (tokens: [String], schema: JSONValue)? {
        if let known = references[reference] { return known }
        var found: (tokens: [String], schema: JSONValue)?
        if let tokens = JSONPointer.tokens(reference: reference), let value = JSONPointer.value(at: tokens, in: document) { found = (tokens, value) }
        references[reference] = found
        return found
    }

    /// `schema` evaluated where `tokens` (one or two) lead within the current schema.
    private mutating func subschema(_ schema: JSONValue, _ instance: JSONValue, _ first: String, _ second: String? = nil) -> Bool {
        schemaPath.append(first)
        if let second { schemaPath.append(second) }
        defer {
            schemaPath.removeLast()
            if second != nil { schemaPath.removeLast() }
        }
        return evaluate(schema, instance)
    }

    /// `schema` evaluated on the instance's member or element `key`.
    private mutating func child(_ key: String, _ value: JSONValue, _ schema: JSONValue, _ first: String, _ second: String? = nil) -> Bool {
        instancePath.append(key)
        let chain = referenceChain
        referenceChain = 0
        defer {
            instancePath.removeLast()
            referenceChain = chain
        }
        return subschema(schema, value, first, second)
    }

    /// Whether `schema` passes, keeping no violations.
    private mutating func passes(_ schema: JSONValue, _ instance: JSONValue, _ first: String, _ second: String? = nil) -> Bool {
        let saved = recording
        recording = false
        defer { recording = saved }
        return subschema(schema, instance, first, second)
    }

    private mutating func evaluate(combinators schema: JSONObject, _ instance: JSONValue) -> Bool {
        var valid = true
        if case .array(let parts)? = schema["allOf"] {
            for (index, part) in parts.enumerated() where !subschema(part, instance, "allOf", String(index)) {
                valid = false
                guard canContinue else { return false }
            }
        }
        if case .array(let options)? = schema["anyOf"], !options.indices.contains(where: { passes(options[$0], instance, "anyOf", String($0)) }) {
            valid = false
            guard fail("anyOf", "matches none of the \(options.count) schemas of anyOf") else { return false }
        }
        if case .array(let options)? = schema["oneOf"] {
            var matched: [Int] = []
            for index in options.indices where passes(options[index], instance, "oneOf", String(index)) {
                matched.append(index)
                if matched.count == 2 { break }
            }
            if matched.count != 1 {
                valid = false
                let message =
                    matched.isEmpty
                    ? "matches none of the \(options.count) schemas of oneOf"
                    : "matches more than one schema of oneOf (\(matched.map(String.init).joined(separator: " and "))); it must match exactly one"
                guard fail("oneOf", message) else { return false }
            }
        }
        if let excluded = schema["not"], passes(excluded, instance, "not") {
            valid = false
            guard fail("not", "matches the schema under not, which it must not") else { return false }
        }
        if let condition = schema["if"], dialect == .draft2020_12 {
            if passes(condition, instance, "if") {
                if let then = schema["then"], !subschema(then, instance, "then") { valid = false }
            } else if let otherwise = schema["else"], !subschema(otherwise, instance, "else") {
                valid = false
            }
        }
        return valid
    }

    // MARK: Values

    private mutating func evaluate(number literal: String, _ schema: JSONObject) -> Bool {
        var valid = true
        if case .number(let bound)? = schema["minimum"] {
            let exclusive = schema["exclusiveMinimum"] == .bool(true)
            let order = JSONNumber.compare(literal, bound)
            if order < 0 || (exclusive && order == 0) {
                valid = false
                guard fail(exclusive ? "exclusiveMinimum" : "minimum", "\(literal) is less than \(exclusive ? "or equal to " : "")the minimum \(bound)") else { return false }
            }
        }
        if case .number(let bound)? = schema["maximum"] {
            let exclusive = schema["exclusiveMaximum"] == .bool(true)
            let order = JSONNumber.compare(literal, bound)
            if order > 0 || (exclusive && order == 0) {
                valid = false
                guard fail(exclusive ? "exclusiveMaximum" : "maximum", "\(literal) is greater than \(exclusive ? "or equal to " : "")the maximum \(bound)") else { return false }
            }
        }
        if case .number(let bound)? = schema["exclusiveMinimum"], JSONNumber.compare(literal, bound) <= 0 {
            valid = false
            guard fail("exclusiveMinimum", "\(literal) is not greater than \(bound)") else { return false }
        }
        if case .number(let bound)? = schema["exclusiveMaximum"], JSONNumber.compare(literal, bound) >= 0 {
            valid = false
            guard fail("exclusiveMaximum", "\(literal) is not less than \(bound)") else { return false }
        }
        if case .number(let divisor)? = schema["multipleOf"], !JSONNumber.isMultiple(literal, of: divisor) {
            valid = false
            guard fail("multipleOf", "\(literal) is not a multiple of \(divisor)") else { return false }
        }
        return valid
    }

    private mutating func evaluate(string: String, _ schema: JSONObject) -> Bool {
        var valid = true
        let minimum = schema["minLength"]?.intValue, maximum = schema["maxLength"]?.intValue
        if minimum != nil || maximum != nil {
            // Lengths count code points, as JSON Schema does (not UTF-16 units or grapheme clusters).
            let length = string.unicodeScalars.count
            if let minimum, length < minimum {
                valid = false
                guard fail("minLength", "the string is \(length) characters long, shorter than minLength \(minimum)") else { return false }
            }
            if let maximum, length > maximum {
                valid = false
                guard fail("maxLength", "the string is \(length) characters long, longer than maxLength \(maximum)") else { return false }
            }
        }
        if let pattern = schema["pattern"]?.stringValue {
            switch regex(pattern).map({ $0.search(string) }) {
            case .success(.found): break
            case .success(.notFound):
                valid = false
                guard fail("pattern", "\(Self.short(.string(string))) does not match the pattern \(Self.short(.string(pattern)))") else { return false }
            case .success(.tooCostly):
                valid = false
                guard fail("pattern", "the pattern \(Self.short(.string(pattern))) is too costly on \(Self.short(.string(string))): the search stopped at its budget") else { return false }
            case .failure(let refusal):
                valid = false
                guard fail("pattern", "the pattern \(Self.short(.string(pattern))) is not a regular expression this validator reads (\(refusal))") else { return false }
            }
        }
        return valid
    }

    private mutating func evaluate(array elements: [JSONValue], _ schema: JSONObject) -> Bool {
        var valid = true
        var checked = 0
        if dialect == .draft2020_12, case .array(let prefix)? = schema["prefixItems"] {
            for index in prefix.indices where index < elements.count {
                if !child(String(index), elements[index], prefix[index], "prefixItems", String(index)) {
                    valid = false
                    guard canContinue else { return false }
                }
            }
            checked = prefix.count
        }
        switch schema["items"] {
        case .array(let tuple)? where dialect == .openAPI30:
            for index in tuple.indices where index < elements.count {
                if !child(String(index), elements[index], tuple[index], "items", String(index)) {
                    valid = false
                    guard canContinue else { return false }
                }
            }
            if let additional = schema["additionalItems"], tuple.count < elements.count {
                for index in tuple.count..<elements.count where !child(String(index), elements[index], additional, "additionalItems") {
                    valid = false
                    guard canContinue else { return false }
                }
            }
        case let items? where items.isSchema:
            for index in checked..<max(checked, elements.count) where !child(String(index), elements[index], items, "items") {
                valid = false
                guard canContinue else { return false }
            }
        default:
            break
        }
        if dialect == .draft2020_12, let contains = schema["contains"] {
            var count = 0
            for index in elements.indices where passes(contains, elements[index], "contains") { count += 1 }
            let minimum = schema["minContains"]?.intValue ?? 1
            if count < minimum {
                valid = false
                guard fail(schema["minContains"] == nil ? "contains" : "minContains", "\(count) element\(count == 1 ? "" : "s") match contains; at least \(minimum) must") else { return false }
            }
            if let maximum = schema["maxContains"]?.intValue, count > maximum {
                valid = false
                guard fail("maxContains", "\(count) elements match contains; at most \(maximum) may") else { return false }
            }
        }
        if let minimum = schema["minItems"]?.intValue, elements.count < minimum {
            valid = false
            guard fail("minItems", "the array has \(elements.count) element\(elements.count == 1 ? "" : "s"), fewer than minItems \(minimum)") else { return false }
        }
        if let maximum = schema["maxItems"]?.intValue, elements.count > maximum {
            valid = false
            guard fail("maxItems", "the array has \(elements.count) elements, more than maxItems \(maximum)") else { return false }
        }
        if schema["uniqueItems"] == .bool(true), elements.count > 1, let duplicate = Self.firstDuplicate(elements) {
            valid = false
            guard fail("uniqueItems", "elements \(duplicate.0) and \(duplicate.1) are equal; uniqueItems requires every element to differ") else { return false }
        }
        return valid
    }

    private mutating func evaluate(object: JSONObject, _ schema: JSONObject) -> Bool {
        var valid = true
        let properties = schema["properties"].flatMap { if case .object(let properties) = $0 { properties } else { nil } }
        let patternProperties = schema["patternProperties"].flatMap { if case .object(let patterns) = $0 { patterns } else { nil } }
        let additional = schema["additionalProperties"].flatMap { $0.isSchema ? $0 : nil }
        if properties != nil || patternProperties != nil || additional != nil {
            for member in object {
                var matched = false
                if let property = properties?[member.key] {
                    matched = true
                    if !child(member.key, member.value, property, "properties", member.key) {
                        valid = false
                        guard canContinue else { return false }
                    }
                }
                for (pattern, property) in patternProperties ?? [:] {
                    let outcome: BoundedRegex.Outcome
                    switch regex(pattern) {
                    case .success(let regex): outcome = regex.search(member.key)
                    case .failure(let refusal):
                        valid = false
                        guard fail("patternProperties", "the pattern \(Self.short(.string(pattern))) is not a regular expression this validator reads (\(refusal))") else { return false }
                        continue
                    }
                    if outcome == .tooCostly {
                        valid = false
                        guard fail("patternProperties", "the pattern \(Self.short(.string(pattern))) is too costly on \(Self.short(.string(member.key))): the search stopped at its budget") else { return false }
                        continue
                    }
                    guard outcome == .found else { continue }
                    matched = true
                    if !child(member.key, member.value, property, "patternProperties", pattern) {
                        valid = false
                        guard canContinue else { return false }
                    }
                }
                if !matched, let additional {
                    if additional == .bool(false) {
                        valid = false
                        instancePath.append(member.key)
                        let goOn = fail("additionalProperties", "the member \(Self.short(.string(member.key))) is not allowed (additionalProperties is false)")
                        instancePath.removeLast()
                        guard goOn else { return false }
                    } else if !child(member.key, member.value, additional, "additionalProperties") {
                        valid = false
                        guard canContinue else { return false }
                    }
                }
            }
        }
        if case .array(let required)? = schema["required"] {
            for case .string(let name) in required where object[name] == nil {
                valid = false
                guard fail("required", "the member \(Self.short(.string(name))) is required but missing") else { return false }
            }
        }
        if let minimum = schema["minProperties"]?.intValue, object.count < minimum {
            valid = false
            guard fail("minProperties", "the object has \(object.count) member\(object.count == 1 ? "" : "s"), fewer than minProperties \(minimum)") else { return false }
        }
        if let maximum = schema["maxProperties"]?.intValue, object.count > maximum {
            valid = false
            guard fail("maxProperties", "the object has \(object.count) members, more than maxProperties \(maximum)") else { return false }
        }
        if dialect == .draft2020_12, let names = schema["propertyNames"] {
            for member in object where !passes(names, .string(member.key), "propertyNames") {
                valid = false
                guard fail("propertyNames", "the member name \(Self.short(.string(member.key))) does not match propertyNames") else { return false }
            }
        }
        if dialect == .draft2020_12, case .object(let dependencies)? = schema["dependentRequired"] {
            for dependency in dependencies where object[dependency.key] != nil {
                for case .string(let name) in dependency.value.elements where object[name] == nil {
                    valid = false
                    guard fail("dependentRequired", "the member \(Self.short(.string(name))) is required when \(Self.short(.string(dependency.key))) is present") else { return false }
                }
            }
        }
        return valid
    }

    // MARK: Helpers

    /// The pattern, searched with bounded work (a schema's author may be hostile); why it is refused.
    private mutating func regex(_ pattern: String) -> Result<BoundedRegex, BoundedRegex.Refusal> {
        if let known = patterns[pattern] { return known }
        // ECMAScript's classes: \d and \w are ASCII; `.` and lengths work on code points.
        let compiled = Result { () throws(BoundedRegex.Refusal) in
            try BoundedRegex(pattern) { $0.matchingSemantics(.unicodeScalar).asciiOnlyDigits().asciiOnlyWordCharacters() }
        }
        patterns[pattern] = compiled
        return compiled
    }

    private func matches(type: JSONValue, _ instance: JSONValue) -> Bool {
        switch type {
        case .string(let name): Self.has(type: name, instance)
        case .array(let names): names.contains { $0.stringValue.map { Self.has(type: $0, instance) } ?? false }
        default: true
        }
    }

    private static func has(type name: String, _ instance: JSONValue) -> Bool {
        switch (name, instance) {
        case ("integer", .number(let literal)): JSONNumber.isInteger(literal)
        default: instance.typeName == name
        }
    }

    private static func typeName(_ instance: JSONValue) -> String {
        if case .number(let literal) = instance { return JSONNumber.isInteger(literal) ? "integer" : "number" }
        return instance.typeName
    }

    private static func typeText(_ type: JSONValue) -> String {
        switch type {
        case .string(let name): name
        case .array(let names): names.map(\.displayText).joined(separator: " or ")
        default: type.compactText
        }
    }

    /// A value for a message, cut short.
    static func short(_ value: JSONValue) -> String {
        let text = value.compactText
        return text.count <= 60 ? text : String(text.prefix(57)) + "…"
    }

    /// The positions of the first two equal elements.
    private static func firstDuplicate(_ elements: [JSONValue]) -> (Int, Int)? {
        // Keyed by bytes: String keys would take canonically equivalent texts for one.
        var seen: [[UInt8]: Int] = [:]
        for (index, element) in elements.enumerated() {
            let key = Array(element.canonicalText().utf8)
            if let earlier = seen[key] { return (earlier, index) }
            seen[key] = index
        }
        return nil
    }
}

/// Which kinds of keyword a schema object has.
struct Keywords: OptionSet {
    let rawValue: UInt16

    static let reference = Keywords(rawValue: 1 << 0)
    static let nullable = Keywords(rawValue: 1 << 1)
    static let type = Keywords(rawValue: 1 << 2)
    static let enumeration = Keywords(rawValue: 1 << 3)
    static let constant = Keywords(rawValue: 1 << 4)
    /// Keywords about numbers, strings, arrays, objects; `allOf` and the other applicators.
    static let number = Keywords(rawValue: 1 << 5)
    static let string = Keywords(rawValue: 1 << 6)
    static let array = Keywords(rawValue: 1 << 7)
    static let object = Keywords(rawValue: 1 << 8)
    static let combinator = Keywords(rawValue: 1 << 9)

    static let named: [String: Keywords] = {
        var named: [String: Keywords] = ["$ref": .reference, "nullable": .nullable, "type": .type, "enum": .enumeration, "const": .constant]
        for name in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] { named[name] = .number }
        for name in ["minLength", "maxLength", "pattern"] { named[name] = .string }
        for name in ["prefixItems", "items", "additionalItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems"] {
            named[name] = .array
        }
        for name in ["properties", "patternProperties", "additionalProperties", "required", "minProperties", "maxProperties", "propertyNames", "dependentRequired"] {
            named[name] = .object
        }
        for name in ["allOf", "anyOf", "oneOf", "not", "if"] { named[name] = .combinator }
        return named
    }()
}

extension JSONValue {
    /// Whether this can be a schema (an object or a Boolean).
    fileprivate var isSchema: Bool {
        switch self {
        case .object, .bool: true
        default: false
        }
    }

    /// The elements when this is an array, else none.
    fileprivate var elements: [JSONValue] {
        if case .array(let elements) = self { return elements }
        return []
    }
}
