import Catalog

extension CallArguments {
    /// `call`'s command line read without the argument parser when it is a plain one (see
    /// `QuickParse`); nil when the parser must read it, or when `validate()` fails (the parser then
    /// reports why). `QuickParseTests` checks both give the same arguments.
    static func quickParse(_ arguments: [String]) -> CallArguments? {
        guard let parsed = quickTable.parse(arguments, into: CallArguments()), (try? parsed.validate()) != nil else { return nil }
        return parsed
    }

    /// The names `call` declares (`QuickParseTests` checks they are all here) and what each sets.
    static let quickTable = QuickParse<CallArguments>(
        [
            .init(names: ["--env"], reader: .value { $0.environment = $1; return true }),
            .init(names: ["--var"], reader: .repeated { $0.variables.append($1) }),
            .init(names: ["--example"], reader: .value { $0.example = $1; return true }),
            .init(names: ["--stub"], reader: .flag { $0.stub = true }),
            .init(names: ["--live"], reader: .flag { $0.live = true }),
            .init(names: ["-i", "--include"], reader: .flag { $0.include = true }),
            .init(names: ["--json"], reader: .flag { $0.json = true }),
            .init(names: ["-w", "--write-out"], reader: .value { $0.writeOut = $1; return true }),
            .init(names: ["-o", "--output"], reader: .value { $0.output = $1; return true }),
            .init(names: ["--message"], reader: .repeated { $0.message.append($1) }),
            .init(names: ["--listen"], reader: .value { command, text in
                guard let seconds = Double(text) else { return false }
                command.listen = seconds
                return true
            }),
            .init(names: ["-b", "--cookies"], reader: .value { $0.cookiesFile = $1; return true }),
            .init(names: ["-c", "--cookie-jar"], reader: .value { $0.cookieJar = $1; return true }),
            .init(names: ["--no-history"], reader: .flag { $0.noHistory = true }),
            .init(names: ["--reveal"], reader: .flag { $0.reveal = true }),
            .init(names: ["--safe"], reader: .flag { $0.safe = true }),
            .init(names: ["--no-safe"], reader: .flag { $0.safe = false }),
            .init(names: ["--catalog"], reader: .value { $0.catalog = $1; return true }),
            .init(names: ["--trust"], reader: .flag { $0.trust = true }),
            .init(names: ["--force"], reader: .flag { $0.force = true }),
            .init(names: ["--max-body-size"], reader: .value { command, text in
                guard let size = CatalogSet.byteCount(text) else { return false }
                command.maximumBodySize = size
                return true
            }),
        ],
        positional: { $0.endpoint = $1 })
}
