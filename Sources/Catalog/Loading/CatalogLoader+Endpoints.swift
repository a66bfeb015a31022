import DispatcherCore
import FoundationEssentials
import YAMLSupport

extension CatalogLoader {
    /// The endpoints of a piece of `service`'s file — `endpoints:` and some of its endpoints, as
    /// lines of the file from `firstLine` on — decoded with what the rest of the file gives them
    /// (groups, environments, variables, trust, the auth refresh rule): how `W` checks an edit of
    /// one endpoint without reading a large file again. Diagnostics are at the file's lines. Nil
    /// when the piece is not YAML, or uses anchors or aliases (what they refer to may be elsewhere).
    package static func decodeEndpoints(
        ofPiece text: String, firstLine: Int, of service: Service, fileSystem: any CatalogFileSystem
    ) -> (endpoints: [CatalogEndpoint], diagnostics: [Diagnostic])? {
        guard let composition = try? YAMLComposer.compose(text, markingScalarsContaining: UInt8(ascii: "{")), let root = composition.root,
            let endpoints = root.value("endpoints"), composition.duplicates.isEmpty, !usesAnchors(text)
        else { return nil }
        let fileName = PathText.lastComponent(of: service.file)
        let decoder = CatalogFileDecoder(file: service.file, fileName: fileName, fileSystem: fileSystem)
        decoder.allowsOutsidePaths = service.allowsOutsidePaths
        decoder.isTrusted = service.isTrusted
        if let largest = service.environments.map(\.maximumBodySize).max() { decoder.bodyFileLimit = largest }
        decoder.warnAboutUnclosedPlaceholders(in: composition.markedScalars)
        var decoded = decoder.decodeEndpoints(endpoints, serviceID: service.id, groups: service.groups, environments: service.environments)
        decoder.checkTemplatedFilePaths(&decoded, environments: service.environments, variables: service.variables)
        if let into = service.authRefresh?.into {
            for endpoint in decoded {
                guard let misplaced = decoder.tokenPlacement(of: into, in: endpoint).misplaced else { continue }
                decoder.report(
                    .error, "endpoint '\(endpoint.id)' uses the refreshed token \(Placeholder.secret(into)) in its \(misplaced); "
                        + "a refreshed token can be put in headers and query items only", line: endpoint.location.line, column: endpoint.location.column)
            }
        }
        let offset = firstLine - 1
        for index in decoded.indices { decoded[index].location.line += offset }
        let diagnostics = decoder.diagnostics.map { diagnostic in
            var moved = diagnostic
            moved.line += offset
            return moved
        }
        return (decoded, diagnostics)
    }

    /// Whether YAML text may hold an anchor, an alias or a merge key: a `&` or `*` after a space,
    /// `[`, `{` or `,` and before a name (`$.items[*].id` is not one), or `<<`. Cautious: a quoted
    /// `a &b` counts too, and costs only the slower check of the whole file.
    static func usesAnchors(_ text: String) -> Bool {
        if text.utf8Contains("<<") { return true }
        var previous: UInt8 = UInt8(ascii: " ")
        var indicator = false
        for byte in text.utf8 {
            if indicator, byte.isAnchorNameByte { return true }
            indicator = (byte == UInt8(ascii: "&") || byte == UInt8(ascii: "*"))
                && [UInt8(ascii: " "), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: "\n")].contains(previous)
            previous = byte
        }
        return false
    }
}

extension UInt8 {
    /// A letter, digit, `-` or `_`.
    fileprivate var isAnchorNameByte: Bool {
        (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || self == 0x2D || self == 0x5F
    }
}
