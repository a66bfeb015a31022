/// A problem found in a catalog file, with the place it was found: printed as
/// `path:line:column: error: message`, the form editors and CI logs understand.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Something is ignored or could not be loaded; `validate` exits non-zero.
        case error
        /// Loaded, but probably not what was meant.
        case warning

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .error && rhs == .warning
        }
    }

    /// The file as shown to the user (`environments/petstore.yaml`, `<bundled>/httpbin.yaml`).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in Unicode scalars.
    public var column: Int
    /// Error or warning.
    public var severity: Severity
    /// What is wrong, in words; never contains a secret's value.
    public var message: String

    /// Makes a diagnostic.
    public init(file: String, line: Int, column: Int, severity: Severity, message: String) {
        self.file = file
        self.line = max(1, line)
        self.column = max(1, column)
        self.severity = severity
        self.message = message
    }

    /// Whether this is an error.
    public var isError: Bool { severity == .error }

    /// `path:line:column: severity: message`.
    public var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }
}

extension Sequence<Diagnostic> {
    /// How many are errors.
    public var errorCount: Int { reduce(0) { $0 + ($1.isError ? 1 : 0) } }
    /// How many are warnings.
    public var warningCount: Int { reduce(0) { $0 + ($1.isError ? 0 : 1) } }
}
