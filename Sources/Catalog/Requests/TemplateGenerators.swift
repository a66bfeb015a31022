import DispatcherCore
import FoundationEssentials
import SystemSupport
import TextSupport

/// The built-in generators of the template language: `{{$uuid}}`, `{{$timestamp}}`,
/// `{{$randomInt 1 100}}`, `{{$datetime iso8601 -1 d}}` … make a new value each time a request is
/// built, under the names the JetBrains HTTP Client, VS Code REST Client and Postman use, so their
/// files keep working after an import. Clock, randomness and zone are injected (tests pin them).
package struct TemplateGenerators: Sendable {
    /// The current time.
    package var now: @Sendable () -> Date
    /// A random integer in the range.
    package var randomInt: @Sendable (ClosedRange<Int>) -> Int
    /// A random UUID.
    package var uuid: @Sendable () -> UUID
    /// Local time minus UTC at an instant (seconds since 1970), for `$localDatetime`.
    package var localOffset: @Sendable (Int64) -> Int

    /// Makes generators from their sources.
    package init(
        now: @escaping @Sendable () -> Date, randomInt: @escaping @Sendable (ClosedRange<Int>) -> Int, uuid: @escaping @Sendable () -> UUID,
        localOffset: @escaping @Sendable (Int64) -> Int
    ) {
        self.now = now
        self.randomInt = randomInt
        self.uuid = uuid
        self.localOffset = localOffset
    }

    /// The system clock, random numbers and zone.
    package static let system = TemplateGenerators(
        now: { Date() }, randomInt: { Int.random(in: $0) }, uuid: { UUID() },
        localOffset: { instant in LocalTimeZone.system(now: instant, yearsBefore: 0, yearsAfter: 0).secondsFromGMT(at: instant) })

    /// The names `{{$name …}}` may use, for messages.
    package static let names = ["$uuid", "$guid", "$random.uuid", "$randomUUID", "$timestamp", "$isoTimestamp", "$randomInt", "$datetime", "$localDatetime"]

    /// Whether a placeholder's name is a generator's (`$uuid`, `$randomInt 1 10` …); `$processEnv`
    /// and `$dotenv` are secrets, not generators.
    package static func isGenerator(_ name: String) -> Bool {
        guard name.hasPrefix("$") else { return false }
        return names.contains(String(name.prefix { $0 != " " }))
    }

    /// `NAME` when a placeholder reads the environment as the REST Client writes it
    /// (`$processEnv NAME`, `$dotenv NAME`): a secret, read by the secret rules.
    package static func secretRead(_ name: String) -> String? {
        name.hasPrefix("$") ? Placeholder(name).secretName : nil
    }

    /// The value of a generator placeholder; nil when the name is not a generator's, a failure
    /// saying how to write it when its arguments are wrong.
    package func value(for name: String) -> Result<String, GeneratorError>? {
        guard Self.isGenerator(name) else { return nil }
        let words = Self.words(name)
        let arguments = Array(words.dropFirst())
        switch words[0] {
        case "$uuid", "$guid", "$random.uuid", "$randomUUID":
            guard arguments.isEmpty else { return .failure(GeneratorError("\(words[0]) takes no arguments")) }
            return .success(uuid().uuidString.lowercased())
        case "$timestamp":
            return Self.offset(arguments, name: "$timestamp").map { offset in
                String(Int64((offset.apply(to: now())).timeIntervalSince1970.rounded(.down)))
            }
        case "$isoTimestamp":
            guard arguments.isEmpty else { return .failure(GeneratorError("$isoTimestamp takes no arguments")) }
            return .success(DateText.iso8601(now(), offset: 0, milliseconds: true))
        case "$randomInt":
            if arguments.isEmpty { return .success(String(randomInt(0...1000))) }
            guard arguments.count == 2, let low = Int(arguments[0]), let high = Int(arguments[1]), low < high else {
                return .failure(GeneratorError("$randomInt takes no arguments or two whole numbers, the second larger: {{$randomInt 1 100}}"))
            }
            // REST Client's range: the lower bound included, the upper one not.
            return .success(String(randomInt(low...(high - 1))))
        case "$datetime", "$localDatetime":
            let local = words[0] == "$localDatetime"
            guard let format = arguments.first else {
                return .failure(GeneratorError("\(words[0]) needs a format: rfc1123, iso8601 or a quoted pattern such as \"YYYY-MM-DD\""))
            }
            // A pattern of one's own is quoted (`"DD-MM-YYYY"`), as REST Client writes it.
            let quoted = name.contains("\"") || name.contains("'")
            guard quoted || format == "rfc1123" || format == "iso8601" else {
                return .failure(GeneratorError("'\(format)' is not a date format: use rfc1123, iso8601 or a quoted pattern such as \"YYYY-MM-DD HH:mm\""))
            }
            return Self.offset(Array(arguments.dropFirst()), name: words[0]).flatMap { offset in
                let date = offset.apply(to: now())
                let seconds = local ? localOffset(Int64(date.timeIntervalSince1970.rounded(.down))) : 0
                return DateText.format(date, pattern: format, offset: seconds)
            }
        default:
            return nil
        }
    }

    /// Words split at spaces, a quoted pattern (`"DD MMM YYYY"`, `'…'`) kept as one word without its quotes.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        for character in name {
            if let open = quote {
                if character == open {
                    words.append(current)
                    current = ""
                    quote = nil
                } else {
                    current.append(character)
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `-1 d`, `3 h` after a generator's other arguments.
    static func offset(_ arguments: [String], name: String) -> Result<DateOffset, GeneratorError> {
        if arguments.isEmpty { return .success(DateOffset(amount: 0, unit: "s")) }
        guard arguments.count == 2, let amount = Int(arguments[0]), DateOffset.units.contains(arguments[1]) else {
            return .failure(GeneratorError("\(name)'s offset is a whole number and a unit (y, M, w, d, h, m, s, ms): {{\(name)\(name == "$timestamp" ? "" : " iso8601") -1 d}}"))
        }
        return .success(DateOffset(amount: amount, unit: arguments[1]))
    }

    /// Why a generator's arguments cannot be read.
    package struct GeneratorError: Error, Sendable, Hashable {
        /// What is wrong and how to write it.
        package var message: String

        init(_ message: String) { self.message = message }
    }
}

/// An amount of time added to now (`-1 d`): months and years on the calendar, the rest in seconds.
struct DateOffset {
    static let units: Set<String> = ["y", "M", "w", "d", "h", "m", "s", "ms"]

    var amount: Int
    var unit: String

    func apply(to date: Date) -> Date {
        switch unit {
        case "y": return DateText.addingMonths(12 * amount, to: date)
        case "M": return DateText.addingMonths(amount, to: date)
        case "w": return date.addingTimeInterval(Double(amount) * 7 * 86_400)
        case "d": return date.addingTimeInterval(Double(amount) * 86_400)
        case "h": return date.addingTimeInterval(Double(amount) * 3_600)
        case "m": return date.addingTimeInterval(Double(amount) * 60)
        case "ms": return date.addingTimeInterval(Double(amount) / 1_000)
        default: return date.addingTimeInterval(Double(amount))
        }
    }
}

/// Dates written as text by civil-calendar arithmetic (proleptic Gregorian), so no zone database is needed.
enum DateText {
    struct Civil {
        var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int, weekday: Int
    }

    /// The civil date and time at `date` plus `offset` seconds.
    static func civil(_ date: Date, offset: Int) -> Civil {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded(.down)) + Int64(offset) * 1_000
        let (days, millisecondOfDay) = floorDivision(totalMilliseconds, 86_400_000)
        let (year, month, day) = CivilDate.fromDays(Int(days))
        let seconds = Int(millisecondOfDay / 1_000)
        // 1970-01-01 was a Thursday (4, with Sunday 0).
        let weekday = Int(((days % 7) + 11) % 7)
        return Civil(
            year: year, month: month, day: day, hour: seconds / 3_600, minute: seconds / 60 % 60, second: seconds % 60,
            millisecond: Int(millisecondOfDay % 1_000), weekday: weekday)
    }

    static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        return (quotient, value - quotient * divisor)
    }

    /// `date` moved by `months` on the calendar (UTC), the day clamped to the month's last.
    static func addingMonths(_ months: Int, to date: Date) -> Date {
        let civil = civil(date, offset: 0)
        let index = civil.year * 12 + (civil.month - 1) + months
        let year = Int((Double(index) / 12).rounded(.down))
        let month = index - year * 12 + 1
        let lastDay = CivilDate.days(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1) - CivilDate.days(year: year, month: month, day: 1)
        let days = CivilDate.days(year: year, month: month, day: min(civil.day, lastDay))
        let seconds = Double(days) * 86_400 + Double(civil.hour * 3_600 + civil.minute * 60 + civil.second) + Double(civil.millisecond) / 1_000
        return Date(timeIntervalSince1970: seconds)
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `2024-05-01T12:00:00Z` (or `+02:00`), with `.123` when `milliseconds`.
    static func iso8601(_ date: Date, offset: Int, milliseconds: Bool = false) -> String {
        let pattern = milliseconds ? "YYYY-MM-DDTHH:mm:ss.SSS" : "YYYY-MM-DDTHH:mm:ss"
        return render(date, pattern: pattern, offset: offset) + (offset == 0 ? "Z" : zone(offset, colon: true))
    }

    /// `rfc1123`, `iso8601` or a Day.js pattern (as REST Client writes them).
    static func format(_ date: Date, pattern: String, offset: Int) -> Result<String, TemplateGenerators.GeneratorError> {
        switch pattern {
        case "rfc1123":
            // An RFC 1123 date is in GMT whatever the zone asked for.
            let text = render(date, pattern: "ddd, DD MMM YYYY HH:mm:ss", offset: 0)
            return .success(text + " GMT")
        case "iso8601": return .success(iso8601(date, offset: offset))
        default:
            guard pattern.contains(where: { "YMDHhmsSAaZ".contains($0) }) else {
                return .failure(.init("'\(pattern)' is not a date format: use rfc1123, iso8601 or a pattern such as \"YYYY-MM-DD HH:mm\""))
            }
            return .success(render(date, pattern: pattern, offset: offset))
        }
    }

    /// A Day.js-style pattern: YYYY YY MMMM MMM MM M DD D dddd ddd HH H hh h mm m ss s SSS A a Z ZZ, `[text]` literal.
    static func render(_ date: Date, pattern: String, offset: Int) -> String {
        let c = civil(date, offset: offset)
        let tokens = ["YYYY", "YY", "MMMM", "MMM", "MM", "M", "DD", "D", "dddd", "ddd", "HH", "H", "hh", "h", "mm", "m", "ss", "s", "SSS", "A", "a", "ZZ", "Z"]
        func two(_ value: Int) -> String { DecimalText.zeroPadded(value, width: 2) }
        let hour12 = c.hour % 12 == 0 ? 12 : c.hour % 12
        var output = ""
        var rest = Substring(pattern)
        while let first = rest.first {
            if first == "[", let close = rest.firstIndex(of: "]") {
                output += rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                continue
            }
            guard let token = tokens.first(where: { rest.hasPrefix($0) }) else {
                output.append(first)
                rest = rest.dropFirst()
                continue
            }
            switch token {
            case "YYYY": output += DecimalText.zeroPadded(c.year, width: 4)
            case "YY": output += two(((c.year % 100) + 100) % 100)
            case "MMMM": output += monthNames[c.month - 1]
            case "MMM": output += monthNames[c.month - 1].prefix(3)
            case "MM": output += two(c.month)
            case "M": output += String(c.month)
            case "DD": output += two(c.day)
            case "D": output += String(c.day)
            case "dddd": output += dayNames[c.weekday]
            case "ddd": output += dayNames[c.weekday].prefix(3)
            case "HH": output += two(c.hour)
            case "H": output += String(c.hour)
            case "hh": output += two(hour12)
            case "h": output += String(hour12)
            case "mm": output += two(c.minute)
            case "m": output += String(c.minute)
            case "ss": output += two(c.second)
            case "s": output += String(c.second)
            case "SSS": output += DecimalText.zeroPadded(c.millisecond, width: 3)
            case "A": output += c.hour < 12 ? "AM" : "PM"
            case "a": output += c.hour < 12 ? "am" : "pm"
            case "ZZ": output += zone(offset, colon: false)
            default: output += zone(offset, colon: true)
            }
            rest = rest.dropFirst(token.count)
        }
        return output
    }

    /// `+02:00` / `+0200`.
    static func zone(_ offset: Int, colon: Bool) -> String {
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + DecimalText.zeroPadded(minutes / 60, width: 2) + (colon ? ":" : "") + DecimalText.zeroPadded(minutes % 60, width: 2)
    }
}
