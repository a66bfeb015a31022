/// A regular expression from a document someone else wrote (a catalog's `matches`, a schema's
/// `pattern`), searched with a bounded amount of work. Swift's `Regex` backtracks: `^(a+)+$` on
/// forty `a`s and a `b` runs for hours and cannot be cancelled. The common syntax (literals,
/// escapes, classes, `.`, anchors, groups, alternation, greedy and lazy quantifiers) is compiled
/// here to an automaton searched one text position at a time (every state at once, so nothing is
/// tried twice), and the search stops after `budget` steps. A pattern using anything else
/// (lookaround, back-references, flags, Unicode properties) goes to Swift's `Regex`, but only when
/// no quantified part holds a quantifier of its own (the shape of catastrophic backtracking).
package struct BoundedRegex: Sendable {
    /// What a search found.
    package enum Outcome: Sendable, Hashable {
        case found, notFound
        /// The search stopped at its budget: the pattern costs too much on this text.
        case tooCostly
    }

    /// Why a pattern is refused.
    package enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// Not a regular expression.
        case invalid(String)
        /// Readable, but its shape could take exponential time, or it is too large.
        case tooCostly(String)

        package var description: String {
            switch self {
            case .invalid(let reason): reason
            case .tooCostly(let reason): "pattern too costly: \(reason)"
            }
        }
    }

    /// Steps a search may take by default (a step: one automaton state at one text position).
    package static let defaultBudget = 20_000_000
    /// Most instructions a pattern compiles to (`a{1000}{1000}` would be a million).
    static let maximumProgram = 20_000

    private enum Engine: @unchecked Sendable {
        case automaton([Instruction])
        // Swift's Regex is not Sendable; it is only read.
        case swift(Regex<AnyRegexOutput>)
    }

    private let engine: Engine
    /// The steps a search may take.
    package var budget: Int

    /// Compiles `pattern`; `configure` adjusts the Swift `Regex` a pattern outside the common syntax gets.
    package init(
        _ pattern: String, budget: Int = defaultBudget, configure: (Regex<AnyRegexOutput>) -> Regex<AnyRegexOutput> = { $0 }
    ) throws(Refusal) {
        self.budget = budget
        var parser = Parser(Array(pattern.unicodeScalars))
        do throws(Parser.Failure) {
            let node = try parser.parse()
            var program: [Instruction] = []
            try Compiler.emit(node, into: &program)
            program.append(.match)
            engine = .automaton(program)
        } catch {
            switch error {
            case .tooLarge: throw .tooCostly("it compiles to more than \(Self.maximumProgram) steps")
            case .invalid(let reason): throw .invalid(reason)
            case .unsupported:
                let regex: Regex<AnyRegexOutput>
                do {
                    regex = try Regex(pattern)
                } catch {
                    throw .invalid("\(error)")
                }
                guard !Self.nestsQuantifiers(Array(pattern.unicodeScalars)) else {
                    throw .tooCostly("a repeated group holds a repetition of its own, and it uses syntax only a backtracking engine reads")
                }
                engine = .swift(configure(regex))
            }
        }
    }

    /// Whether `text` holds a match anywhere.
    package func search(_ text: some StringProtocol) -> Outcome {
        switch engine {
        case .swift(let regex): return String(text).contains(regex) ? .found : .notFound
        case .automaton(let program): return Self.run(program, Array(text.unicodeScalars), budget: budget)
        }
    }

    // MARK: The automaton

    enum Instruction: Sendable {
        case scalar(ScalarSet)
        case split(Int, Int)
        case jump(Int)
        case assert(Anchor)
        case match
    }

    enum Anchor: Sendable { case start, end, wordBoundary, notWordBoundary }

    /// Every thread advanced together over the text (Pike's VM without captures).
    static func run(_ program: [Instruction], _ text: [Unicode.Scalar], budget: Int) -> Outcome {
        var steps = 0
        var current: [Int] = []
        var next: [Int] = []
        var mark = [Int](repeating: -1, count: program.count)
        var stack: [Int] = []
        func isWord(_ index: Int) -> Bool {
            guard index >= 0, index < text.count else { return false }
            return ScalarSet.word.contains(text[index])
        }
        // Adds `pc` and what it reaches without reading, at text position `position`; true at a match.
        func add(_ pc: Int, at position: Int, to list: inout [Int]) -> Bool {
            stack.append(pc)
            while let pc = stack.popLast() {
                guard mark[pc] != position else { continue }
                mark[pc] = position
                steps += 1
                switch program[pc] {
                case .match:
                    stack.removeAll()
                    return true
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .assert(let anchor):
                    let holds = switch anchor {
                    case .start: position == 0
                    case .end: position == text.count
                    case .wordBoundary: isWord(position - 1) != isWord(position)
                    case .notWordBoundary: isWord(position - 1) == isWord(position)
                    }
                    if holds { stack.append(pc + 1) }
                case .scalar: list.append(pc)
                }
            }
            return false
        }
        for position in 0...text.count {
            // A match may start at every position.
            if add(0, at: position, to: &current) { return .found }
            guard position < text.count else { break }
            next.removeAll(keepingCapacity: true)
            for pc in current {
                steps += 1
                if case .scalar(let set) = program[pc], set.contains(text[position]) {
                    if add(pc + 1, at: position + 1, to: &next) { return .found }
                }
            }
            if steps > budget { return .tooCostly }
            swap(&current, &next)
        }
        return .notFound
    }

    /// Whether a quantified group holds a quantifier: `(a+)+`, `(a|b*)*`, `(x{2,})+`.
    static func nestsQuantifiers(_ scalars: [Unicode.Scalar]) -> Bool {
        var groups: [Bool] = []  // per open group: whether a quantifier is inside it
        var index = 0
        var inClass = false
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\" {
                index += 2
                continue
            }
            if inClass {
                if scalar == "]" { inClass = false }
            } else if scalar == "[" {
                inClass = true
            } else if scalar == "(" {
                groups.append(false)
            } else if scalar == ")" {
                let inner = groups.popLast() ?? false
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                // `?` repeats nothing: only `*`, `+` and `{n,m}` make a repeated group.
                let repeated = next == "*" || next == "+" || next == "{"
                if inner && repeated { return true }
                if inner || repeated, !groups.isEmpty { groups[groups.count - 1] = true }
            } else if scalar == "*" || scalar == "+" || scalar == "{" {
                if !groups.isEmpty { groups[groups.count - 1] = true }
            }
            index += 1
        }
        return false
    }
}

