extension String {
    /// How many lines the text has (one more than its line breaks), counted over its UTF-8 bytes
    /// in place: views call it on every frame, on bodies of megabytes.
    package var lineCount: Int {
        var text = self
        return text.withUTF8 { bytes in
            var count = 1
            for byte in bytes where byte == 0x0A { count += 1 }
            return count
        }
    }

    /// The text up to its first line break (all of it when there is none).
    package var firstLine: Substring {
        let end = utf8.firstIndex(of: 0x0A) ?? utf8.endIndex
        return self[..<end]
    }
}
