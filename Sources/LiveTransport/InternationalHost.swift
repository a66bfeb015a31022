import CIDN2
import DispatcherCore
import FoundationEssentials
import TextSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Host names with letters beyond ASCII (`bücher.example`) in their ASCII form
/// (`xn--bcher-kva.example`), as curl built with libidn2 sends them: IDNA2008 with Unicode TR46,
/// non-transitional, input normalized (NFC), falling back to transitional processing for a name
/// that form disallows (curl's `idn2_to_ascii_8z` calls). DNS, `Host`, TLS's SNI and the cookie jar
/// all see the ASCII form.
enum InternationalHost {
    /// `url` with its host in ASCII form; `url` itself when the host is ASCII already.
    static func ascii(_ url: URL) throws(TransportError) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let encoded = components.percentEncodedHost else { return url }
        let host = PercentEncoding.decode(encoded) ?? encoded
        guard host.utf8.contains(where: { $0 >= 0x80 }) else { return url }
        guard let ascii = ascii(host) else {
            throw TransportError(
                .cannotFindHost, message: "The host name '\(host)' is not a valid internationalized name (libidn2 cannot give its ASCII form).")
        }
        components.percentEncodedHost = ascii
        return components.url ?? url
    }

    /// The ASCII form of a host name; nil when libidn2 refuses it.
    static func ascii(_ host: String) -> String? {
        func convert(_ flags: Int32) -> (Int32, String?) {
            var output: UnsafeMutablePointer<CChar>?
            let status = idn2_to_ascii_8z(host, &output, flags)
            defer { idn2_free(output) }
            return (status, status == Int32(IDN2_OK.rawValue) ? output.map { String(cString: $0) } : nil)
        }
        let nfc = Int32(IDN2_NFC_INPUT.rawValue)
        let (status, ascii) = convert(nfc | Int32(IDN2_NONTRANSITIONAL.rawValue))
        if let ascii { return ascii }
        guard status == Int32(IDN2_DISALLOWED.rawValue) else { return nil }
        return convert(nfc | Int32(IDN2_TRANSITIONAL.rawValue)).1
    }
}
