import Foundation
import Testing
import TesseraTestSupport

/// The issuer API validates a pass as `tessera pass create` does, before anything is signed or stored: every value of
/// the wrong type and every other error of the rest of the pass in one answer, and Apple's poster event ticket rules.
@Suite("tessera serve: the issuer API reports every problem of a pass", .serialized)
struct ServeIssuerValidationTests {
    private func post(_ server: ServeProcess, _ body: String) async throws -> (status: Int, json: [String: Any]) {
        let text = "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + "Authorization: Bearer \(ServeProcess.adminToken)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        let answer = try #require(try await server.request(text, timeout: 30), "no answer")
        return (answer.status, (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:])
    }

    private func stored(_ server: ServeProcess, _ serial: String) async throws -> Int? {
        let text = "GET /api/v1/passes/pass.dev.tessera.demo/\(serial) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + "Authorization: Bearer \(ServeProcess.adminToken)\r\n\r\n"
        return try await server.request(text, timeout: 30)?.status
    }

    @Test func typeErrorsAndTheRestOfThePassInOneAnswer() async throws {
        let server = try await ServeProcess()
        // `voided` is the server's to set; `sharingProhibited` stands in for the third Boolean-typed key.
        let created = try await post(server, #"""
            {"template": "event-ticket", "data": {"serialNumber": "T-1", "formatVersion": "1",
             "sharingProhibited": "yes", "maxDistance": "far", "backgroundColor": "blue"}}
            """#)
        #expect(created.status == 422, "\(created.json)")
        let message = (created.json["error"] as? [String: Any])?["message"] as? String ?? ""
        for expected in ["error: formatVersion: expected", "error: sharingProhibited: expected",
                         "error: maxDistance: expected",
                         "error: backgroundColor: must be a colour written rgb(r, g, b), found \"blue\""] {
            #expect(message.contains(expected), "\(expected) in \(message)")
        }
        #expect(try await stored(server, "T-1") == 404)

        let poster = try await post(server, #"""
            {"template": "poster-event-ticket", "data": {"serialNumber": "P-1", "semantics": {
             "eventName": "The Band", "venueName": "Example Hall", "eventType": "PKEventTypeConcert"}}}
            """#)
        #expect(poster.status == 422, "\(poster.json)")
        let posterMessage = (poster.json["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(posterMessage.contains(
            "error: semantics.eventType: unknown value \"PKEventTypeConcert\" on a poster event ticket"), "\(posterMessage)")
        #expect(try await stored(server, "P-1") == 404)
        try await server.terminate()
    }
}
