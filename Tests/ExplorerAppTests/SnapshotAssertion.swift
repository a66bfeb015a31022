import Foundation
import Testing

/// Compares text with a reviewed snapshot in `Snapshots/NAME.txt` (beside this file, wherever the
/// test is). Snapshots are written only when asked (`RECORD_SNAPSHOTS=1 swift test …`), then
/// reviewed like any other change.
func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let file = directory.appendingPathComponent("\(name).txt")
    let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    if recording {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data((text + "\n").utf8).write(to: file)
        return
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
        Issue.record("No snapshot \(name).txt; record it with RECORD_SNAPSHOTS=1 and review it.", sourceLocation: sourceLocation)
        return
    }
    let expected = String(decoding: data, as: UTF8.self)
    if expected != text + "\n" {
        Issue.record(
            "Snapshot \(name) differs.\n--- expected\n\(expected)--- actual\n\(text)\n", sourceLocation: sourceLocation)
    }
}