/// A set of scalars as ranges, possibly negated.
struct ScalarSet: Sendable {
    var ranges: [ClosedRange<UInt32>]
    var negated = false

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return ranges.contains { $0.contains(value) } != negated
    }

    static let digit = ScalarSet(ranges: [0x30...0x39])
    static let word = ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    static let space = ScalarSet(ranges: [
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F,
        0x3000...0x3000, 0xFEFF...0xFEFF,
    ])
    /// `.`: anything but a line end.
    static let notLineEnd = ScalarSet(ranges: [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029], negated: true)

    /// The ranges of the complement (for `\D` inside a class).
    var complementRanges: [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var start: UInt32 = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if range.lowerBound > start { result.append(start...(range.lowerBound - 1)) }
            start = max(start, range.upperBound + 1)
        }
        if start <= 0x10FFFF { result.append(start...0x10FFFF) }
        return result
    }
}

/// The pattern as a tree.
indirect enum RegexNode {
    case empty
    case set(ScalarSet)
    case anchor(BoundedRegex.Anchor)
    case sequence([RegexNode])
    case choice([RegexNode])
    case repeated(RegexNode, minimum: Int, maximum: Int?)
}

/// Reads the common syntax; anything else is `.unsupported`.
struct Parser {
    enum Failure: Error { case invalid(String), unsupported, tooLarge }

