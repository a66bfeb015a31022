/// The plainest command lines of one command read from a table, without argument-parser's
/// reflection: building its argument sets from a command's property wrappers looks up a
/// conformance of every wrapper type, each lookup scanning all the binary's conformance records
/// (docs/performance.md, Start-up). A command line the table does not read (an unknown name, `-h`, `--`,
/// short flags run together, a repeated single option, a value that looks like an option or does
/// not convert) is nil: the argument parser then parses it, as it always did, and gives its errors,
/// help and completions. A command with a quick parse has a test comparing both parses.
struct QuickParse<Command>: Sendable {
    /// What a name reads.
    enum Reader: Sendable {
        /// A flag: sets a property.
        case flag(@Sendable (inout Command) -> Void)
        /// An option with one value, given at most once; false when the value does not convert.
        case value(@Sendable (inout Command, String) -> Bool)
        /// An option with one value, given any number of times.
        case repeated(@Sendable (inout Command, String) -> Void)
    }

    /// One property: its names (`-i`, `--include`) and how it is read.
    struct Option: Sendable {
        let names: [String]
        let reader: Reader
    }

    /// What the table reads.
    let options: [Option]
    /// Sets the one positional argument, which must be given.
    let positional: @Sendable (inout Command, String) -> Void

    init(_ options: [Option], positional: @escaping @Sendable (inout Command, String) -> Void) {
        self.options = options
        self.positional = positional
    }

    /// `command` (holding every default) with `arguments` read into it; nil when they need the parser.
    func parse(_ arguments: [String], into command: Command) -> Command? {
        var command = command
        var givenPositional = false
        // A list, not a Set or Dictionary: their first use looks up `Hashable` conformances, a
        // scan of the conformance records that costs more than reading the whole command line.
        var given = [Bool](repeating: false, count: options.count)
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("-") else {
                guard !givenPositional, !argument.isEmpty else { return nil }
                positional(&command, argument)
                givenPositional = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let index = options.firstIndex(where: { $0.names.contains(name) }) else { return nil }
            switch options[index].reader {
            case .flag(let set):
                guard inlineValue == nil, !given[index] else { return nil }
                given[index] = true
                set(&command)
            case .value(let set):
                guard !given[index], let value = inlineValue ?? Self.value(after: &remaining), !value.isEmpty,
                    set(&command, value)
                else { return nil }
                given[index] = true
            case .repeated(let add):
                guard let value = inlineValue ?? Self.value(after: &remaining), !value.isEmpty else { return nil }
                add(&command, value)
            }
        }
        return givenPositional ? command : nil
    }

    /// The next argument as an option's value, unless it is missing, empty or looks like an option.
    private static func value(after remaining: inout ArraySlice<String>) -> String? {
        guard let next = remaining.first, !next.isEmpty, !next.hasPrefix("-") else { return nil }
        remaining.removeFirst()
        return next
    }
}
