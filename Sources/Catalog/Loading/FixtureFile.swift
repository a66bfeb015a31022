import DispatcherCore
import FoundationEssentials
import SystemSupport

/// When a load reads the fixture files its stubs and examples name (`bodyFile:`).
package enum FixtureReading: Sendable, Hashable {
    /// Every one as the catalog is loaded: its problems are the load's diagnostics (`validate`,
    /// `call`, the mock).
    case atLoad
    /// Each one when its answer is needed (a stub send): the explorer's launch on a catalog of a
    /// thousand endpoints would otherwise open thousands of files before its first frame.
    case whenNeeded
}

/// A fixture's body file that a load left unread (`FixtureReading.whenNeeded`). It is checked as
/// it is read — confined to the catalog folder, no larger than the service's largest
/// `maxBodySize` — and a problem is the diagnostic the load would have given, at the `bodyFile:`
/// value's line and column.
package struct FixtureFile: Sendable, Hashable {
    /// The path as the catalog wrote it.
    package let path: String
    /// Where the catalog names it.
    package let location: SourceLocation
    /// Whose it is: the example's name (`default` for the stub) and the endpoint's id.
    let example: String
    let endpointID: String
    /// The largest file read.
    let limit: Int
    /// Whether the catalog says `allowOutsidePaths: true`, and whether it is trusted.
    let allowsOutsidePaths: Bool
    let isTrusted: Bool
    /// The catalog's folder.
    let fileSystem: any CatalogFileSystem

    init(
        path: String, location: SourceLocation, example: String, endpointID: String, limit: Int, allowsOutsidePaths: Bool, isTrusted: Bool,
        fileSystem: any CatalogFileSystem
    ) {
        self.path = path
        self.location = location
        self.example = example
        self.endpointID = endpointID
        self.limit = limit
        self.allowsOutsidePaths = allowsOutsidePaths
        self.isTrusted = isTrusted
        self.fileSystem = fileSystem
    }

    /// What it is, for messages (`the body file of example 'notFound' of endpoint 'getPet'`): made
    /// only for a message, not for each of a thousand fixtures at load.
    static func describe(example: String, endpointID: String) -> String {
        example == CatalogExample.defaultName
            ? "the body file of the stub of endpoint '\(endpointID)'" : "the body file of example '\(example)' of endpoint '\(endpointID)'"
    }

    /// The file's bytes, or why they may not be used.
    package func read() -> Result<Data, FixtureProblem> {
        let what = Self.describe(example: example, endpointID: endpointID)
        func failure(_ message: String) -> Result<Data, FixtureProblem> {
            .failure(FixtureProblem(diagnostic: Diagnostic(
                file: location.file, line: location.line, column: location.column, severity: .error, message: message)))
        }
        let access = fileSystem.access(path, allowingOutside: allowsOutsidePaths && isTrusted)
        switch access {
        case .readable(let size):
            if let size, size > limit {
                let shown = ByteCount.format(size, over: limit)
                return failure("\(what) is \(shown.size), larger than maxBodySize (\(shown.limit)): '\(path)'")
            }
        case .missing: return failure("\(what) does not exist: '\(path)'\(Self.siblingHint(for: path, in: fileSystem))")
        default: return failure("\(what) \(Self.problem(of: access, allowsOutsidePaths: allowsOutsidePaths, isTrusted: isTrusted)): '\(path)'")
        }
        // Bounded again as read: the file may have grown since it was measured, or been replaced by a FIFO.
        do throws(FileReadError) {
            return .success(try fileSystem.contents(of: path, atMost: limit))
        } catch {
            return failure("\(what) \(Self.problem(of: error, limit: limit)): '\(path)'")
        }
    }

    /// Why a file measured as readable could not be read after all, said of the file.
    static func problem(of error: FileReadError, limit: Int) -> String {
        switch error {
        case .tooLarge: "is larger than maxBodySize (\(FileReadError.limitText(limit)))"
        case .notRegularFile(_, let kind): "is not a regular file (it is \(kind))"
        case .missing: "does not exist"
        case .symbolicLink: "is a symbolic link, which is not followed here"
        case .unreadable(_, let reason): "cannot be read (\(reason))"
        }
    }

    /// Why a file cannot be used; for a file outside the folder of a catalog that allows it but is
    /// not trusted yet, says so.
    static func problem(of access: CatalogFileAccess, allowsOutsidePaths: Bool, isTrusted: Bool) -> String {
        if case .outside(let resolved) = access, allowsOutsidePaths, !isTrusted {
            return "is outside the catalog folder (it resolves to '\(resolved)'); the catalog says 'allowOutsidePaths: true', "
                + "which takes effect once you trust it (apiexplorer trust)"
        }
        return access.problem ?? "cannot be read"
    }

    /// `; did you mean 'fixtures/pet.json'?` when a file in the same folder has a close name.
    static func siblingHint(for path: String, in fileSystem: any CatalogFileSystem) -> String {
        let folder = PathText.parent(of: path)
        let name = PathText.lastComponent(of: path)
        guard let suggestion = DidYouMean.suggestion(for: name, among: fileSystem.fileNames(in: folder)) else { return "" }
        return "; did you mean '\(folder.isEmpty ? suggestion : folder + "/" + suggestion)'?"
    }

    package static func == (lhs: FixtureFile, rhs: FixtureFile) -> Bool {
        lhs.path == rhs.path && lhs.location == rhs.location && lhs.example == rhs.example && lhs.endpointID == rhs.endpointID && lhs.limit == rhs.limit
            && lhs.allowsOutsidePaths == rhs.allowsOutsidePaths && lhs.isTrusted == rhs.isTrusted
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(location)
    }
}

/// Why a fixture's body file cannot be used: the diagnostic a load would have given.
package struct FixtureProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// `file:line:column: error: …`.
    package var diagnostic: Diagnostic

    package var description: String { diagnostic.description }
}

extension CatalogExample {
    /// The example with its body file read, when a load left it unread; itself otherwise.
    package func readingBodyFile() -> Result<CatalogExample, FixtureProblem> {
        guard let bodyFile else { return .success(self) }
        switch bodyFile.read() {
        case .success(let data):
            var read = self
            if case .response(let status, let headers, _) = sample { read.sample = .response(status: status, headers: headers, body: data) }
            read.bodyFile = nil
            return .success(read)
        case .failure(let problem): return .failure(problem)
        }
    }
}

extension CatalogEndpoint {
    /// The endpoint with the body files of its stub and of the example named `example` read (those
    /// a stub send may answer with), or the first problem with one.
    package func readingFixtures(for example: String?) -> Result<CatalogEndpoint, FixtureProblem> {
        var read = self
        switch stub.readingBodyFile() {
        case .success(let stub): read.stub = stub
        case .failure(let problem): return .failure(problem)
        }
        if let example, let index = examples.firstIndex(where: { $0.name == example }) {
            switch examples[index].readingBodyFile() {
            case .success(let named): read.examples[index] = named
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(read)
    }
}
