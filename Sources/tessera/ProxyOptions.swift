import ArgumentParser
import Foundation
import TesseraHTTP

/// `--trusted-proxy`: the reverse proxies in front of `tessera serve` whose forwarding headers name the client.
struct ProxyOptions: ParsableArguments {
    @Option(name: .customLong("trusted-proxy"), help: "A reverse proxy's address or network (10.0.0.0/8) whose X-Forwarded-For or Forwarded header names the client, for the per-client rate limits (repeatable; or TESSERA_TRUSTED_PROXIES, comma-separated). Without one, the connecting address is the client.")
    var trustedProxies: [String] = []

    @Option(name: .customLong("forwarded-header"), help: "The one header the trusted proxies write the client into: x-forwarded-for or forwarded (or TESSERA_FORWARDED_HEADER). Without it, X-Forwarded-For, else Forwarded when a request has no X-Forwarded-For.")
    var forwardedHeader: String?

    /// The proxies given, checked.
    /// - Throws: ``CommandFailure`` (exit code 2) naming the flag or variable and the entry that is not an address.
    func load(_ environment: [String: String]) throws -> TrustedProxies {
        let (entries, source): ([String], String) = trustedProxies.isEmpty
            ? ((environment["TESSERA_TRUSTED_PROXIES"] ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }, "TESSERA_TRUSTED_PROXIES")
            : (trustedProxies, "--trusted-proxy")
        var header: TrustedProxies.Header?
        if let name = forwardedHeader ?? environment["TESSERA_FORWARDED_HEADER"].flatMap({ $0.isEmpty ? nil : $0 }) {
            guard let given = TrustedProxies.Header(rawValue: name.lowercased()) else {
                let flag = forwardedHeader == nil ? "TESSERA_FORWARDED_HEADER" : "--forwarded-header"
                throw CommandFailure(message: "\(flag): \(name) is not x-forwarded-for or forwarded", exitCode: 2)
            }
            header = given
        }
        do {
            return try TrustedProxies(entries, header: header)
        } catch let refusal as TrustedProxies.Refusal {
            throw CommandFailure(message: "\(source): \(refusal.description)", exitCode: 2)
        }
    }
}
