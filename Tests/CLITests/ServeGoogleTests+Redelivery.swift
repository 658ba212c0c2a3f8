import Foundation
import Testing
import TesseraTestSupport

extension ServeGoogleTests {
    @Test("a round delivered again (a process stopped before its cursor was saved) adds no campaign message Google holds already")
    func redeliveryAddsNoMessageTwice() async throws {
        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        let server = try await ServeProcess(arguments: Self.arguments(google), environment: Self.environment)
        let object = Self.objectPath("G-M")
        _ = try await Self.create(server, serial: "G-M")
        _ = try await Self.wait(google) { $0.contains { $0.method == "POST" && $0.status == 200 && $0.bodyJSON.contains("G-M") } }
        let campaign = try await server.send("POST", "/api/v1/campaigns", headers: [Self.admin], body: """
            {"select":{"passTypeIdentifier":"pass.dev.tessera.demo","serialNumbers":["G-M"]},"data":{"fields":{"doors":"2026-12-05T19:00-08:00"}},"message":"Doors at 19:00"}
            """)
        #expect(campaign?.status == 202, "\(String(decoding: campaign?.body ?? Data(), as: UTF8.self))")
        _ = try await Self.wait(google) { $0.contains { $0.path == object + "/addMessage" && $0.status == 200 } }
        try await Task.sleep(for: .seconds(1))  // the round's cursor saved
        _ = try await server.terminate()

        // The delivery's cursor put back to the start of the log: the next process sends every change again.
        let database = server.folder.appendingPathComponent("data/tessera.sqlite").path
        let rewound = try await Subprocess.run("python3", ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            n = db.execute("UPDATE webhook_deliveries SET cursor_transaction = 0, cursor_id = 0, owner = NULL, lease_until = 0 "
                           "WHERE endpoint LIKE 'google-wallet:%'").rowcount
            db.commit()
            print(n)
            """, database])
        try #require(rewound.status == 0 && rewound.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1",
                     "\(rewound.stdout)\(rewound.stderr)")
        let before = google.requests().count
        let restarted = try await ServeProcess(arguments: server.arguments, environment: server.environment, reusing: server)
        do {
            _ = try await Self.wait(google) { requests in
                requests.dropFirst(before).contains { $0.method == "PATCH" && $0.path == object && $0.status == 200 }
            }
            try await Task.sleep(for: .seconds(1))  // a message would follow the patch at once
            #expect(google.requests(matching: object + "/addMessage").count == 1)
        } catch {
            _ = try? await restarted.terminate()
            throw error
        }
        _ = try await restarted.terminate()
    }
}
