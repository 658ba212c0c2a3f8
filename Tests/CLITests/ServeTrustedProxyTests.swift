import Foundation
import Testing
import TesseraTestSupport

/// `tessera serve --trusted-proxy`: behind a TLS-terminating proxy, devices are told apart by the address the proxy
/// forwards, not all counted as the proxy.
@Suite("tessera serve --trusted-proxy (subprocess)", .serialized)
struct ServeTrustedProxyTests {
    @Test("each forwarded device has its own /v1/log bucket; Retry-After says when to come back")
    func forwardedClients() async throws {
        let server = try await ServeProcess(arguments: ["--trusted-proxy", "127.0.0.0/8"])
        defer { server.process.terminate() }
        func log(_ client: String) async throws -> (status: Int, head: String, body: Data)? {
            try await server.send("POST", "/v1/log", headers: ["X-Forwarded-For: 198.51.100.4, \(client)"],
                                  body: #"{"logs":["Web service error"]}"#)
        }
        // The default burst is 20, then 10 a minute (on a loaded machine the bucket refills while these are sent).
        var accepted = 0
        var refusal: (status: Int, head: String, body: Data)?
        for _ in 0..<60 {
            let answer = try #require(try await log("203.0.113.1"))
            if answer.status == 429 { refusal = answer; break }
            #expect(answer.status == 200)
            accepted += 1
        }
        #expect(accepted >= 20)
        let refused = try #require(refusal, "never refused")
        let retryAfter = refused.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("retry-after:") }
            .flatMap { Int($0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces)) }
        #expect(retryAfter.map { (1...6).contains($0) } == true, "\(refused.head)")
        // The forged first address is not the bucket: another device's address behind the proxy is.
        #expect(try await log("203.0.113.2")?.status == 200)
    }

    @Test("an entry that is not an address or network is a usage error naming the flag or variable")
    func usageErrors() async throws {
        let chain = try TestChain()
        let credentials = ["--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem")]
        let flag = try await Subprocess.tessera(["serve", "--port", "0", "--trusted-proxy", "lb.example.com"] + credentials)
        #expect(flag.status == 2)
        #expect(flag.stderr.contains("--trusted-proxy: lb.example.com: not an IP address"), "\(flag.stderr)")
        let variable = try await Subprocess.tessera(
            ["serve", "--port", "0"] + credentials, environment: ["TESSERA_TRUSTED_PROXIES": "10.0.0.0/8, 10.0.0.0/40"])
        #expect(variable.status == 2)
        #expect(variable.stderr.contains("TESSERA_TRUSTED_PROXIES: 10.0.0.0/40: the prefix length"), "\(variable.stderr)")
    }
}
