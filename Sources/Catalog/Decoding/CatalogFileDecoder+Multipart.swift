import DispatcherCore
import FoundationEssentials
import SystemSupport
import YAMLSupport

extension CatalogFileDecoder {
    static let multipartFieldKeys = ["name", "value", "file", "filename", "contentType"]

    /// A file sent as a body or a form field, checked but not read: on disk it is streamed when
    /// sent (its absolute path is kept); in the catalogs built into the binary it is small and
    /// held as bytes. A path with placeholders is checked when it is sent.
    enum StreamedFile {
        case path(String)
        case bytes(Data, name: String)
    }

    func streamedFile(_ node: YAMLNode, _ what: @autoclosure () -> String) -> StreamedFile? {
        guard let path = nonEmptyText(node, what()) else { return nil }
        if path.hasPlaceholderOpening {
            templatedFilePaths.append((path, node))
            return .path(path)
        }
        let access = fileSystem.access(path, allowingOutside: readsOutsidePaths)
        switch access {
        case .readable:
            if let found = fileSystem.filePath(for: path) {
                // Absolute, so the file is found wherever the explorer runs from.
                return .path(found.hasPrefix("/") ? found : FileManager.default.currentDirectoryPath + "/" + found)
            }
            let data: Data
            do throws(FileReadError) {
                data = try fileSystem.contents(of: path, atMost: bodyFileLimit)
            } catch let problem {
                error("\(what()) \(FixtureFile.problem(of: problem, limit: bodyFileLimit)): '\(path)'", at: node)
                return nil
            }
            return .bytes(data, name: PathText.lastComponent(of: path))
        case .missing:
            error("\(what()) does not exist: '\(path)'", at: node)
        default:
            error("\(what()) \(problem(of: access)): '\(path)'", at: node)
        }
        return nil
    }

    /// `bodyFile:` of an endpoint: streamed from disk when sent, never read at load.
    func decodeBodyFile(_ node: YAMLNode, _ what: @autoclosure () -> String) -> RequestBody? {
        switch streamedFile(node, what()) {
        case .path(let path)?: .file(path: path, contentType: nil)
        case .bytes(let data, let name)?: .data(data, contentType: CatalogFileDecoder.contentType(forFile: name))
        case nil: nil
        }
    }

    /// `multipart:` — a list of fields, each `{ name, value }` or `{ name, file, filename?, contentType? }`.
    func decodeMultipart(_ node: YAMLNode, _ what: @autoclosure () -> String) -> RequestBody? {
        guard case .sequence(let items) = node.content else {
            error("the multipart body of \(what()) must be a list of fields (- { name: title, value: Hello } or - { name: photo, file: photo.png }), not \(describe(node))", at: node)
            return nil
        }
        let before = errorCount
        var fields: [MultipartField] = []
        for (index, item) in items.enumerated() {
            let subject = "multipart field \(index + 1) of \(what())"
            guard let entries = entries(item, subject, allowed: Self.multipartFieldKeys) else { continue }
            require(["name"], in: entries, of: item, subject)
            let field = { (key: String) in entries.first { $0.key == key } }
            guard let name = field("name").flatMap({ nonEmptyText($0.value, "the name of \(subject)") }) else { continue }
            let contentType = field("contentType").flatMap { nonEmptyText($0.value, "the contentType of \(subject)") }
            switch (field("value"), field("file")) {
            case (let value?, nil):
                if let filename = field("filename") { error("'filename' goes with 'file', not 'value', in \(subject)", at: filename.keyNode) }
                let text = text(value.value, "the value of \(subject)") ?? ""
                fields.append(MultipartField(name: name, content: .text(text), contentType: contentType))
            case (nil, let file?):
                let filename = field("filename").flatMap { nonEmptyText($0.value, "the filename of \(subject)") }
                switch streamedFile(file.value, "the file of \(subject)") {
                case .path(let path)?:
                    fields.append(MultipartField(name: name, content: .file(path: path, filename: filename), contentType: contentType))
                case .bytes(let data, let original)?:
                    fields.append(MultipartField(
                        name: name, content: .bytes(data, filename: filename ?? original),
                        contentType: contentType ?? MediaType.forFileOrBinary(original)))
                case nil: break
                }
            case (nil, nil):
                error("\(subject) needs 'value' (text) or 'file' (a file sent as it is)", at: item)
            case (_?, let file?):
                error("\(subject) has both 'value' and 'file': give one", at: file.keyNode)
            }
        }
        guard errorCount == before else { return nil }
        return .multipart(fields)
    }
}
