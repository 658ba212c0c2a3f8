import Foundation
import Testing
import TesseraTestSupport

/// Bearer tokens cannot be guessed at the server's request rate: refused credentials are limited per client.
@Suite("Issuer API: refused credentials limited per client")
struct ServeCredentialGuessingTests {
    typealias Server = IdentitiesServer

    @Test("20 refused admin-token guesses from one client, then 429 with Retry-After for admin-token requests; API keys, right or wrong, go on as before")
    func guessesLimited() async throws {
        try await Server.with { server in
            let key = try await ServeKeysTests.key(server, name: "gate", identifiers: ["pass.com.brand-a.*"], permissions: ["read"])
            // 20 refused, then limited (more than 20 only if the allowance refilled meanwhile, one every 3 s, on a
            // loaded machine).
            var refused = 0
            var limitedAfter: Int?
            for guess in 0..<60 where limitedAfter == nil {
                let answer = try await server.send("GET", "/api/v1/passes", headers: ["Authorization: Bearer guess-\(guess)-0000000000"])
                if answer.status == 429 { limitedAfter = refused } else { #expect(answer.status == 401); refused += 1 }
            }
            #expect(refused >= 20 && limitedAfter != nil, "\(refused) refused before a 429")
            for path in ["/api/v1/passes", "/api/v1/templates", "/api/v1/campaigns"] {
                let limited = try await server.send("GET", path, headers: ["Authorization: Bearer another-guess-0000000000"])
                #expect(limited.status == 429, "\(path): \(limited.status)")
                #expect(limited.head.lowercased().contains("retry-after:"), "\(limited.head)")
            }
            let right = try await server.send("GET", "/api/v1/templates", headers: ["Authorization: Bearer \(ServeProcess.adminToken)"])
            #expect(right.status == 429, "admin-token requests from the client are limited, whatever they send")
            // A revoked or mistyped key (a scanner retrying) is refused as before, and counts nothing; a good key works.
            let wrongKey = "tsk_" + String(repeating: "x", count: 40)
            for _ in 0..<3 {
                #expect(try await server.send("GET", "/api/v1/passes", headers: ["Authorization: Bearer \(wrongKey)"]).status == 401)
            }
            #expect(try await ServeKeysTests.with(key.secret, server, "GET", "/api/v1/passes").status == 200)
            // The device protocol is not the issuer API: it answers as before.
            let health = try await server.send("GET", "/health")
            #expect(health.status == 200)
        }
    }

    @Test("60 guesses at once: no more are looked at than the allowance holds")
    func concurrentGuessesCounted() async throws {
        let serve = try await ServeProcess()
        do {
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for guess in 0..<60 {
                    group.addTask {
                        try await serve.send("GET", "/api/v1/passes", headers: ["Authorization: Bearer guess-\(guess)-0000000000"])?.status ?? 0
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // 20 a minute: one more if the allowance refilled meanwhile (one every 3 s).
            #expect(statuses.filter { $0 == 401 }.count <= 21 && statuses.filter { $0 == 429 }.count >= 39, "\(statuses.sorted())")
        } catch {
            _ = try? await serve.terminate()
            throw error
        }
        _ = try await serve.terminate()
    }
}
