import FoundationEssentials

/// The process's environment variables, read once. `ProcessInfo.processInfo.environment` builds a
/// new dictionary from `environ` on every read, and one `apiexplorer call` read it six times (the
/// state folder for history, tokens, cookies and captures, the secrets, the catalog lookup).
/// apiexplorer never changes its own environment, so the first read holds for the whole run.
public enum ProcessEnvironment {
    /// Every variable, as the process started with it.
    public static let variables: [String: String] = ProcessInfo.processInfo.environment
}
