import Foundation
import Testing
import TesseraTestSupport

/// Two `tessera serve` processes on one PostgreSQL database: a change made through one, in the same second as the
/// version a device fetched from the other, still moves `Last-Modified`, so the device gets the new pass, not 304.
@Suite("tessera serve Last-Modified across processes", .serialized)
struct ServeLastModifiedTests {
    @Test("create and fetch on one process, change on the other in the same second: no 304",
          .enabled(if: !TestPostgres.skipped, "PostgreSQL tests skipped (TESSERA_SKIP_POSTGRES=1)"))
    func twoProcesses() async throws {
        guard let url = TestPostgres.url else {
            Issue.record(Comment(rawValue: TestPostgres.missingServer("the two-process Last-Modified test")))
            return
        }
        let database = url + (url.contains("?") ? "&" : "?") + "schema=tessera_lm_\(UInt32.random(in: 0...UInt32.max))"
        let first = try await ServeProcess(arguments: ["--database", database])
        let second = try await ServeProcess(arguments: ["--database", database])
        let body = #"{"template":"event-ticket","data":{"serialNumber":"XP-1"}}"#
        let created = try #require(try await first.request(
            "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"))
        #expect(created.status == 201)
        let token = try #require((try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["authenticationToken"] as? String)
        let fetch = "GET /v1/passes/pass.dev.tessera.demo/XP-1 HTTP/1.1\r\nHost: x\r\nAuthorization: ApplePass \(token)\r\n"
        let fetched = try #require(try await first.request(fetch + "Connection: close\r\n\r\n"))
        #expect(fetched.status == 200)
        let seen = try #require(fetched.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("last-modified:") }?
            .dropFirst("last-modified:".count).trimmingCharacters(in: .whitespaces))
        let patch = #"{"data":{"fields":{"seat":"9Z"}}}"#
        let changed = try #require(try await second.request(
            "PATCH /api/v1/passes/pass.dev.tessera.demo/XP-1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(patch.utf8.count)\r\nConnection: close\r\n\r\n\(patch)"))
        #expect(changed.status == 200)
        let again = try #require(try await first.request(fetch + "If-Modified-Since: \(seen)\r\nConnection: close\r\n\r\n"))
        #expect(again.status == 200, "the change made through the other process was answered 304")
        try await first.terminate()
        try await second.terminate()
    }
}