    let scalars: [Unicode.Scalar]
    var index = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    mutating func parse() throws(Failure) -> RegexNode {
        let node = try choice()
        guard index == scalars.count else { throw .invalid("unbalanced ')' at \(index + 1)") }
        return node
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func choice() throws(Failure) -> RegexNode {
        var options = [try sequence()]
        while peek == "|" {
            index += 1
            options.append(try sequence())
        }
        return options.count == 1 ? options[0] : .choice(options)
    }

    private mutating func sequence() throws(Failure) -> RegexNode {
        var items: [RegexNode] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            var atom = try self.atom()
            while let (minimum, maximum) = try quantifier() {
                if case .anchor = atom { throw .invalid("nothing to repeat at \(index)") }
                atom = .repeated(atom, minimum: minimum, maximum: maximum)
            }
            items.append(atom)
        }
        return items.count == 1 ? items[0] : items.isEmpty ? .empty : .sequence(items)
    }

    private mutating func quantifier() throws(Failure) -> (Int, Int?)? {
        guard let scalar = peek else { return nil }
        var bounds: (Int, Int?)
        switch scalar {
        case "*": bounds = (0, nil); index += 1
        case "+": bounds = (1, nil); index += 1
        case "?": bounds = (0, 1); index += 1
        case "{":
            guard let counted = counted() else { return nil }  // a `{` that is no count is a literal
            bounds = counted
        default: return nil
        }
        if peek == "?" { index += 1 }  // lazy: the same set of matches
        if peek == "+" { throw .unsupported }  // possessive
        if let maximum = bounds.1, maximum < bounds.0 { throw .invalid("{\(bounds.0),\(maximum)}: the maximum is below the minimum") }
        if bounds.0 > 1000 || (bounds.1 ?? 0) > 1000 { throw .tooLarge }
        return bounds
    }

    /// `{n}`, `{n,}`, `{n,m}`; nil (nothing read) when the text is not one.
    private mutating func counted() -> (Int, Int?)? {
        var cursor = index + 1
        func number() -> Int? {
            var value: Int?
            while cursor < scalars.count, let digit = Int(String(scalars[cursor])), scalars[cursor].isASCII {
                value = min((value ?? 0) * 10 + digit, 100_000)
                cursor += 1
            }
            return value
        }
        guard let minimum = number() else { return nil }
        var maximum: Int? = minimum
        if cursor < scalars.count, scalars[cursor] == "," {
            cursor += 1
            maximum = number()
        }
        guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
        index = cursor + 1
        return (minimum, maximum)
    }

