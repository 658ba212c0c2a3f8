import Foundation
import Testing
import TesseraTestSupport

/// Save links of passes made before Google Wallet was turned on.
@Suite("tessera serve Google Wallet: save links of older passes")
struct ServeGoogleLinkTests {
    typealias Google = ServeGoogleTests

    @Test("a pass made before Google Wallet was on: the class and object its save link refers to are inserted when the link is asked for")
    func linkOfAnOlderPassInsertsItsObject() async throws {
        let before = try await ServeProcess()
        _ = try await Google.create(before, serial: "OLD-1")
        _ = try await before.terminate()

        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        let server = try await ServeProcess(arguments: before.arguments + Google.arguments(google),
                                            environment: Google.environment, reusing: before)
        defer { server.process.terminate() }
        let read = try #require(try await server.send("GET", "/api/v1/passes/pass.dev.tessera.demo/OLD-1", headers: [Google.admin]))
        let state = Google.json(read.body)
        #expect(read.status == 200 && state["googleSaveURL"] is String, "\(state)")
        let object = Google.objectPath("OLD-1")
        let requests = try await Google.wait(google, seconds: 30) { requests in
            requests.contains { $0.method == "POST" && $0.path == "/walletobjects/v1/eventTicketClass" && $0.status == 200 }
                && requests.contains { request in
                    request.status == 200 && (
                        (request.method == "POST" && request.path == "/walletobjects/v1/eventTicketObject"
                            && request.bodyJSON.contains("OLD-2D1"))
                        || (request.method == "PATCH" && request.path == object))
                }
        }
        // Asked again: sent once.
        _ = try await server.send("GET", "/api/v1/passes/pass.dev.tessera.demo/OLD-1", headers: [Google.admin])
        try await Task.sleep(for: .milliseconds(500))
        #expect(google.requests().filter { $0.path.hasPrefix("/walletobjects/v1/eventTicketObject") }.count
                == requests.filter { $0.path.hasPrefix("/walletobjects/v1/eventTicketObject") }.count)
    }
}
