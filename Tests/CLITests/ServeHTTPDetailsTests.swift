import Foundation
import Testing
import TesseraTestSupport

/// HTTP details of `tessera serve` on the wire: encoded serial numbers, unreachable ones refused, TRACE,
/// `Expect: 100-continue`, auth scheme case, and the obsolete date forms of `If-Modified-Since`.
@Suite("tessera serve HTTP details", .serialized)
struct ServeHTTPDetailsTests {
    private func create(_ server: ServeProcess, serial: String, scheme: String = "Bearer") async throws -> (status: Int, json: [String: Any]) {
        let body = #"{"template":"event-ticket","data":{"serialNumber":"\#(serial)"}}"#
        let answer = try #require(try await server.request(
            "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: \(scheme) \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"))
        return (answer.status, (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:])
    }

    @Test("percent-encoded @ : + = in a serial reach the same pass; . and .. are refused at creation")
    func encodedSerials() async throws {
        let server = try await ServeProcess()
        let created = try await create(server, serial: "a@b:c+d=e")
        #expect(created.status == 201)
        let token = try #require(created.json["authenticationToken"] as? String)
        for path in ["a@b:c+d=e", "a%40b%3Ac%2Bd%3De", "a%40b%3ac%2bd%3de"] {
            let answer = try #require(try await server.request(
                "GET /v1/passes/pass.dev.tessera.demo/\(path) HTTP/1.1\r\nHost: x\r\nAuthorization: ApplePass \(token)\r\nConnection: close\r\n\r\n"))
            #expect(answer.status == 200, "\(path): \(answer.head)")
        }
        for serial in [".", ".."] {
            let refused = try await create(server, serial: serial)
            #expect(refused.status == 422, "\(serial)")
        }
        try await server.terminate()
    }

    @Test("TRACE answers 405 with Allow; lowercase bearer is accepted")
    func methodAndScheme() async throws {
        let server = try await ServeProcess()
        let trace = try #require(try await server.request("TRACE /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        #expect(trace.status == 405)
        #expect(trace.head.lowercased().contains("\r\nallow: get, head, post, patch, delete"), "\(trace.head)")
        let traceAPI = try #require(try await server.request(
            "TRACE /api/v1/passes HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        #expect(traceAPI.status == 405)
        for scheme in ["bearer", "BEARER", "Bearer"] {
            #expect(try await create(server, serial: "S-\(scheme)", scheme: scheme).status == 201, "\(scheme)")
        }
        try await server.terminate()
    }

    @Test("Expect: 100-continue is answered before the body is sent")
    func expectContinue() async throws {
        let server = try await ServeProcess()
        let body = #"{"template":"coupon","data":{"serialNumber":"EC-1"}}"#
        let connection = try RawHTTPConnection(port: server.port, timeout: 0.2)
        try connection.send(
            "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
        let interim = try await connection.reading(until: { $0.contains("\r\n\r\n") }, deadline: Date().addingTimeInterval(0.8))
        #expect(interim.text.hasPrefix("HTTP/1.1 100"), "\(interim.text)")
        try connection.send(body)
        let answer = try await connection.response(deadline: Date().addingTimeInterval(10))
        #expect(answer?.status == 201)
        try await server.terminate()
    }

    @Test("If-Modified-Since in RFC 850 and asctime forms is honoured")
    func obsoleteDateForms() async throws {
        let server = try await ServeProcess()
        let created = try await create(server, serial: "IMS-1")
        let token = try #require(created.json["authenticationToken"] as? String)
        for since in ["Sunday, 06-Nov-44 08:49:37 GMT", "Sun Nov  6 08:49:37 2044", "Sun, 06 Nov 2044 08:49:37 GMT"] {
            let answer = try #require(try await server.request(
                "GET /v1/passes/pass.dev.tessera.demo/IMS-1 HTTP/1.1\r\nHost: x\r\nAuthorization: ApplePass \(token)\r\n"
                    + "If-Modified-Since: \(since)\r\nConnection: close\r\n\r\n"))
            #expect(answer.status == 304, "\(since)")
        }
        for since in ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            let answer = try #require(try await server.request(
                "GET /v1/passes/pass.dev.tessera.demo/IMS-1 HTTP/1.1\r\nHost: x\r\nAuthorization: ApplePass \(token)\r\n"
                    + "If-Modified-Since: \(since)\r\nConnection: close\r\n\r\n"))
            #expect(answer.status == 200, "\(since)")
        }
        try await server.terminate()
    }
}
