#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The user's home folder and `~` in paths people type.
package enum HomeDirectory {
    /// `$HOME`, else the password database's entry for this user, else `/`.
    package static func path(environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir { return String(cString: directory) }
        return "/"
    }

    /// `path` with a leading `~` or `~/` replaced by the home folder.
    package static func expandingTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return self.path(environment: environment) + path.dropFirst()
    }
}

/// Finding programs on `PATH`.
package enum ExecutableSearch {
    /// The first executable file named `name` in the folders of `searchPath` (`PATH`'s syntax);
    /// a name with a `/` is returned as it is when it is executable.
    package static func locate(_ name: String, searchPath: String?) -> String? {
        if name.contains("/") { return FileStatus.isExecutable(name) ? name : nil }
        for directory in (searchPath ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if FileStatus.isExecutable(candidate) { return candidate }
        }
        return nil
    }
}
