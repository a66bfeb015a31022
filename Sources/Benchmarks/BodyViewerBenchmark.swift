import ArgumentParser
import BodyViewer
import Foundation

/// `apiexplorer-bench viewer`: how the body viewer copes with 1, 10 and 100 MB JSON bodies.
/// Each size runs in a fresh child process so peak-memory figures do not mix.
struct BodyViewerBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "viewer",
        abstract: "Time to first frame, index time, per-frame times and peak memory of the body viewer."
    )

    @Option(name: .long, parsing: .upToNextOption, help: "Body sizes in MB.")
    var sizes: [Int] = [1, 10, 100]

    @Option(name: .long, help: "Frames measured per operation.")
    var frames = 200

    @Option(name: .long, help: .hidden)
    var child: Int?

    func run() async throws {
        if let child {
            let result = try await ViewerMeasurement(sizeMB: child, frames: frames).run()
            let json = try JSONEncoder().encode(result)
            print(String(decoding: json, as: UTF8.self))
            return
        }
        var results: [ViewerResult] = []
        for size in sizes {
            FileHandle.standardError.write(Data("viewer: measuring \(size) MB in a child process…\n".utf8))
            results.append(try runChild(size: size))
        }
        print(ViewerReport(results: results).table())
    }

    private func runChild(size: Int) throws -> ViewerResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["viewer", "--child", String(size), "--frames", String(frames)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last
        else { throw ValidationError("the \(size) MB child failed (status \(process.terminationStatus))") }
        return try JSONDecoder().decode(ViewerResult.self, from: Data(line.utf8))
    }
}

/// Figures for one body size (times in milliseconds).
struct ViewerResult: Codable {
    var sizeMB: Int
    var bytes: Int
    var lines: Int
    var firstFrame: Double
    var firstFrameWithoutPreview: Double
    var fullIndex: Double
    var scroll: FrameStats
    var pageDown: FrameStats
    var jumpToEnd: FrameStats
    var fold: FrameStats
    var foldAll: FrameStats
    var unfoldAll: FrameStats
    var pageDownFolded: FrameStats
    var jumpToEndFolded: FrameStats
    var searchNextFrequent: FrameStats
    var searchNextRareScan: FrameStats
    var searchNextRareCounted: FrameStats
    var countRare: Double
    var queryPath: Double
    var peakMemoryBytes: Int
    var peakAfterBuildBytes: Int
    var baselineBytes: Int
    var indexBytes: Int
    var jqFormat: Double?
}

/// Median and maximum of many frames.
struct FrameStats: Codable {
    var median: Double
    var max: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        max = sorted.last ?? 0
    }

    var text: String { String(format: "%.3f / %.3f", median, max) }
}

/// Runs every measurement for one size in this process.
struct ViewerMeasurement {
    let sizeMB: Int
    let frames: Int

