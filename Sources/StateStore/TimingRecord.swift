import DispatcherCore
import FoundationEssentials
import JSONSupport

/// Where a request's time went, as kept in the history and printed by `call --json`: curl's
/// `--write-out` figures of the last attempt (seconds, as curl prints them), then every attempt's
/// hops with their phases (milliseconds since the hop started).
package struct TimingRecord: Sendable, Hashable, Codable {
    /// curl's `time_namelookup` … `time_total` of the last attempt, in seconds.
    package var timeNamelookup, timeConnect, timeAppconnect, timePretransfer, timeStarttransfer, timeRedirect, timeTotal: Double
    /// curl's `num_redirects`, `num_connects`, `size_download`, `size_upload`, `speed_download`
    /// (bytes a second), `remote_ip` and `remote_port` of the last attempt.
    package var numRedirects, numConnects, sizeDownload, sizeUpload, speedDownload: Int
    package var remoteIP: String?
    package var remotePort: Int?
    /// Every attempt that went over the network (retries first), each its hops in order.
    package var attempts: [[HopRecord]]

    private enum CodingKeys: String, CodingKey {
        case timeNamelookup = "time_namelookup", timeConnect = "time_connect", timeAppconnect = "time_appconnect"
        case timePretransfer = "time_pretransfer", timeStarttransfer = "time_starttransfer", timeRedirect = "time_redirect"
        case timeTotal = "time_total", numRedirects = "num_redirects", numConnects = "num_connects", sizeDownload = "size_download"
        case sizeUpload = "size_upload", speedDownload = "speed_download", remoteIP = "remote_ip", remotePort = "remote_port", attempts
    }

    /// The record of an exchange's attempts, URLs through `redactor`; nil when none went over the network.
    package init?(_ transfers: [TransferTiming], redactor: Redactor) {
        guard let last = transfers.last else { return nil }
        let times = last.curl
        timeNamelookup = Self.seconds(times.nameLookup)
        timeConnect = Self.seconds(times.connect)
        timeAppconnect = Self.seconds(times.appConnect)
        timePretransfer = Self.seconds(times.preTransfer)
        timeStarttransfer = Self.seconds(times.startTransfer)
        timeRedirect = Self.seconds(times.redirect)
        timeTotal = Self.seconds(times.total)
        numRedirects = max(last.hops.count - 1, 0)
        numConnects = last.hops.count { $0.connection?.reused == false }
        sizeDownload = last.final?.bytesReceived ?? 0
        sizeUpload = last.final?.bytesSent ?? 0
        let microseconds = times.total.seconds * 1_000_000
        speedDownload = microseconds > 0 ? Int(Double(sizeDownload) * 1_000_000 / microseconds) : 0
        remoteIP = last.final?.connection?.remoteAddress
        remotePort = last.final?.connection?.remotePort
        attempts = transfers.map { $0.hops.map { HopRecord($0, redactor: redactor) } }
    }

    /// The last attempt as the core's value again (for figures and the waterfall).
    package var lastTransfer: TransferTiming { TransferTiming(hops: (attempts.last ?? []).map(\.hopTiming)) }

    /// Seconds to the microsecond, as curl prints them.
    static func seconds(_ duration: Duration) -> Double {
        (duration.seconds * 1_000_000).rounded() / 1_000_000
    }

    var json: JSONValue {
        HistoryEntry.sortedObject([
            ("time_namelookup", .double(timeNamelookup)), ("time_connect", .double(timeConnect)),
            ("time_appconnect", .double(timeAppconnect)), ("time_pretransfer", .double(timePretransfer)),
            ("time_starttransfer", .double(timeStarttransfer)), ("time_redirect", .double(timeRedirect)),
            ("time_total", .double(timeTotal)), ("attempts", .array(attempts.map { .array($0.map(\.json)) })),
            ("num_redirects", .integer(numRedirects)), ("num_connects", .integer(numConnects)), ("size_download", .integer(sizeDownload)),
            ("size_upload", .integer(sizeUpload)), ("speed_download", .integer(speedDownload)), ("remote_ip", remoteIP.map(JSONValue.string)),
            ("remote_port", remotePort.map(JSONValue.integer)),
        ])
    }
}

