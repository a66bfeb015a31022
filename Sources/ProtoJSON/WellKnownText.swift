import TextSupport

/// The text forms of Timestamp, Duration and FieldMask in the JSON mapping.
enum WellKnownText {
    static let minimumTimestamp: Int64 = -62_135_596_800  // 0001-01-01T00:00:00Z
    static let maximumTimestamp: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z
    static let maximumDuration: Int64 = 315_576_000_000  // 10,000 years

    /// RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits: `1972-01-01T10:00:20.021Z`.
    static func timestamp(seconds: Int64, nanos: Int32) throws(ProtoCodecError) -> String {
        guard (minimumTimestamp...maximumTimestamp).contains(seconds) else {
            throw ProtoCodecError("a Timestamp of \(seconds) seconds is outside 0001-01-01T00:00:00Z…9999-12-31T23:59:59Z")
        }
        guard (0..<1_000_000_000).contains(nanos) else { throw ProtoCodecError("a Timestamp's nanos (\(nanos)) are outside 0…999999999") }
        let secondsOfDay = Int(((seconds % 86_400) + 86_400) % 86_400)
        let days = Int((seconds - Int64(secondsOfDay)) / 86_400)
        let date = CivilDate.fromDays(days)
        let pad = DecimalText.zeroPadded
        return "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))T\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))"
            + fraction(nanos) + "Z"
    }

    /// `.021`, `.000001`, `.000000001` or nothing: the fewest of 0, 3, 6 or 9 digits that hold `nanos`.
    private static func fraction(_ nanos: Int32) -> String {
        if nanos == 0 { return "" }
        if nanos % 1_000_000 == 0 { return "." + DecimalText.zeroPadded(Int(nanos / 1_000_000), width: 3) }
        if nanos % 1000 == 0 { return "." + DecimalText.zeroPadded(Int(nanos / 1000), width: 6) }
        return "." + DecimalText.zeroPadded(Int(nanos), width: 9)
    }