    func run() async throws -> ViewerResult {
        let baseline = ViewerMemory.peakBytes()
        let data = ViewerBodyGenerator.make(bytes: sizeMB << 20)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("apiexplorer-bench-\(sizeMB)mb-\(getpid()).json")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let state = BodyViewState(viewportHeight: 50, viewportWidth: 160)

        // First frame: the preview arrives during the build and is drawn at once.
        let start = ContinuousClock.now
        let firstFrame = FirstFrameProbe()
        let document = try await BodyDocument.build(data: data, contentType: "application/json") { progress in
            guard let preview = progress.preview else { return }
            _ = preview.renderVisible(state)
            firstFrame.record(ContinuousClock.now - start)
        }
        let indexed = ContinuousClock.now - start
        _ = document.renderVisible(state)
        let withoutPreview = ContinuousClock.now - start
        let peakAfterBuild = ViewerMemory.peakBytes()

        func frame(_ label: String, count: Int? = nil, prepare: (inout BodyViewState) -> Void = { _ in },
            _ operation: (inout BodyViewState) -> Void) -> FrameStats
        {
            var samples: [Double] = []
            var current = state
            for _ in 0..<(count ?? frames) {
                prepare(&current)
                let begin = ContinuousClock.now
                operation(&current)
                _ = document.renderVisible(current)
                samples.append((ContinuousClock.now - begin).milliseconds)
            }
            return FrameStats(samples)
        }
        var random = ViewerRandom(seed: 7)
        let lineCount = document.lineCount
        let scroll = frame("scroll") { $0.moveDown(in: document) }
        let page = frame("page") { $0.pageDown(in: document) }
        let end = frame("end", prepare: { $0.moveToTop(in: document) }) { $0.moveToEnd(in: document) }
        let fold = frame("fold", prepare: { state in
            state.unfoldAll(in: document)
            state.moveCursor(toLine: Int(random.next() % UInt64(lineCount)), in: document)
        }) { $0.foldAtCursor(in: document) }
        let foldAll = frame("foldAll", prepare: { $0.unfoldAll(in: document) }) { $0.foldAll(in: document) }
        let unfoldAll = frame("unfoldAll", prepare: { $0.foldAll(in: document) }) { $0.unfoldAll(in: document) }
        // Every array element folded: hundreds of thousands of folds, each frame still only walks the screen.
        var folded = state
        folded.fold(toDepth: 2, in: document)
        let pageFolded = frame("pageFolded", prepare: { if $0.folds.isEmpty { $0 = folded } }) { $0.pageDown(in: document) }
        let endFolded = frame("endFolded", prepare: { state in
            if state.folds.isEmpty { state = folded }
            state.moveToTop(in: document)
        }) { $0.moveToEnd(in: document) }
        let frequent = BodySearchQuery("springfield")
        let searchFrequent = frame("searchFrequent", prepare: { state in
            if state.search == nil { state.search(for: frequent, in: document) }
        }) { $0.findNext(in: document) }
        let rare = BodySearchQuery(ViewerBodyGenerator.rareWord)
        let searchRareScan = frame("searchRareScan", count: min(frames, 20), prepare: { state in
            if state.search == nil { state.search(for: rare, in: document) }
        }) { $0.findNext(in: document) }
        let countStart = ContinuousClock.now
        for await _ in document.matchCounts(for: rare) {}
        let count = ContinuousClock.now - countStart
        let searchRareCounted = frame("searchRareCounted", prepare: { state in
            if state.search == nil { state.search(for: rare, in: document) }
        }) { $0.findNext(in: document) }
        let queryStart = ContinuousClock.now
        _ = try await document.query("$.data[?(@.address.city == 'Springfield')].id")
        let query = ContinuousClock.now - queryStart

        return ViewerResult(
            sizeMB: sizeMB, bytes: data.count, lines: lineCount,
            firstFrame: (firstFrame.value ?? withoutPreview).milliseconds,
            firstFrameWithoutPreview: withoutPreview.milliseconds, fullIndex: indexed.milliseconds,
            scroll: scroll, pageDown: page, jumpToEnd: end, fold: fold, foldAll: foldAll, unfoldAll: unfoldAll,
            pageDownFolded: pageFolded, jumpToEndFolded: endFolded,
            searchNextFrequent: searchFrequent, searchNextRareScan: searchRareScan,
            searchNextRareCounted: searchRareCounted, countRare: count.milliseconds, queryPath: query.milliseconds,
            peakMemoryBytes: ViewerMemory.peakBytes(), peakAfterBuildBytes: peakAfterBuild, baselineBytes: baseline,
            indexBytes: document.indexByteCount,
            jqFormat: try ViewerJQReference.time(file: file)
        )
    }
}

/// Holds the moment the preview was drawn (written once from the build's thread).
private final class FirstFrameProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: Duration?

    func record(_ duration: Duration) {
        lock.withLock { if recorded == nil { recorded = duration } }
    }

    var value: Duration? { lock.withLock { recorded } }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

/// Peak resident memory of this process.
enum ViewerMemory {
    static func peakBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.filter(\.isNumber)
            return (Int(digits) ?? 0) * 1024
        }
        return 0
    }
}

/// `jq . file > /dev/null`, for a formatting-throughput reference.
enum ViewerJQReference {
    static func time(file: URL) throws -> Double? {
        guard let jq = BodyJQ.locate() else { return nil }
        let process = Process()
        process.executableURL = jq
        process.arguments = [".", file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        return (ContinuousClock.now - start).milliseconds
    }
}

/// A deterministic xorshift generator.
struct ViewerRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
}

/// Makes a realistic API response: `{"data":[…objects with nested fields…],"meta":{…}}`, written straight
/// into one buffer that becomes the body without a copy.
enum ViewerBodyGenerator {
    static let rareWord = "zanzibar"
    static let firstNames = ["Ann", "Bob", "Chloé", "Dmitri", "Eve", "Farid", "Grace", "Hiro", "Ines", "José"]
    static let lastNames = ["Smith", "Jones", "Müller", "Tanaka", "García", "Okafor", "Novak", "Rossi"]
    static let cities = ["Springfield", "Oslo", "Lyon", "Osaka", "Lagos", "Lima", "Perth", "Turku", "Cork", "Graz"]
    static let tags = ["alpha", "beta", "gamma", "delta", "vip", "trial", "beta-tester", "churned"]

