import TextSupport

/// A placeholder's name as written between `{{` and `}}`: a variable (`petId`), a secret
/// (`secret.PETSTORE_TOKEN`, or `$processEnv NAME` / `$dotenv NAME` as `.http` files write one) or a
/// generator (`$uuid`, see `TemplateGenerators`).
struct Placeholder: Hashable {
    /// The prefix that sends a name to the secret store.
    static let secretPrefix = "secret."

    /// The name as written.
    let name: String

    init(_ name: String) { self.name = name }

    /// The prefixes of the `.http` clients' environment reads: secrets by another name.
    static let environmentReads = ["$processEnv ", "$dotenv "]

    /// The secret's name when this is `secret.NAME`, `$processEnv NAME` or `$dotenv NAME`. The
    /// two reads of the REST Client are secrets on purpose: whatever rules decide which secrets a
    /// catalog may read (the `SecretStore`) decide for them too.
    var secretName: String? {
        if name.hasPrefix(Placeholder.secretPrefix) { return String(name.dropFirst(Placeholder.secretPrefix.count)) }
        guard name.hasPrefix("$"), let prefix = Self.environmentReads.first(where: { name.hasPrefix($0) }) else { return nil }
        let rest = name.dropFirst(prefix.count).trimmed
        return rest.isEmpty || rest.contains(" ") ? nil : String(rest)
    }

    /// `{{name}}` as written in messages.
    var braced: String { "{{\(name)}}" }

    /// The canonical `{{secret.NAME}}` text for a secret name.
    static func secret(_ name: String) -> String { "{{\(secretPrefix)\(name)}}" }
}
