import ArgumentParser
import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions
import StateStore
import SystemSupport

/// `apiexplorer auth login|status|logout`: OAuth 2.0 sign-in from the command line, the tokens kept
/// (`persist: true`) listed and forgotten. Device sign-ins print their URL and code, so they work
/// over SSH.
struct AuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Signs in with OAuth 2.0 and lists or forgets the tokens kept between runs.",
        subcommands: [AuthLoginCommand.self, AuthStatusCommand.self, AuthLogoutCommand.self])
}

/// Where the service and environment come from: `SERVICE` and `--env`.
struct AuthTarget: ParsableArguments {
    @Argument(help: ArgumentHelp("The service (see `apiexplorer list`).", valueName: "SERVICE"))
    var service: String

    @Option(help: ArgumentHelp("The environment (default: the service's first).", valueName: "NAME"))
    var env: String?

    /// The service and environment in `catalog`, or a clear error.
    func resolve(in catalog: CatalogSet) throws -> (Service, Environment) {
        guard let service = catalog.service(self.service) else {
            Console.error("error: no service '\(self.service)'\(DidYouMean.hint(for: self.service, among: catalog.services.map(\.id)))")
            throw ExitStatus.usage
        }
        guard let environment = env.map({ service.environment(named: $0) }) ?? service.environments.first else {
            Console.error("error: \(service.id) has no environment '\(env ?? "")'\(DidYouMean.hint(for: env ?? "", among: service.environments.map(\.name)))")
            throw ExitStatus.usage
        }
        return (service, environment)
    }
}

struct AuthLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Signs in to a service with OAuth 2.0 (its auth.oauth2), keeping the token when it says persist: true.")

    @OptionGroup var target: AuthTarget
    @OptionGroup var catalogOptions: CatalogOptions

    func run() async throws {
        let source = catalogOptions.source()
        var catalog = catalogOptions.load()
        var (service, environment) = try target.resolve(in: catalog)
        if !service.isTrusted {
            catalog = try TrustGate.require(service, in: catalog, to: "sign in over the network")
            (service, environment) = try target.resolve(in: catalog)
        }
        guard let settings = service.oauth2 else {
            Console.error("error: \(service.id) does not sign in with OAuth 2.0 (no auth.oauth2 in its catalog)")
            throw ExitStatus.usage
        }
        if !settings.persist {
            Console.error("note: \(service.id) does not say persist: true, so the token lasts for this command only")
        }
        let token = try await withLiveTransport { transport in
            let session = ServiceSession(
                service: service, environment: environment, secrets: SecretStore.load(for: source), transport: transport,
                onSignInPrompt: { Console.error($0.sentence) }, tokenPersistence: TokenFile())
            do throws(DispatchError) {
                return try await session.signInNow()
            } catch {
                Console.error("error: \(error.message)")
                throw ExitCode.failure
            }
        }
        let expiry = token.expiresAt.map { " · expires \(AuthStatusCommand.relative($0, from: Date()))" } ?? ""
        let scope = token.scope.map { " · scope \($0)" } ?? ""
        Console.out("Signed in to \(service.id) · \(environment.name)\(scope)\(expiry)\(settings.persist ? " · kept in \(TokenFile().fileURL.path)" : "").")
    }
}

struct AuthStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Lists the OAuth 2.0 tokens kept between runs (values never printed).")

    func run() throws {
        let file = TokenFile()
        let tokens = file.all().sorted { ($0.key.service, $0.key.environment) < ($1.key.service, $1.key.environment) }
        guard !tokens.isEmpty else {
            Console.out("No token is kept (\(file.fileURL.path)). Sign in with `apiexplorer auth login SERVICE`.")
            return
        }
        let now = Date()
        for (key, token) in tokens {
            let expiry = token.expiresAt.map { "expires \(Self.relative($0, from: now))" } ?? "no expiry given"
            let refresh = token.refreshToken == nil ? "" : " · refresh token held"
            let scope = token.scope.map { " · scope \($0)" } ?? ""
            Console.out("\(key.service) · \(key.environment): \(token.tokenType) token, \(expiry)\(scope)\(refresh)")
        }
    }

    /// `in 59 min` or `2 h ago`.
    static func relative(_ date: Date, from now: Date) -> String {
        let seconds = Int(date.timeIntervalSince(now).rounded())
        let amount = abs(seconds)
        let text = amount < 60 ? "\(amount) s" : amount < 3600 ? "\(amount / 60) min" : "\(amount / 3600) h \(amount % 3600 / 60) min"
        return seconds >= 0 ? "in \(text)" : "\(text) ago"
    }
}

struct AuthLogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Forgets the token kept for a service and environment.")

    @OptionGroup var target: AuthTarget
    @OptionGroup var catalogOptions: CatalogOptions

    func run() throws {
        let (service, environment) = try target.resolve(in: CatalogLoader.load(catalogOptions.source()))
        let file = TokenFile()
        let key = EnvironmentKey(service, environment: environment.name)
        guard file.token(for: key) != nil else {
            Console.out("No token was kept for \(service.id) · \(environment.name).")
            return
        }
        file.keep(nil, for: key)
        Console.out("Signed out of \(service.id) · \(environment.name): its token is forgotten.")
    }
}
