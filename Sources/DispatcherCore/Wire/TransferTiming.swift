/// Where the time of one attempt went, hop by hop (the request, then each redirect followed), in
/// the phases curl reports: name resolution, TCP connect, TLS handshake, request sent, first byte
/// and last byte.
public struct TransferTiming: Sendable, Hashable {
    /// The exchanges on the wire, in order: the request, then each redirect followed.
    public var hops: [HopTiming]

    /// Makes a timing.
    package init(hops: [HopTiming] = []) {
        self.hops = hops
    }

    /// The hop that answered (the last one).
    public var final: HopTiming? { hops.last }

    /// curl's `time_namelookup`, `time_connect`, `time_appconnect`, `time_pretransfer` and
    /// `time_starttransfer`: each from its hop's start, and added up over the hops when redirects
    /// were followed, as libcurl adds them (its `Curl_pgrsTime`). A hop on a reused connection
    /// counts its connect and handshake as done at its start, as curl's do.
    package var curl: CurlTimes {
        var times = CurlTimes()
        for hop in hops {
            let lookup = hop.nameLookup ?? .zero
            let connect = hop.connect ?? lookup
            times.nameLookup += lookup
            times.connect += connect
            // curl says 0 for a connection without TLS, and the reuse time for a reused one.
            if hop.connection?.tlsVersion != nil || hop.tlsHandshake != nil { times.appConnect += hop.tlsHandshake ?? connect }
            times.preTransfer += hop.requestStart ?? hop.tlsHandshake ?? connect
            times.startTransfer += hop.firstByte ?? hop.lastByte ?? .zero
        }
        if let final {
            times.redirect = hops.count > 1 ? final.started : .zero
            times.total = final.started + (final.lastByte ?? final.firstByte ?? .zero)
        }
        return times
    }
}

/// One exchange on the wire and where its time went. Every instant is the time since the hop
/// started; nil means the phase did not happen (a reused connection has no connect or handshake,
/// plain HTTP no handshake) or the transfer failed before it.
public struct HopTiming: Sendable, Hashable {
    /// The URL asked for.
    public var url: String
    /// The status that came back, if a head did.
    public var status: Int?
    /// When the hop started, since the attempt did (zero for the first).
    public var started: Duration
    /// Name resolution ended (zero for an address written as such).
    public var nameLookup: Duration?
    /// The TCP connection was open.
    public var connect: Duration?
    /// The TLS handshake was done (curl's appconnect).
    public var tlsHandshake: Duration?
    /// The request was about to be written (curl's pretransfer).
    public var requestStart: Duration?
    /// The whole request, body included, was written to the socket.
    public var requestSent: Duration?
    /// The response's head arrived (curl's starttransfer).
    public var firstByte: Duration?
    /// The response's last byte arrived.
    public var lastByte: Duration?
    /// The connection the hop went over, when one was made or reused.
    public var connection: ConnectionFacts?
    /// Request body bytes sent.
    public var bytesSent: Int
    /// Response body bytes received (after decoding).
    public var bytesReceived: Int

    /// Makes a hop's timing.
    package init(
        url: String, status: Int? = nil, started: Duration = .zero, nameLookup: Duration? = nil, connect: Duration? = nil,
        tlsHandshake: Duration? = nil, requestStart: Duration? = nil, requestSent: Duration? = nil, firstByte: Duration? = nil,
        lastByte: Duration? = nil, connection: ConnectionFacts? = nil, bytesSent: Int = 0, bytesReceived: Int = 0
    ) {
        self.url = url
        self.status = status
        self.started = started
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.requestStart = requestStart
        self.requestSent = requestSent
        self.firstByte = firstByte
        self.lastByte = lastByte
        self.connection = connection
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
    }

    /// The hop's phases as consecutive spans, in curl's order, each with its start and end since
    /// the hop started; phases that did not happen are left out.
    package var phases: [Phase] {
        var phases: [Phase] = []
        var at = Duration.zero
        func add(_ name: Phase.Name, _ end: Duration?) {
            guard let end else { return }
            let clamped = max(end, at)
            phases.append(Phase(name: name, start: at, end: clamped))
            at = clamped
        }
        add(.nameLookup, nameLookup)
        add(.connect, connect)
        add(.tlsHandshake, tlsHandshake)
        add(.sending, requestSent ?? requestStart)
        add(.waiting, firstByte)
        add(.receiving, lastByte)
        return phases
    }

    /// One span of a hop.
    package struct Phase: Sendable, Hashable {
        /// What the time went to.
        package enum Name: String, Sendable, Hashable, CaseIterable {
            case nameLookup = "DNS lookup"
            case connect = "TCP connect"
            case tlsHandshake = "TLS handshake"
            case sending = "Request sent"
            case waiting = "Waiting (TTFB)"
            case receiving = "Content download"
        }
        /// The phase.
        package var name: Name
        /// Its start, since the hop started.
        package var start: Duration
        /// Its end, since the hop started.
        package var end: Duration
        /// How long it took.
        package var duration: Duration { end - start }
    }
}

/// What is known of the connection a hop went over.
public struct ConnectionFacts: Sendable, Hashable {
    /// Whether an open connection was used again (no connect, no handshake).
    public var reused: Bool
    /// The peer's address (the proxy's, through a proxy).
    public var remoteAddress: String?
    /// The peer's port.
    public var remotePort: Int?
    /// Our end's address.
    public var localAddress: String?
    /// Our end's port.
    public var localPort: Int?
    /// `TLSv1.3` …, nil for plain HTTP.
    public var tlsVersion: String?
    /// The HTTP version the connection speaks (`HTTP/1.1`, `HTTP/2`).
    public var httpVersion: String?

    /// Makes connection facts.
    package init(
        reused: Bool, remoteAddress: String? = nil, remotePort: Int? = nil, localAddress: String? = nil, localPort: Int? = nil,
        tlsVersion: String? = nil, httpVersion: String? = nil
    ) {
        self.reused = reused
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.localAddress = localAddress
        self.localPort = localPort
        self.tlsVersion = tlsVersion
        self.httpVersion = httpVersion
    }
}

/// curl's cumulative `--write-out` times, each from the start of the transfer.
package struct CurlTimes: Sendable, Hashable {
    package var nameLookup: Duration = .zero
    package var connect: Duration = .zero
    package var appConnect: Duration = .zero
    package var preTransfer: Duration = .zero
    package var startTransfer: Duration = .zero
    package var redirect: Duration = .zero
    package var total: Duration = .zero

    /// All zero.
    package init() {}
}
