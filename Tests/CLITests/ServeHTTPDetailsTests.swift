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

    @Test("a served path asked with a method it lacks answers 405 with its own methods; every GET answers HEAD")
    func methodsPerPath() async throws {
        let server = try await ServeProcess()
        let admin = "Authorization: Bearer \(ServeProcess.adminToken)\r\n"
        func ask(_ method: String, _ path: String) async throws -> (status: Int, allow: String?, head: String, body: Data) {
            let answer = try #require(try await server.request(
                "\(method) \(path) HTTP/1.1\r\nHost: x\r\n\(admin)Content-Length: 0\r\nConnection: close\r\n\r\n"))
            let allow = answer.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("allow:") }
                .map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) }
            return (answer.status, allow, answer.head, answer.body)
        }
        #expect(try await create(server, serial: "M-1", scheme: "Bearer").status == 201)
        let expected: [(String, String, String)] = [
            ("PUT", "/api/v1/passes", "GET, HEAD, POST"),
            ("DELETE", "/api/v1/passes", "GET, HEAD, POST"),
            ("OPTIONS", "/api/v1/passes", "GET, HEAD, POST"),
            ("POST", "/api/v1/passes/pass.dev.tessera.demo/M-1", "GET, HEAD, PATCH, DELETE"),
            ("PUT", "/api/v1/redemptions", "POST"),
            ("GET", "/api/v1/redemptions", "POST"),
            ("POST", "/health", "GET, HEAD"),
            ("DELETE", "/v1/log", "POST"),
        ]
        for (method, path, allow) in expected {
            let answer = try await ask(method, path)
            #expect(answer.status == 405, "\(method) \(path): \(answer.head)")
            #expect(answer.allow == allow, "\(method) \(path): \(answer.head)")
            let error = try JSONSerialization.jsonObject(with: answer.body) as? [String: [String: String]]
            #expect(error?["error"]?["code"] == "methodNotAllowed", "\(method) \(path)")
        }
        // A path no route serves stays 404, whatever the method.
        #expect(try await ask("PUT", "/api/v1/nothing").status == 404)
        #expect(try await ask("GET", "/api/v1/passes/pass.dev.tessera.demo/M-1/nothing").status == 404)
        // HEAD: GET's status and headers, no body.
        for path in ["/api/v1/passes", "/api/v1/passes/pass.dev.tessera.demo/M-1", "/api/v1/templates", "/health"] {
            let get = try await ask("GET", path)
            // Read as a raw exchange: a HEAD answer carries GET's Content-Length but no body.
            let connection = try RawHTTPConnection(port: server.port, timeout: 0.2)
            try connection.send("HEAD \(path) HTTP/1.1\r\nHost: x\r\n\(admin)Connection: close\r\n\r\n")
            let head = try await connection.reading(until: { _ in false }, deadline: Date().addingTimeInterval(1.5)).text
            #expect(head.hasPrefix("HTTP/1.1 200") && get.status == 200, "HEAD \(path): \(head)")
            #expect(head.hasSuffix("\r\n\r\n"), "HEAD \(path) sent a body: \(head)")
            #expect(head.lowercased().contains("content-type: application/json") == get.head.lowercased()
                .contains("content-type: application/json"), "HEAD \(path)")
        }
        try await server.terminate()
    }

    @Test("HTTP/1.0 without keep-alive is closed after its answer; a body declared too long is refused unread, then closed")
    func closesWhenTheClientExpectsIt() async throws {
        let server = try await ServeProcess()
        // HTTP/1.0's default: the answer, then the end of the stream (the client reads until it).
        let plain = try RawHTTPConnection(port: server.port, timeout: 0.2)
        try plain.send("GET /health HTTP/1.0\r\n\r\n")
        let closed = try await plain.reading(until: { _ in false }, deadline: Date().addingTimeInterval(5))
        #expect(closed.closed && closed.text.hasPrefix("HTTP/1.1 200") && closed.text.hasSuffix("ok"), "\(closed.text)")
        #expect(closed.text.lowercased().contains("connection: close"), "\(closed.text)")
        // HTTP/1.0 with keep-alive stays open for the next request.
        let kept = try RawHTTPConnection(port: server.port, timeout: 0.2)
        try kept.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = try await kept.reading(until: { $0.hasSuffix("ok") }, deadline: Date().addingTimeInterval(5))
        #expect(!first.closed && first.text.hasPrefix("HTTP/1.1 200"), "\(first.text)")
        try kept.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let second = try await kept.reading(until: { $0.hasSuffix("ok") }, deadline: Date().addingTimeInterval(5))
        #expect(second.text.hasPrefix("HTTP/1.1 200"), "\(second.text)")

        // A gigabyte declared to the issuer API (64 KiB at most): 413 before the body, and the connection ends (the
        // rest of the body is not read for nothing).
        let large = try RawHTTPConnection(port: server.port, timeout: 0.2)
        try large.send("POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
            + "Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{\"template\":")
        let refused = try await large.reading(until: { _ in false }, deadline: Date().addingTimeInterval(8))
        #expect(refused.text.hasPrefix("HTTP/1.1 413"), "\(refused.text)")
        #expect(refused.text.lowercased().contains("connection: close"), "\(refused.text)")
        #expect(refused.closed, "the connection stayed open after the 413")
        // A malformed chunk is the request's fault (400 naming the body), not a body too large (it was 413 "larger than
        // 65536 bytes" for three bytes).
        let chunked = try RawHTTPConnection(port: server.port, timeout: 0.2)
        try chunked.send("POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
            + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n")
        let malformed = try await chunked.reading(until: { _ in false }, deadline: Date().addingTimeInterval(8))
        #expect(malformed.text.hasPrefix("HTTP/1.1 400"), "\(malformed.text)")
        #expect(malformed.text.contains(#""field":"body""#) && malformed.text.contains("malformed chunked encoding"), "\(malformed.text)")
        // A body sent whole under the limit is still answered on a connection that stays open.
        #expect(try await create(server, serial: "L-1").status == 201)
        try await server.terminate()
    }

    @Test("an HTTP/1.1 request without a Host, or with two, is refused 400 naming Host, and its connection closed")
    func hostRequired() async throws {
        let server = try await ServeProcess()
        for (head, words) in [
            ("GET /health HTTP/1.1\r\n", "needs one"),
            ("GET /health HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n", "only one"),
            // A body after the refused head is not read as another request.
            ("POST /v1/log HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 39\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n", "needs one"),
        ] {
            let connection = try RawHTTPConnection(port: server.port, timeout: 0.2)
            try connection.send(head.hasSuffix("\r\n\r\n") ? head : head + "\r\n")
            let answer = try await connection.reading(until: { _ in false }, deadline: Date().addingTimeInterval(5))
            #expect(answer.text.hasPrefix("HTTP/1.1 400"), "\(answer.text)")
            #expect(answer.text.contains(#""field":"Host""#) && answer.text.contains(words), "\(answer.text)")
            #expect(answer.text.lowercased().contains("connection: close"), "\(answer.text)")
            #expect(answer.closed, "the connection stayed open")
            #expect(!answer.text.hasSuffix("ok"), "the body was read as a request: \(answer.text)")
        }
        // One Host: answered as always.
        #expect(try await server.send("GET", "/health")?.status == 200)
        // Pipelined after a good request: the good one's answer first, whole, then the refusal.
        let pipelined = try RawHTTPConnection(port: server.port, timeout: 0.2)
        try pipelined.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\n\r\n")
        let both = try await pipelined.reading(until: { _ in false }, deadline: Date().addingTimeInterval(5))
        #expect(both.text.hasPrefix("HTTP/1.1 200"), "\(both.text)")
        #expect(both.text.components(separatedBy: "HTTP/1.1 400").count == 2, "\(both.text)")
        #expect(both.text.range(of: "\r\n\r\nok")?.lowerBound ?? both.text.endIndex
                    < both.text.range(of: "HTTP/1.1 400")?.lowerBound ?? both.text.startIndex, "\(both.text)")
        try await server.terminate()
    }

    @Test("pipelined requests: a later request's Connection: close is said on its own answer, not on the earlier ones")
    func pipelinedClose() async throws {
        let server = try await ServeProcess()
        let connection = try RawHTTPConnection(port: server.port, timeout: 0.2)
        try connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answers = try await connection.reading(until: { _ in false }, deadline: Date().addingTimeInterval(5))
        let parts = answers.text.components(separatedBy: "HTTP/1.1 200").dropFirst()
        #expect(parts.count == 3, "\(answers.text)")
        #expect(parts.map { $0.lowercased().contains("connection: close") } == [false, false, true], "\(answers.text)")
        #expect(answers.closed)
        try await server.terminate()
    }

    @Test("Expect: 100-continue is answered before the body is sent, unless the declared body is larger than any route takes")
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
        // A body larger than any route takes is not asked for: the answer is the 413, with no 100 before it.
        let large = try RawHTTPConnection(port: server.port, timeout: 0.2)
        try large.send(
            "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 1000000000\r\nExpect: 100-continue\r\n\r\n")
        let refused = try await large.reading(until: { _ in false }, deadline: Date().addingTimeInterval(5))
        #expect(refused.text.hasPrefix("HTTP/1.1 413"), "\(refused.text)")
        #expect(!refused.text.contains("100 Continue"), "\(refused.text)")
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