    /// Reads RFC 3339: `YYYY-MM-DDTHH:MM:SS`, up to 9 fractional digits, then `Z` or an offset `±HH:MM`.
    static func timestamp(_ text: String) throws(ProtoCodecError) -> (seconds: Int64, nanos: Int32) {
        let bytes = Array(text.utf8)
        func fail() -> ProtoCodecError { ProtoCodecError("\(ProtoCodecError.quoted(text)) is not an RFC 3339 time such as \"1972-01-01T10:00:20.021Z\"") }
        func number(_ range: Range<Int>) throws(ProtoCodecError) -> Int {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy(NumberText.isDigit) else { throw fail() }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        func expect(_ character: Character, at index: Int) throws(ProtoCodecError) {
            guard index < bytes.count, bytes[index] == character.asciiValue else { throw fail() }
        }
        let year = try number(0..<4)
        try expect("-", at: 4)
        let month = try number(5..<7)
        try expect("-", at: 7)
        let day = try number(8..<10)
        try expect("T", at: 10)
        let hour = try number(11..<13)
        try expect(":", at: 13)
        let minute = try number(14..<16)
        try expect(":", at: 16)
        let second = try number(17..<19)
        var index = 19
        var nanos = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, NumberText.isDigit(bytes[index]) { index += 1 }
            let count = index - start
            guard (1...9).contains(count) else {
                throw ProtoCodecError("\(ProtoCodecError.quoted(text)) has \(count) fractional digits (1 to 9 are allowed)")
            }
            nanos = try number(start..<index)
            for _ in count..<9 { nanos *= 10 }
        }
        var offset = 0
        guard index < bytes.count else { throw fail() }
        if bytes[index] == UInt8(ascii: "Z") {
            index += 1
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            let hours = try number(index + 1..<index + 3)
            try expect(":", at: index + 3)
            let minutes = try number(index + 4..<index + 6)
            guard hours < 24, minutes < 60 else { throw fail() }
            offset = sign * (hours * 3600 + minutes * 60)
            index += 6
        } else {
            throw fail()
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 60 else {
            throw fail()
        }
        let seconds = Int64(CivilDate.days(year: year, month: month, day: day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        guard (minimumTimestamp...maximumTimestamp).contains(seconds) else {
            throw ProtoCodecError("\(ProtoCodecError.quoted(text)) is outside 0001-01-01T00:00:00Z…9999-12-31T23:59:59Z")
        }
        return (seconds, Int32(nanos))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Seconds with 0, 3, 6 or 9 fractional digits and an `s`: `1.500s`, `-0.000000001s`.
    static func duration(seconds: Int64, nanos: Int32) throws(ProtoCodecError) -> String {
        try checkDuration(seconds: seconds, nanos: nanos)
        let negative = seconds < 0 || nanos < 0
        return (negative ? "-" : "") + String(seconds.magnitude) + fraction(Int32(nanos.magnitude)) + "s"
    }

    private static func checkDuration(seconds: Int64, nanos: Int32) throws(ProtoCodecError) {
        guard (-maximumDuration...maximumDuration).contains(seconds) else {
            throw ProtoCodecError("a Duration of \(seconds) seconds is outside ±\(maximumDuration)s")
        }
        guard nanos > -1_000_000_000, nanos < 1_000_000_000 else { throw ProtoCodecError("a Duration's nanos (\(nanos)) are outside ±999999999") }
        guard !(seconds < 0 && nanos > 0), !(seconds > 0 && nanos < 0) else {
            throw ProtoCodecError("a Duration's seconds (\(seconds)) and nanos (\(nanos)) have different signs")
        }
    }

    /// Reads `-?SECONDS(.FRACTION)?s` with up to 9 fractional digits.
    static func duration(_ text: String) throws(ProtoCodecError) -> (seconds: Int64, nanos: Int32) {
        var bytes = Array(text.utf8)[...]
        func fail() -> ProtoCodecError { ProtoCodecError("\(ProtoCodecError.quoted(text)) is not a duration such as \"1.5s\"") }
        guard bytes.last == UInt8(ascii: "s") else { throw fail() }
        bytes = bytes.dropLast()
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let whole = bytes.prefix(while: NumberText.isDigit)
        bytes = bytes.dropFirst(whole.count)
        guard !whole.isEmpty, whole.count <= 12 else { throw fail() }
        var nanos: Int64 = 0
        if !bytes.isEmpty {
            guard bytes.first == UInt8(ascii: ".") else { throw fail() }
            let fraction = bytes.dropFirst()
            guard (1...9).contains(fraction.count), fraction.allSatisfy(NumberText.isDigit) else { throw fail() }
            nanos = fraction.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            for _ in fraction.count..<9 { nanos *= 10 }
        }
        var seconds = whole.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        if negative {
            seconds = -seconds
            nanos = -nanos
        }
        guard (-maximumDuration...maximumDuration).contains(seconds) else {
            throw ProtoCodecError("\(ProtoCodecError.quoted(text)) is outside ±\(maximumDuration)s")
        }
        return (seconds, Int32(nanos))
    }

    /// Paths in lowerCamelCase joined by commas: `user.displayName,photo`.
    static func fieldMask(_ paths: [String]) throws(ProtoCodecError) -> String {
        var result: [String] = []
        for path in paths {
            var camel = ""
            var upperNext = false
            for character in path {
                if character.isUppercase {
                    throw ProtoCodecError("the FieldMask path \(ProtoCodecError.quoted(path)) has an upper-case letter, which lowerCamelCase cannot write")
                }
                if upperNext {
                    guard character.isLowercase else {
                        throw ProtoCodecError("the FieldMask path \(ProtoCodecError.quoted(path)) has '_' before a character that is not a lower-case letter")
                    }
                    camel += character.uppercased()
                    upperNext = false
                } else if character == "_" {
                    upperNext = true
                } else {
                    camel.append(character)
                }
            }
            guard !upperNext else { throw ProtoCodecError("the FieldMask path \(ProtoCodecError.quoted(path)) ends with '_'") }
            result.append(camel)
        }
        return result.joined(separator: ",")
    }

    /// Comma-separated lowerCamelCase paths back to snake_case.
    static func fieldMask(_ text: String) throws(ProtoCodecError) -> [String] {
        guard !text.isEmpty else { return [] }
        var paths: [String] = []
        for path in text.split(separator: ",", omittingEmptySubsequences: false) {
            var snake = ""
            for character in path {
                if character == "_" { throw ProtoCodecError("the FieldMask path \(ProtoCodecError.quoted(String(path))) has '_': paths are lowerCamelCase") }
                if character.isUppercase {
                    snake += "_" + character.lowercased()
                } else {
                    snake.append(character)
                }
            }
            paths.append(snake)
        }
        return paths
    }
}