    private mutating func atom() throws(Failure) -> RegexNode {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "(":
            if peek == "?" {
                guard index + 1 < scalars.count, scalars[index + 1] == ":" else { throw .unsupported }
                index += 2
            }
            let inner = try choice()
            guard peek == ")" else { throw .invalid("unclosed '('") }
            index += 1
            return inner
        case "[": return .set(try characterClass())
        case ".": return .set(.notLineEnd)
        case "^": return .anchor(.start)
        case "$": return .anchor(.end)
        case "\\": return try escape()
        case "*", "+", "?": throw .invalid("nothing to repeat at \(index)")
        default: return .set(ScalarSet(ranges: [scalar.value...scalar.value]))
        }
    }

    private mutating func escape() throws(Failure) -> RegexNode {
        guard let scalar = peek else { throw .invalid("a pattern cannot end with '\\'") }
        switch scalar {
        case "b": index += 1; return .anchor(.wordBoundary)
        case "B": index += 1; return .anchor(.notWordBoundary)
        default: return .set(try classEscape())
        }
    }

    /// An escape that stands for scalars (`\d`, `\n`, `\.`, `\x41`, `\u0041`).
    private mutating func classEscape() throws(Failure) -> ScalarSet {
        guard let scalar = peek else { throw .invalid("a pattern cannot end with '\\'") }
        index += 1
        func single(_ value: UInt32) -> ScalarSet { ScalarSet(ranges: [value...value]) }
        switch scalar {
        case "d": return .digit
        case "D": return ScalarSet(ranges: ScalarSet.digit.ranges, negated: true)
        case "w": return .word
        case "W": return ScalarSet(ranges: ScalarSet.word.ranges, negated: true)
        case "s": return .space
        case "S": return ScalarSet(ranges: ScalarSet.space.ranges, negated: true)
        case "n": return single(0x0A)
        case "r": return single(0x0D)
        case "t": return single(0x09)
        case "f": return single(0x0C)
        case "v": return single(0x0B)
        case "0": return single(0)
        case "x", "u":
            let length = scalar == "x" ? 2 : 4
            guard index + length <= scalars.count, let value = UInt32(String(String.UnicodeScalarView(scalars[index..<(index + length)])), radix: 16)
            else { throw .unsupported }
            index += length
            return single(value)
        default:
            // Escaped punctuation is itself; letters and digits name other things (\p, \k, \1 …).
            guard scalar.isASCII, !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) else { throw .unsupported }
            return single(scalar.value)
        }
    }

    private mutating func characterClass() throws(Failure) -> ScalarSet {
        var set = ScalarSet(ranges: [])
        if peek == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while let scalar = peek, scalar != "]" || first {
            first = false
            if scalar == "[" { throw .unsupported }  // nested classes, [:alpha:]
            let low: UInt32
            if scalar == "\\" {
                index += 1
                if peek == "b" {
                    index += 1
                    low = 0x08
                } else {
                    let escaped = try classEscape()
                    if escaped.ranges.count != 1 || escaped.negated || escaped.ranges[0].count != 1 {
                        set.ranges += escaped.negated ? escaped.complementRanges : escaped.ranges
                        continue
                    }
                    low = escaped.ranges[0].lowerBound
                }
            } else {
                index += 1
                low = scalar.value
            }
            if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                let upper: UInt32
                if peek == "\\" {
                    index += 1
                    let escaped = try classEscape()
                    guard escaped.ranges.count == 1, !escaped.negated, escaped.ranges[0].count == 1 else { throw .invalid("a class range ends with a class") }
                    upper = escaped.ranges[0].lowerBound
                } else {
                    upper = scalars[index].value
                    index += 1
                }
                guard low <= upper else { throw .invalid("a class range runs backwards") }
                set.ranges.append(low...upper)
            } else {
                set.ranges.append(low...low)
            }
        }
        guard peek == "]" else { throw .invalid("unclosed '['") }
        index += 1
        return set
    }
}

/// The tree as automaton instructions.
enum Compiler {
    static func emit(_ node: RegexNode, into program: inout [BoundedRegex.Instruction]) throws(Parser.Failure) {
        guard program.count < BoundedRegex.maximumProgram else { throw .tooLarge }
        switch node {
        case .empty: break
        case .set(let set): program.append(.scalar(set))
        case .anchor(let anchor): program.append(.assert(anchor))
        case .sequence(let items): for item in items { try emit(item, into: &program) }
        case .choice(let options):
            // split L1, next; L1: a; jump end; next: split L2, … ; last option plain.
            var jumps: [Int] = []
            for (offset, option) in options.enumerated() {
                if offset < options.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try emit(option, into: &program)
                    jumps.append(program.count)
                    program.append(.jump(0))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(option, into: &program)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let inner, let minimum, let maximum):
            for _ in 0..<minimum { try emit(inner, into: &program) }
            if let maximum {
                // Each optional copy: split in, out.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    program.append(.split(0, 0))
                    try emit(inner, into: &program)
                    guard program.count < BoundedRegex.maximumProgram else { throw .tooLarge }
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                program.append(.split(loop + 1, 0))
                try emit(inner, into: &program)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
        guard program.count <= BoundedRegex.maximumProgram else { throw .tooLarge }
    }
}