    static func make(bytes target: Int) -> Data {
        let capacity = target + (64 << 10)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        var writer = Writer(buffer: buffer, capacity: capacity)
        var random = ViewerRandom(seed: UInt64(target))
        writer.append("{\"data\":[")
        var id = 0
        // A handful of rare words, spread out, for the search-next scan figures.
        let rareEvery = max(1, target / 2200 / 5)
        while writer.count < target - 4096 {
            if id > 0 { writer.append(",") }
            appendObject(id: id, rare: id % rareEvery == rareEvery / 2, to: &writer, random: &random)
            id += 1
        }
        writer.append("],\"meta\":{\"count\":\(id),\"next\":null,\"generatedBy\":\"apiexplorer-bench\"}}")
        return Data(bytesNoCopy: buffer, count: writer.count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    private static func appendObject(id: Int, rare: Bool, to writer: inout Writer, random: inout ViewerRandom) {
        let first = random.pick(firstNames)
        let last = random.pick(lastNames)
        let city = random.pick(cities)
        let uuid = String(random.next(), radix: 16) + "-" + String(random.next() % 0xFFFF, radix: 16)
        writer.append("{\"id\":\(id),\"uuid\":\"\(uuid)\",\"name\":\"\(first) \(last)\",")
        writer.append("\"email\":\"\(first.lowercased()).\(last.lowercased())\(id)@example.com\",")
        writer.append("\"active\":\(random.next() % 2 == 0),\"score\":\(Double(random.next() % 10000) / 100),")
        writer.append("\"balance\":-\(random.next() % 100000).\(random.next() % 100),\"tags\":[")
        for index in 0..<Int(random.next() % 4) {
            writer.append((index > 0 ? "," : "") + "\"\(random.pick(tags))\"")
        }
        writer.append("],\"address\":{\"street\":\"\(random.next() % 999) Main St\",\"city\":\"\(city)\",")
        writer.append("\"zip\":\"\(10000 + random.next() % 89999)\",\"geo\":{\"lat\":\(Double(random.next() % 18000) / 100 - 90),")
        writer.append("\"lng\":\(Double(random.next() % 36000) / 100 - 180)}},\"orders\":[")
        for order in 0..<Int(random.next() % 3) {
            writer.append((order > 0 ? "," : "") + "{\"id\":\(id * 10 + order),\"total\":\(random.next() % 50000 / 100),")
            writer.append("\"items\":[{\"sku\":\"SKU-\(random.next() % 9999)\",\"qty\":\(1 + random.next() % 5)}]}")
        }
        let note = rare ? "\"met in \(rareWord)\"" : "null"
        writer.append("],\"notes\":\(note),\"created\":\"2024-0\(1 + random.next() % 9)-1\(random.next() % 9)T10:00:00Z\"}")
    }

    private struct Writer {
        let buffer: UnsafeMutableRawPointer
        let capacity: Int
        var count = 0

        mutating func append(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                let length = min(utf8.count, capacity - count)
                guard length > 0, let base = utf8.baseAddress else { return }
                (buffer + count).copyMemory(from: base, byteCount: length)
                count += length
            }
        }
    }
}

/// The table printed at the end.
struct ViewerReport {
    let results: [ViewerResult]

    func table() -> String {
        var rows: [(String, (ViewerResult) -> String)] = [
            ("body size", { String(format: "%.1f MB", Double($0.bytes) / 1_048_576) }),
            ("lines (pretty-printed)", { String($0.lines) }),
            ("first frame (preview drawn)", { ms($0.firstFrame) }),
            ("first frame (whole index)", { ms($0.firstFrameWithoutPreview) }),
            ("full index", { ms($0.fullIndex) }),
            ("scroll 1 line, med / max", { $0.scroll.text }),
            ("page down, med / max", { $0.pageDown.text }),
            ("jump to end, med / max", { $0.jumpToEnd.text }),
            ("fold at cursor, med / max", { $0.fold.text }),
            ("fold all, med / max", { $0.foldAll.text }),
            ("unfold all, med / max", { $0.unfoldAll.text }),
            ("page down, every item folded, med / max", { $0.pageDownFolded.text }),
            ("jump to end, every item folded, med / max", { $0.jumpToEndFolded.text }),
            ("search next (frequent), med / max", { $0.searchNextFrequent.text }),
            ("search next (rare, scanning), med / max", { $0.searchNextRareScan.text }),
            ("search next (rare, counted), med / max", { $0.searchNextRareCounted.text }),
            ("count all matches (rare)", { ms($0.countRare) }),
            ("JSONPath filter query", { ms($0.queryPath) }),
            ("line index (on top of the body)", { memory($0.indexBytes, $0.bytes) }),
            ("process before the body (runtime)", { String(format: "%.0f MB", Double($0.baselineBytes) / 1_048_576) }),
            ("peak memory after build", { memory($0.peakAfterBuildBytes, $0.bytes) }),
            ("peak memory, whole run", { memory($0.peakMemoryBytes, $0.bytes) }),
            ("jq . > /dev/null (reference)", { $0.jqFormat.map(ms) ?? "jq not installed" }),
        ]
        rows.insert(("", { "\($0.sizeMB) MB body" }), at: 0)
        let widths = [rows.map(\.0.count).max() ?? 0] + results.map { result in
            rows.map { $0.1(result).count }.max() ?? 0
        }
        var lines: [String] = ["Body viewer (times in ms; frame = operation + renderVisible of a 160×50 view)"]
        for (index, row) in rows.enumerated() {
            var cells = [row.0.padding(toLength: widths[0], withPad: " ", startingAt: 0)]
            for (column, result) in results.enumerated() {
                let text = row.1(result)
                cells.append(String(repeating: " ", count: widths[column + 1] - text.count) + text)
            }
            lines.append(cells.joined(separator: "  "))
            if index == 0 {
                lines.append(String(repeating: "-", count: widths.reduce(0, +) + 2 * results.count))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func ms(_ value: Double) -> String { String(format: "%.1f", value) }

    private func memory(_ peak: Int, _ body: Int) -> String {
        String(format: "%.0f MB (%.2f×)", Double(peak) / 1_048_576, Double(peak) / Double(max(1, body)))
    }
}
