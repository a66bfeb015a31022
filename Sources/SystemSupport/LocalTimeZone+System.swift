#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

extension LocalTimeZone {
    /// The system's zone (`TZ`, else `/etc/localtime`) as the C library applies it, sampled from
    /// `yearsBefore` years before `now` to `yearsAfter` after: times in the history and token
    /// expiries fall in that span.
    package static func system(now: Int64, yearsBefore: Int64 = 4, yearsAfter: Int64 = 1) -> LocalTimeZone {
        tzset()
        let year: Int64 = 366 * 86_400
        return sampling(from: now - yearsBefore * year, to: now + yearsAfter * year) { instant in
            var time = time_t(instant)
            var parts = tm()
            guard localtime_r(&time, &parts) != nil else { return 0 }
            return Int(parts.tm_gmtoff)
        }
    }
}
