import Foundation

/// Executables built with the tests (`swift build --build-tests` puts them beside the test bundle).
package enum BuiltProducts {
    /// The executable `name` next to the running test bundle (looking a few folders up, for
    /// platforms that run tests from inside a bundle), else `.build/debug/NAME`.
    package static func executable(named name: String) -> URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<6 {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue { return candidate }
        }
        return URL(fileURLWithPath: ".build/debug/\(name)")
    }
}
