import ArgumentParser
import Foundation
import TesseraHTTP

/// `--trusted-proxy`: the reverse proxies in front of `tessera serve` whose forwarding headers name the client.
struct ProxyOptions: ParsableArguments {
    @Option(name: .customLong("trusted-proxy"), help: "A reverse proxy's address or network (10.0.0.0/8) whose X-Forwarded-For or Forwarded header names the client, for the per-client rate limits (repeatable; or TESSERA_TRUSTED_PROXIES, comma-separated). Without one, the connecting address is the client.")
    var trustedProxies: [String] = []

    /// The proxies given, checked.
    /// - Throws: ``CommandFailure`` (exit code 2) naming the flag or variable and the entry that is not an address.
    func load(_ environment: [String: String]) throws -> TrustedProxies {
        let (entries, source): ([String], String) = trustedProxies.isEmpty
            ? ((environment["TESSERA_TRUSTED_PROXIES"] ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }, "TESSERA_TRUSTED_PROXIES")
            : (trustedProxies, "--trusted-proxy")
        do {
            return try TrustedProxies(entries)
        } catch let refusal as TrustedProxies.Refusal {
            throw CommandFailure(message: "\(source): \(refusal.description)", exitCode: 2)
        }
    }
}
