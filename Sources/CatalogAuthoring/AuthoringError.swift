import Catalog
import SystemSupport

/// Why an import, a recording or a catalog edit failed, sorted by what the command line makes of it.
package enum AuthoringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command was used wrongly or names something the catalog does not have (exit 2).
    case usage(String)
    /// A file could not be read or written.
    case file(String)
    /// An input (curl command, OpenAPI document, catalog) could not be understood.
    case invalidInput(String)
    /// Writing would replace something the user has; `--force` allows it.
    case wouldOverwrite(String)

    /// The message for a person.
    package var message: String {
        switch self {
        case .usage(let message), .file(let message), .invalidInput(let message), .wouldOverwrite(let message): message
        }
    }

    package var description: String { message }
}

extension AuthoringError {
    /// A failed file operation.
    package init(_ error: SystemError) { self = .file(error.description) }
}

extension AuthoringError {
    /// A name the catalog does not have.
    package init(_ error: CatalogLookupError) { self = .usage(error.message) }
}
