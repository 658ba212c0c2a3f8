import Foundation
import Testing
import TesseraTestSupport

/// Pages as an API key's session sees them: analytics of one of its templates, a campaign's count of the passes the
/// chosen change selects.
extension ConsoleBrowserTests {
    @Test("a key's session: analytics charts its template; an unvoid campaign counts the voided passes")
    func keySessionPages() async throws {
        try await ConsoleBrowser.run { page in
            for serial in ["K-1", "K-2", "K-3"] {
                let created = try await page.server.api(
                    "POST", "/api/v1/passes", body: #"{"template":"event-ticket","data":{"serialNumber":"\#(serial)"}}"#)
                #expect(created.status == 201)
            }
            #expect(try await page.server.api("DELETE", "/api/v1/passes/\(OrdersServer.passType)/K-3").status == 200)
            let made = try await page.server.api(
                "POST", "/api/v1/keys", body: #"{"name":"box office","scope":{"identifiers":["pass.dev.tessera.*"],"permissions":["read","write"]}}"#)
            let secret = try #require(try OrdersServer.json(made.body)["secret"] as? String)
            try await page.open("/console/analytics")
            try await page.ready("#token")
            try await page.driver.type("#token", secret)
            try await page.driver.click("#sign-in")
            #expect(try await page.text("#signed-in-as") { !$0.isEmpty } == "Signed in as box office")
            // Not "every template" (the administrator's alone): the key's first template, charted.
            try await page.ready("#total-installs")
            #expect(try await page.evaluate("document.getElementById('analytics-template').value") != "")
            #expect(try await page.evaluate("document.querySelector('#analytics-template option[value=\"\"]') === null") == "true")
            #expect(try await page.evaluate("document.querySelector('.problem')?.textContent || ''") == "")

            try await page.open("/console/campaigns")
            try await page.ready("#campaign-template")
            _ = try await page.driver.execute("""
                const select = document.getElementById('campaign-template'); select.value = 'event-ticket';
                select.dispatchEvent(new Event('change', { bubbles: true })); return null;
                """)
            #expect(try await page.text("#campaign-count") { $0 == "2 passes match." } == "2 passes match.")
            try await page.driver.click("#change-unvoid")
            #expect(try await page.text("#campaign-count") { $0 == "1 pass matches." } == "1 pass matches.")
            try await page.driver.click("#change-data")
            #expect(try await page.text("#campaign-count") { $0 == "2 passes match." } == "2 passes match.")

            // A sign-in in another tab (the admin, here) replaces this page's session: a change from this page is
            // refused with what to do, not a bare 403, and nothing is made.
            let signedIn = try await page.driver.executeAsync("""
                const done = arguments[arguments.length - 1];
                fetch('/console/session', { method: 'POST', credentials: 'same-origin',
                  headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: \(try Self.jsonString(ServeProcess.adminToken)) }) })
                  .then((r) => done(r.status)).catch((e) => done('failed: ' + e));
                """)
            #expect("\(signedIn ?? "")" == "200" || "\(signedIn ?? "")" == "201", "\(String(describing: signedIn))")
            try await page.driver.click("#change-void")
            try await page.driver.click("#start-campaign")
            let refused = try await page.text("#campaign-result") { !$0.isEmpty }
            #expect(refused.contains("signed in again in another tab"), "\(refused)")
            let campaigns = try OrdersServer.json(try await page.server.api("GET", "/api/v1/campaigns").body)
            #expect((campaigns["campaigns"] as? [Any])?.isEmpty == true, "\(campaigns)")
        }
    }

    /// `text` as a JSON string literal, for a script.
    static func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }
}