/// One hop as recorded: its phases in milliseconds since it started (absent: did not happen).
package struct HopRecord: Sendable, Hashable, Codable {
    package var url: String
    package var status: Int?
    package var startedMs: Double
    package var dnsMs, connectMs, tlsMs, requestStartMs, requestSentMs, firstByteMs, lastByteMs: Double?
    /// Whether the connection was used again.
    package var reused: Bool?
    package var remoteIP: String?
    package var remotePort: Int?
    package var localIP: String?
    package var localPort: Int?
    package var tlsVersion: String?
    package var httpVersion: String?
    package var sizeUpload: Int
    package var sizeDownload: Int

    init(_ hop: HopTiming, redactor: Redactor) {
        url = redactor.url(hop.url)
        status = hop.status
        startedMs = Self.milliseconds(hop.started)
        dnsMs = hop.nameLookup.map(Self.milliseconds)
        connectMs = hop.connect.map(Self.milliseconds)
        tlsMs = hop.tlsHandshake.map(Self.milliseconds)
        requestStartMs = hop.requestStart.map(Self.milliseconds)
        requestSentMs = hop.requestSent.map(Self.milliseconds)
        firstByteMs = hop.firstByte.map(Self.milliseconds)
        lastByteMs = hop.lastByte.map(Self.milliseconds)
        reused = hop.connection?.reused
        remoteIP = hop.connection?.remoteAddress
        remotePort = hop.connection?.remotePort
        localIP = hop.connection?.localAddress
        localPort = hop.connection?.localPort
        tlsVersion = hop.connection?.tlsVersion
        httpVersion = hop.connection?.httpVersion
        sizeUpload = hop.bytesSent
        sizeDownload = hop.bytesReceived
    }

    /// The hop as the core's value again.
    var hopTiming: HopTiming {
        func duration(_ ms: Double?) -> Duration? { ms.map { .microseconds(Int64(($0 * 1000).rounded())) } }
        let connection = reused.map {
            ConnectionFacts(
                reused: $0, remoteAddress: remoteIP, remotePort: remotePort, localAddress: localIP, localPort: localPort, tlsVersion: tlsVersion,
                httpVersion: httpVersion)
        }
        return HopTiming(
            url: url, status: status, started: duration(startedMs) ?? .zero, nameLookup: duration(dnsMs), connect: duration(connectMs),
            tlsHandshake: duration(tlsMs), requestStart: duration(requestStartMs), requestSent: duration(requestSentMs),
            firstByte: duration(firstByteMs), lastByte: duration(lastByteMs), connection: connection, bytesSent: sizeUpload,
            bytesReceived: sizeDownload)
    }

    /// Milliseconds to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        (duration.seconds * 1_000_000).rounded() / 1000
    }

    var json: JSONValue {
        HistoryEntry.sortedObject([
            ("url", .string(url)), ("status", status.map(JSONValue.integer)), ("startedMs", .double(startedMs)),
            ("dnsMs", dnsMs.map(JSONValue.double)), ("connectMs", connectMs.map(JSONValue.double)), ("tlsMs", tlsMs.map(JSONValue.double)),
            ("requestStartMs", requestStartMs.map(JSONValue.double)), ("requestSentMs", requestSentMs.map(JSONValue.double)),
            ("firstByteMs", firstByteMs.map(JSONValue.double)), ("lastByteMs", lastByteMs.map(JSONValue.double)),
            ("reused", reused.map(JSONValue.bool)), ("remoteIP", remoteIP.map(JSONValue.string)), ("remotePort", remotePort.map(JSONValue.integer)),
            ("localIP", localIP.map(JSONValue.string)), ("localPort", localPort.map(JSONValue.integer)),
            ("tlsVersion", tlsVersion.map(JSONValue.string)), ("httpVersion", httpVersion.map(JSONValue.string)),
            ("sizeUpload", .integer(sizeUpload)), ("sizeDownload", .integer(sizeDownload)),
        ])
    }
}
