import Synchronization

/// Every secret value in use, shared by every output path: the values `{{secret.X}}` resolved to,
/// tokens obtained by refreshes, secrets typed or answered at run time, captured secret values.
///
/// A `Redactor` that knows a registry masks each of these values wherever it appears (any header,
/// query item or body field, whatever its name), including values registered after the redactor
/// was made — so a log entry formatted later still masks a token obtained in between.
package final class SecretRegistry: Sendable, Hashable, CustomStringConvertible {
    /// The values, longest first (a secret containing another is masked whole).
    private let state = Mutex<[String]>([])

    /// Makes an empty registry.
    package init() {}

    /// Makes a registry that knows `values`.
    package convenience init(_ values: some Sequence<String>) {
        self.init()
        register(values)
    }

    /// Adds values to mask, each also in every encoding it can take (`Redactor.encodings(of:)`).
    /// Values shorter than 4 characters are ignored: masking every `a` would destroy the text and hide nothing.
    package func register(_ values: some Sequence<String>) {
        var added: [String] = []
        for value in values where value.count >= Redactor.minimumSecretLength {
            added += Redactor.encodings(of: value)
        }
        guard !added.isEmpty else { return }
        state.withLock { known in
            var changed = false
            for value in added where !known.contains(value) {
                known.append(value)
                changed = true
            }
            if changed { known.sort { $0.utf8.count > $1.utf8.count } }
        }
    }

    /// Adds one value to mask.
    package func register(_ value: String) { register(CollectionOfOne(value)) }

    /// The values, longest first.
    package var values: [String] { state.withLock { $0 } }

    /// Whether the registry knows no value.
    package var isEmpty: Bool { state.withLock { $0.isEmpty } }

    package static func == (lhs: SecretRegistry, rhs: SecretRegistry) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Never the values themselves.
    package var description: String { "SecretRegistry(\(values.count) values)" }
}
