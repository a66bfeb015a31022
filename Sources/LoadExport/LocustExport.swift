import Catalog
import DispatcherCore
import Expectations
import FoundationEssentials
import JSONSupport
import Sessions

/// A flow as a locustfile: one Locust user class whose task sends the flow's steps in order
/// (parallel steps one after another: concurrency comes from Locust's users), carrying captures
/// from step to step, polling `until:`, and marking a request failed when its `expect:` does not
/// hold. Each request is built the way `apiexplorer call` builds it; `{{secret.NAME}}` and
/// captured values stay placeholders filled at run time, secrets from environment variables the
/// file names, so no secret value is ever written into it.
package struct LocustExport: Sendable {
    /// The catalogs the flow's service comes from.
    package let catalog: CatalogSet

    /// An exporter for `catalog`.
    package init(catalog: CatalogSet) {
        self.catalog = catalog
    }

    /// The locustfile of `flow` in `environment`, with `values` (`--var`) under each step's own;
    /// `command` is shown in the file's heading.
    package func render(
        _ flow: Flow, of service: Service, in environment: Environment, values: [String: String] = [:], command: String
    ) async throws(LoadExportError) -> String {
        let secretNames = service.secretNames.sorted()
        let secretMarks = Dictionary(uniqueKeysWithValues: secretNames.enumerated().map { ("APIEXPLORERSECRET\($0.offset)END", $0.element) })
        let secrets = SecretStore(processEnvironment: [:], dotEnv: Dictionary(uniqueKeysWithValues: secretMarks.map { ($0.value, $0.key) }))
        let caller = EndpointCaller(catalog: catalog, secrets: secrets, transport: nil)
        var captureNames: [String] = []
        var usedSecrets = Set<String>()
        var host: String?
        var steps: [String] = []
        for step in flow.steps {
            let place = "\(step.location): step '\(step.name)'"
            guard let endpoint = service.endpoint(step.endpoint) else { throw LoadExportError("\(place): the service has no endpoint '\(step.endpoint)'") }
            var captureMarks: [String: String] = [:]
            var captured: [String: CapturedValue] = [:]
            for (index, name) in captureNames.enumerated() {
                captureMarks["APIEXPLORERCAPTURE\(index)END"] = name
                captured[name] = CapturedValue(value: "APIEXPLORERCAPTURE\(index)END", endpoint: endpoint.key, date: Date(timeIntervalSince1970: 0))
            }
            let selection = EndpointSelection(service: service, endpoint: endpoint, environment: environment)
            let outcome = await caller.call(
                selection, mode: .stub, values: values.merging(step.values) { _, own in own }, captured: captured, edits: step.body.map { EndpointEdits(body: $0) })
            if let error = outcome.exchange.error, error.kind == .invalidRequest { throw LoadExportError("\(place): \(error.message)") }
            let request = outcome.exchange.request
            guard request.streamedBody == nil else { throw LoadExportError("\(place): a file or form upload is not exported to Locust") }
            var bodyText: String?
            if let body = request.body, !body.isEmpty {
                guard let text = String(validating: body, as: UTF8.self) else { throw LoadExportError("\(place): a binary body is not exported to Locust") }
                bodyText = text
            }
            // Marks become readable placeholders the file fills at run time.
            func template(_ text: String) -> String {
                var output = text
                for (mark, name) in secretMarks where output.contains(mark) {
                    usedSecrets.insert(name)
                    output = output.replacing(mark, with: "{{secret.\(name)}}")
                }
                for (mark, name) in captureMarks where output.contains(mark) { output = output.replacing(mark, with: "{{\(name)}}") }
                return output
            }
            let (origin, target) = Self.split(request.url.absoluteString)
            if host == nil { host = origin }
            let url = origin == host ? target : origin + target
            let headers = request.headers.fields.filter { !Headers.sameName($0.name, "Content-Length") && !Headers.sameName($0.name, "Host") }
            let isJSON = request.headers["Content-Type"].map { $0.lowercased().contains("json") } ?? false

            let checks = try Self.checks(step.expectations ?? endpoint.expectations, place: place)
            let until = try step.until.map { expectations throws(LoadExportError) in try Self.checks(expectations, place: place) }
            var captures: [String] = []
            for capture in endpoint.captures + step.captures {
                let selector: String
                switch capture.selector {
                case .status: selector = "[\"status\", None]"
                case .header(let name): selector = "[\"header\", \(PythonLiteral.string(name))]"
                case .wholeBody: selector = "[\"body\", None]"
                case .body(let path):
                    guard let segments = PythonLiteral.path(path) else {
                        throw LoadExportError("\(place): the capture '\(capture.name)' uses a JSONPath filter (\(path)), which the locustfile does not evaluate")
                    }
                    selector = "[\"path\", \(segments)]"
                }
                captures.append("(\(PythonLiteral.string(capture.name)), \(selector))")
                if !captureNames.contains(capture.name) { captureNames.append(capture.name) }
            }

            var lines = ["    {  # \(Self.comment("\(step.name): \(request.method.rawValue) \(endpoint.path)"))"]
            lines.append("        \"name\": \(PythonLiteral.string("\(flow.id)/\(step.name)")),")
            lines.append("        \"method\": \(PythonLiteral.string(request.method.rawValue)),")
            lines.append("        \"url\": \(PythonLiteral.string(template(url))),")
            lines.append("        \"headers\": {")
            var seen = Set<String>()
            for field in headers where seen.insert(field.name.lowercased()).inserted {
                // A repeated header is sent once, its values joined as HTTP allows.
                let value = headers.filter { Headers.sameName($0.name, field.name) }.map(\.value).joined(separator: ", ")
                lines.append("            \(PythonLiteral.string(field.name)): \(PythonLiteral.string(template(value))),")
            }
            lines.append("        },")
            lines.append("        \"body\": \(bodyText.map { PythonLiteral.string(template($0)) } ?? "None"),")
            lines.append("        \"json\": \(isJSON ? "True" : "False"),")
            lines.append("        \"checks\": [")
            lines += checks.map { "            \($0)," }
            lines.append("        ],")
            if let until {
                lines.append("        \"until\": [")
                lines += until.map { "            \($0)," }
                lines.append("        ],")
            } else {
                lines.append("        \"until\": None,")
            }
            lines.append("        \"interval\": \(Self.seconds(step.interval)),")
            lines.append("        \"limit\": \(Self.seconds(step.limit)),")
            lines.append("        \"captures\": [\(captures.joined(separator: ", "))],")
            lines.append("    },")
            steps.append(lines.joined(separator: "\n"))
        }

        var file = [
            "# A Locust load test of the flow '\(Self.comment(flow.id))' of service '\(Self.comment(service.id))' (\(Self.comment(flow.title))),",
            "# environment '\(Self.comment(environment.name))', written by `\(Self.comment(command))`.",
            "# Run: locust -f THIS_FILE --headless -u 10 -r 10 -t 30s [--host URL]; distributed with --master / --worker.",
            "# Secrets are read from the environment variables named below; none is written in this file.",
            "import json",
            "import os",
            "import re",
            "import sys",
            "import time",
            "from urllib.parse import quote",
            "",
            "from locust import HttpUser, task",
            "",
            "# The secret {{secret.NAME}} stands for, and the variables its value is read from (the first set wins).",
            "SECRET_VARIABLES = {",
        ]
        for name in secretNames where usedSecrets.contains(name) {
            let variables = SecretStore.environmentVariables(for: name, in: Self.trusted(service))
            file.append("    \(PythonLiteral.string(name)): [\(variables.map(PythonLiteral.string).joined(separator: ", "))],")
        }
        file += ["}", "# Values a step captures for the steps after it ({{name}}).", "CAPTURE_NAMES = {\(captureNames.map(PythonLiteral.string).joined(separator: ", "))}", ""]
        file.append(LocustRuntime.helpers)
        file += ["", "", "STEPS = ["] + steps + ["]", "", ""]
        file += [
            "class \(PythonLiteral.className(service.id + "-" + flow.id))User(HttpUser):",
            "    host = \(PythonLiteral.string(host ?? "http://127.0.0.1"))",
            "",
            "    @task",
            "    def \(Self.functionName(flow.id))(self):",
            "        captured = {}",
            "        for step in STEPS:",
            "            if not _send(self.client, captured, step):",
            "                return",
        ]
        return file.joined(separator: "\n") + "\n"
    }

    /// Each assertion as `(subject, path, singular, predicate, message)`.
    static func checks(_ expectations: ResponseExpectations, place: String) throws(LoadExportError) -> [String] {
        var checks: [String] = []
        for assertion in expectations.assertions {
            let predicate = PythonLiteral.predicate(assertion.predicate)
            let message = PythonLiteral.string((assertion.place.isEmpty ? "" : assertion.place + ": ") + "expected \(assertion)")
            switch assertion.subject {
            case .status: checks.append("(\"status\", None, True, \(predicate), \(message))")
            case .bodySize: checks.append("(\"bodySize\", None, True, \(predicate), \(message))")
            case .time: checks.append("(\"time\", None, True, \(predicate), \(message))")
            case .rpcStatus:
                throw LoadExportError("\(place): the check '\(assertion)' is on a gRPC status, and a locustfile makes HTTP requests only")
            case .header(let name): checks.append("(\"header\", \(PythonLiteral.string(name)), True, \(predicate), \(message))")
            case .body(let path):
                guard let segments = PythonLiteral.path(path) else {
                    throw LoadExportError("\(place): the check '\(assertion)' uses a JSONPath filter, which the locustfile does not evaluate")
                }
                checks.append("(\"path\", \(segments), \(path.isSingular ? "True" : "False"), \(predicate), \(message))")
            }
        }
        return checks
    }

    /// `http://host:port` and `/path?query` of a URL.
    static func split(_ url: String) -> (origin: String, target: String) {
        guard let scheme = url.firstRange(of: "://") else { return ("", url) }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return (url, "/") }
        let target = String(url[slash...])
        return (String(url[..<slash]), target.hasPrefix("?") ? "/" + target : target)
    }

    /// A service as if trusted: the file names the variables a trusted catalog reads secrets from.
    private static func trusted(_ service: Service) -> Service {
        var copy = service
        copy.isTrusted = true
        return copy
    }

    static func seconds(_ duration: Duration) -> String {
        JSONValue.double(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18).compactText
    }

    /// Text safe on one comment line.
    static func comment(_ text: String) -> String {
        String(text.map { $0.isNewline || ($0.asciiValue.map { $0 < 0x20 } ?? false) ? " " : $0 })
    }

    static func functionName(_ text: String) -> String {
        let name = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? Character($0.lowercased()) : "_" })
        return name.first?.isNumber ?? true ? "flow_" + name : name
    }
}

/// Why a flow cannot be exported.
package struct LoadExportError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, with the catalog place.
    package var message: String

    init(_ message: String) { self.message = message }

    package var description: String { message }
}
