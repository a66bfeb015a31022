@testable import apiexplorer
import JSONSupport
import Testing
import TestTraits

/// `call`'s quick parse (`CallArguments.quickParse`) must give exactly the arguments the argument
/// parser gives, know every name `call` declares, and leave everything else to the parser.
@Suite(.offPool) struct QuickParseTests {
    @Test func aPlainCallIsWhatTheParserParses() throws {
        let commandLines: [[String]] = [
            ["shop/list"],
            ["shop/list", "--live", "--catalog", "apis"],
            ["--live", "shop/list", "--env", "staging"],
            ["shop/list", "--stub", "--env", "staging", "--var", "id=7", "--var", "q=a b", "-i", "--json", "-o", "out.json",
             "--message", "hi", "--message", "@ping", "--listen", "2.5", "-b", "in.txt", "-c", "jar.txt", "--no-history", "--reveal",
             "--catalog", "apis", "--max-body-size", "2MiB", "--example", "notFound", "--no-safe", "--trust", "--force", "-w", "%{http_code}\\n"],
            ["shop/list", "--safe"],
            ["shop/list", "--env=staging", "--var=a=1", "--var", "b=2", "--output=o.bin", "--cookies=in.txt", "--cookie-jar=jar.txt",
             "--listen=0", "--max-body-size=512KB", "--catalog=dir with spaces", "--include", "--message=x", "--write-out=%{time_total}"],
            ["shop/list", "--listen", "1e1", "--max-body-size", "1048576"],
        ]
        for arguments in commandLines {
            let quick = try #require(CallArguments.quickParse(arguments), "\(arguments)")
            let parsed = try CallCommand.parse(arguments)
            #expect(quick == parsed.arguments, "\(arguments)")
            // The same through main's whole tree.
            let whole = try #require(try APIExplorerCommand.parseAsRoot(["call"] + arguments) as? CallCommand)
            #expect(quick == whole.arguments, "\(arguments)")
        }
        // The comparison sees the values parsed, not only that both parsed.
        let call = Self.dumped(try #require(CallArguments.quickParse(commandLines[3])))
        for value in ["staging", "q=a b", "jar.txt", "@ping", "notFound", "2.5", "2097152"] { #expect(call.contains(value), "\(value)") }
    }

    /// `arguments` carries every value the command holds: each property set away from its default
    /// shows in them (a property added to `call` and left out of `arguments` would be ignored).
    @Test func theArgumentsCarryEveryProperty() throws {
        let defaults = try CallCommand.parse(["shop/list"]).arguments
        let everything = try CallCommand.parse(
            ["shop/list", "--stub", "--env", "e", "--var", "a=1", "--example", "x", "-i", "--json", "-o", "o", "--message", "m", "--listen", "3",
             "-b", "b", "-c", "c", "--no-history", "--reveal", "--catalog", "d", "--max-body-size", "1KB", "--safe", "--trust", "--force",
             "--write-out", "%{json}"]
        ).arguments
        let values = Mirror(reflecting: everything).children
        // The endpoint is given in both, and --live excludes --stub; every other value differs from its default.
        let differing = zip(Mirror(reflecting: defaults).children, values).filter { "\($0.value)" != "\($1.value)" }.compactMap(\.1.label)
        #expect(Set(differing) == Set(values.compactMap(\.label)).subtracting(["endpoint", "live"]))
        #expect(try CallCommand.parse(["shop/list", "--live"]).arguments.live)
        // As many values as the command holds: a value per property, an option group counted by what it holds.
        let groupSizes = ["_request": 3, "_catalogOptions": 2, "_bodyLimit": 1]
        let commandValues = Mirror(reflecting: try CallCommand.parse(["shop/list"])).children.reduce(0) { $0 + (groupSizes[$1.label ?? ""] ?? 1) }
        #expect(values.count == commandValues)
        #expect(CallArguments.commandName == CallCommand._commandName)
    }

    @Test func everythingElseIsLeftToTheParser() {
        let commandLines: [[String]] = [
            [], ["--live"], ["shop/list", "shop/get"], ["shop/list", "--help"], ["shop/list", "-h"], ["shop/list", "--version"],
            ["shop/list", "--"], ["--", "shop/list"], ["shop/list", "-ic"], ["shop/list", "-o=file"], ["shop/list", "--bogus"],
            ["shop/list", "--live", "--live"], ["shop/list", "-i", "--include"], ["shop/list", "--env", "a", "--env=b"],
            ["shop/list", "--env"], ["shop/list", "--env", "--live"], ["shop/list", "--env="], ["shop/list", "--var"], ["shop/list", "--var", ""],
            ["shop/list", "--live=true"], ["shop/list", "--listen", "soon"], ["shop/list", "--listen", "-1"], ["shop/list", "--listen=-1"],
            ["shop/list", "--listen=nan"], ["shop/list", "--stub", "--live"], ["shop/list", "--max-body-size", "lots"],
            ["shop/list", "--generate-completion-script", "bash"], ["shop/list", "--experimental-dump-help"], ["", "--live"], ["-", "--live"],
            ["shop/list", "--Live"],
        ]
        for arguments in commandLines {
            #expect(CallArguments.quickParse(arguments) == nil, "\(arguments)")
        }
    }

    /// A name added to `call` and missing from the table would leave its property unset (a crash
    /// when read), so the table must hold exactly the names the declaration gives, read the same way.
    @Test func theTableHoldsEveryNameCallDeclares() throws {
        let declared = try Self.declaredArguments()
        var declaredNames: [String: (kind: String, repeats: Bool)] = [:]
        for argument in declared where argument.kind != "positional" {
            for name in argument.names where !["--help", "-h", "--version"].contains(name) {
                declaredNames[name] = (argument.kind, argument.repeats)
            }
        }
        #expect(declared.filter { $0.kind == "positional" }.count == 1, "the table reads one positional argument")
        var tableNames: [String: (kind: String, repeats: Bool)] = [:]
        for option in CallArguments.quickTable.options {
            for name in option.names {
                switch option.reader {
                case .flag: tableNames[name] = ("flag", false)
                case .value: tableNames[name] = ("option", false)
                case .repeated: tableNames[name] = ("option", true)
                }
            }
        }
        #expect(Set(tableNames.keys) == Set(declaredNames.keys))
        for (name, declaration) in declaredNames {
            #expect(tableNames[name]?.kind == declaration.kind && tableNames[name]?.repeats == declaration.repeats, "\(name)")
        }
    }

    /// The arguments `call` declares, from argument-parser's own description of it.
    private static func declaredArguments() throws -> [(kind: String, names: [String], repeats: Bool)] {
        var message = ""
        do {
            _ = try CallCommand.parseAsRoot(["--experimental-dump-help"])
        } catch {
            message = CallCommand.fullMessage(for: error)
        }
        let description = try JSONValue.parse(message)
        guard case .array(let arguments)? = description["command"]?["arguments"] else {
            Issue.record("no arguments in the dump: \(message.prefix(200))")
            return []
        }
        return arguments.map { argument in
            let names: [String]
            if case .array(let list)? = argument["names"] {
                names = list.compactMap { name in
                    guard case .string(let kind)? = name["kind"], case .string(let text)? = name["name"] else { return nil }
                    return (kind == "short" ? "-" : "--") + text
                }
            } else {
                names = []
            }
            var kind = ""
            if case .string(let text)? = argument["kind"] { kind = text }
            var repeats = false
            if case .bool(let value)? = argument["isRepeating"] { repeats = value }
            return (kind, names, repeats)
        }
    }

    /// Everything a parsed command holds, as text.
    private static func dumped(_ command: Any) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }
}
