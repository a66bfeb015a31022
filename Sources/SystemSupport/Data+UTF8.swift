import FoundationEssentials

extension Data {
    /// The UTF-8 bytes of `text`. `Data(text.utf8)` goes through Data's generic initializer,
    /// which asks at run time whether the view is contiguous bytes: the first such question for
    /// each type scans the binary's conformance records (and a catalog load casts once per body).
    package init(utf8 text: String) {
        var text = text
        self = text.withUTF8 { Data(buffer: $0) }
    }
}
