/// A placeholder's name as written between `{{` and `}}`: a variable (`petId`) or a secret
/// (`secret.PETSTORE_TOKEN`).
struct Placeholder: Hashable {
    /// The prefix that sends a name to the secret store.
    static let secretPrefix = "secret."

    /// The name as written.
    let name: String

    init(_ name: String) { self.name = name }

    /// The secret's name when this is `secret.NAME`.
    var secretName: String? {
        name.hasPrefix(Placeholder.secretPrefix) ? String(name.dropFirst(Placeholder.secretPrefix.count)) : nil
    }

    /// `{{name}}` as written in messages.
    var braced: String { "{{\(name)}}" }

    /// The canonical `{{secret.NAME}}` text for a secret name.
    static func secret(_ name: String) -> String { "{{\(secretPrefix)\(name)}}" }
}
