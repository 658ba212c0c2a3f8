import Foundation
import Testing
import TesseraTestSupport

/// A new issuer walks through the console in headless Chromium against `tessera serve`: sign in, find a pass, change
/// a field (a new version and pushes at the APNs stand-in), compose a scheduled campaign and watch it finish, read
/// the analytics of the registrations made, export CSV, make a key, sign in with it and see its session end when it
/// is revoked. Every page passes axe-core and writes nothing to the browser's console; HTML in a field value stays
/// text everywhere.
@Suite("The console in a browser", .serialized)
struct ConsoleBrowserTests {
    static let passType = OrdersServer.passType
    static let hostile = #"<img src=x onerror="window.injected=1">&amp;"#

    @Test("a new issuer's walk through every page")
    func walkThrough() async throws {
        try await ConsoleBrowser.run { page in
            let server = page.server
            // Three tickets of one event, one with HTML in its seat; devices add E-1 (two) and E-2 (one).
            var tokens: [String: String] = [:]
            for serial in ["E-1", "E-2", "E-3"] {
                tokens[serial] = try await ServeCampaignTests.createPass(server, serial: serial, fields: #"{"section":"C"}"#)
            }
            let hostileJSON = String(decoding: try JSONSerialization.data(withJSONObject: ["seat": Self.hostile]), as: UTF8.self)
            _ = try await ServeCampaignTests.createPass(server, serial: "X-1", fields: hostileJSON)
            for (device, serial) in [(1, "E-1"), (2, "E-1"), (3, "E-2")] {
                try await ServeCampaignTests.register(server, device: device, serial: serial, token: tokens[serial] ?? "")
            }

            // Sign in: a page asked for without a session leads to sign-in and back.
            try await page.open("/console/passes?template=event-ticket")
            _ = try await page.location { $0.hasPrefix("/console/sign-in?next=") }
            try await page.ready("#token")
            try await page.check("sign-in")
            try await page.driver.type("#token", ServeProcess.adminToken)
            try await page.driver.click("#sign-in")
            #expect(try await page.location { $0 == "/console/passes?template=event-ticket" } == "/console/passes?template=event-ticket")
            _ = try await page.text("#passes-table") { $0.contains("E-3") }
            #expect(try await page.text("#signed-in-as") { !$0.isEmpty } == "Signed in as Administrator")
            try await page.check("passes")

            // Templates with their pictures.
            try await page.open("/console/templates")
            _ = try await page.text("#content") { $0.contains("event-ticket") && $0.contains("Content version") }
            let drawn = try await page.driver.wait({ try await page.evaluate(
                "[...document.querySelectorAll('.previews img')].filter((i) => i.complete && i.naturalWidth > 0).length") },
                until: { Int($0) ?? 0 >= 4 })
            #expect(Int(drawn) ?? 0 >= 4, "template pictures drawn: \(drawn)")
            try await page.check("templates")

            // Find one pass by serial number, change its seat: a new version, and a push to each of its two devices.
            try await page.open("/console/passes")
            try await page.ready("#search-serial")
            try await page.driver.type("#search-serial", "E-1")
            try await page.driver.click("#search")
            _ = try await page.location { $0 == "/console/passes/\(Self.passType)/E-1" }
            let before = try await page.text("#pass-version") { !$0.isEmpty }
            try await page.ready("#field-seat")
            #expect(try await page.driver.attribute("#field-seat", "value") == "F")
            try await page.driver.type("#field-seat", "14A")
            try await page.driver.click("#save-fields")
            let saved = try await page.text("#saved") { $0.hasPrefix("Saved") }
            let state = try OrdersServer.json(try await server.api("GET", "/api/v1/passes/\(Self.passType)/E-1").body)
            let tag = try #require(state["updateTag"] as? String)
            let savedLines = saved.split(separator: "\n").map(String.init)
            #expect(tag != before && savedLines.first == "Saved: version \(tag). 2 pushes sent to the holder's devices.", "\(saved)")
            // The template's warnings for the new version are said with it (this server's http public URL).
            #expect(savedLines.dropFirst().contains { $0.hasPrefix("Warning: webServiceURL") }, "\(saved)")
            #expect(try await page.text("#pass-version") { $0 == tag } == tag)
            #expect(((state["data"] as? [String: Any])?["fields"] as? [String: Any])?["seat"] as? String == "14A")
            let pushes = try await server.apns.requests(topic: Self.passType, within: TestTime.seconds(30)) { $0.count >= 2 }
            #expect(Set(pushes.compactMap(\.pushToken)) == [ServeCampaignTests.pushToken(1), ServeCampaignTests.pushToken(2)])
            let history = try await page.text("#history-table") { $0.contains("New version") && $0.contains("seat") }
            #expect(history.contains("Added to a device") && history.contains("Created"), "\(history)")
            try await page.check("pass")

            // Void it (asked twice), then unvoid it: a campaign of one pass, and the pass is back.
            try await page.driver.click("#void-pass")
            try await page.driver.click("#void-pass")
            _ = try await page.text("#saved") { $0.hasPrefix("Voided") }
            try await page.ready("#unvoid-pass")
            try await page.driver.click("#unvoid-pass")
            let unvoided = try await page.text("#saved") { $0.hasPrefix("Unvoided") || $0.contains("still voided") || $0.contains("select.") }
            #expect(unvoided.hasPrefix("Unvoided"), "\(unvoided)")
            #expect(try OrdersServer.json(try await server.api("GET", "/api/v1/passes/\(Self.passType)/E-1").body)["voided"] as? Bool == false)
            // Shown again, Void asks again: one click does not void the holder's pass.
            #expect(try await page.text("#void-pass") { !$0.isEmpty } == "Void this pass")
            try await page.driver.click("#void-pass")
            _ = try await page.text("#void-pass") { $0.hasPrefix("Void it") }
            #expect(try OrdersServer.json(try await server.api("GET", "/api/v1/passes/\(Self.passType)/E-1").body)["voided"] as? Bool == false)

            // HTML in a field value is text: in the field, the list and the page, nothing injected.
            try await page.open("/console/passes/\(Self.passType)/X-1")
            try await page.ready("#field-seat")
            #expect(try await page.driver.wait({ try await page.driver.attribute("#field-seat", "value") ?? "" }, until: { $0 == Self.hostile }) == Self.hostile)
            #expect(try await page.evaluate("document.querySelectorAll('img[src=\"x\"]').length") == "0")
            #expect(try await page.evaluate("typeof window.injected") == "undefined")
            try await page.check("pass-hostile", screenshot: false)

            // Export CSV: every matching pass, with the cookie the download link carries.
            try await page.open("/console/passes?template=event-ticket")
            try await page.ready("#export-csv")
            let href = try #require(try await page.driver.wait({ try await page.driver.attribute("#export-csv", "href") ?? "" }, until: { !$0.isEmpty }))
            let csv = try await page.driver.executeAsync("""
                const done = arguments[arguments.length - 1];
                fetch(\(String(decoding: try JSONSerialization.data(withJSONObject: [href], options: []), as: UTF8.self))[0])
                  .then((r) => r.text()).then(done).catch((e) => done('failed: ' + e));
                """) as? String ?? ""
            let lines = csv.split(separator: "\r\n")
            #expect(lines.first?.hasPrefix("passTypeIdentifier,serialNumber,template") == true && lines.count == 5, "\(csv)")
            #expect(csv.contains("E-1") && csv.contains("14A"))

            // A campaign scheduled a few seconds ahead: it runs, the page follows it to the end.
            try await page.open("/console/campaigns")
            try await page.ready("#campaign-at")
            _ = try await page.driver.execute("""
                const select = document.getElementById('campaign-template'); select.value = 'event-ticket';
                select.dispatchEvent(new Event('change', { bubbles: true })); return null;
                """)
            #expect(try await page.text("#campaign-count") { $0 == "4 passes match." } == "4 passes match.")
            _ = try await page.driver.execute("""
                const at = new Date(Date.now() + 4000); const pad = (n) => String(n).padStart(2, '0');
                const input = document.getElementById('campaign-at');
                input.value = at.getFullYear() + '-' + pad(at.getMonth() + 1) + '-' + pad(at.getDate()) + 'T' + pad(at.getHours()) + ':' + pad(at.getMinutes()) + ':' + pad(at.getSeconds());
                input.dispatchEvent(new Event('input'));
                """)
            try await page.driver.click("#change-data")
            _ = try await page.driver.execute("document.getElementById('campaign-field-key').value = 'doors'; return null;")
            try await page.driver.type("#campaign-field-value", "2026-12-05T19:00-08:00")
            try await page.driver.type("#campaign-message", "Doors open at 19:00")
            #expect(try await page.driver.text("#start-campaign") == "Schedule campaign")
            try await page.driver.click("#start-campaign")
            let result = try await page.text("#campaign-result") { !$0.isEmpty }
            #expect(result.hasPrefix("Scheduled for"), "\(result)")
            let id = try #require(result.split(separator: " ").last.map { String($0.dropLast()) })
            // The list is read again every second while the campaign is scheduled or running.
            let finished = try await page.driver.wait({ try await page.evaluate("document.getElementById('campaign-\(id)')?.dataset.state") },
                                                      until: { $0 == "done" })
            #expect(finished == "done")
            #expect(try await page.driver.wait({ try await page.evaluate("document.querySelector('#campaign-\(id) .changed')?.textContent") },
                                               until: { $0 == "4" }) == "4")
            #expect(try await page.text("#campaign-progress") { $0.contains("done") }.contains("4 passes changed"))
            try await page.check("campaigns")

            // Analytics: the installs equal the registrations made.
            var installs = ""
            for _ in 0..<60 where installs != "3" {
                try await page.open("/console/analytics?template=event-ticket&interval=hour")
                installs = try await page.text("#total-installs") { !$0.isEmpty }
                if installs != "3" { try await Task.sleep(for: .seconds(1)) }
            }
            #expect(installs == "3")
            #expect(try await page.evaluate("document.querySelectorAll('.chart svg rect.installs').length") != "0")
            try await page.check("analytics")
            // Day buckets start at midnight UTC: a browser west of Greenwich still names today's bucket today.
            try await page.driver.devTools("Emulation.setTimezoneOverride", ["timezoneId": "America/Los_Angeles"])
            try await page.open("/console/analytics?template=event-ticket&interval=day")
            let today = try await page.text("#analytics-table tbody tr:last-child th") { !$0.isEmpty }
            let utcDay = DateFormatter()
            utcDay.locale = Locale(identifier: "en_US_POSIX")
            utcDay.timeZone = TimeZone(identifier: "UTC")
            utcDay.dateFormat = "MMM d, y"
            #expect(today == utcDay.string(from: Date()), "today's bucket is labelled \(today)")
            try await page.driver.devTools("Emulation.setTimezoneOverride", ["timezoneId": ""])

            // Events from the start of the log.
            try await page.open("/console/events?from=start")
            try await page.ready("#events-table")
            _ = try await page.text("#events-table") { $0.contains("pass.registered") && $0.contains("campaign.finished") }
            try await page.check("events")
            // A link focused in the log keeps its focus when new events arrive above it.
            #expect(try await page.evaluate("""
                (() => { const link = document.querySelector('#events-table tbody a'); link.focus();
                  return document.activeElement === link; })()
                """) == "true")
            _ = try await ServeCampaignTests.createPass(page.server, serial: "E-LIVE")
            _ = try await page.text("#events-table") { $0.contains("E-LIVE") }
            #expect(try await page.evaluate("""
                document.activeElement !== null && document.activeElement.tagName === 'A'
                  && document.activeElement.closest('#events-table') !== null
                  && !document.activeElement.textContent.includes('E-LIVE')
                """) == "true")

            // Certificates and keys: make a key (its secret shown once).
            try await page.open("/console/keys")
            _ = try await page.text("#identities-table") { $0.contains(Self.passType) }
            try await page.ready("#key-name")
            try await page.driver.type("#key-name", "door staff")
            try await page.driver.type("#key-identifiers", "pass.dev.tessera.*")
            try await page.driver.click("#create-key")
            let secret = try await page.text("#key-secret") { $0.hasPrefix("tsk_") }
            _ = try await page.text("#keys-table") { $0.contains("door staff") }
            try await page.check("keys")

            // Signed in with the key: its own view; revoked, its session ends.
            try await page.driver.click("#sign-out")
            _ = try await page.location { $0.hasPrefix("/console/sign-in") }
            try await page.ready("#token")
            try await page.driver.type("#token", secret)
            try await page.driver.click("#sign-in")
            #expect(try await page.text("#signed-in-as") { !$0.isEmpty } == "Signed in as door staff")
            _ = try await page.text("#content") { $0.contains("event-ticket") }
            let keys = try OrdersServer.json(try await server.api("GET", "/api/v1/keys").body)
            let keyID = try #require(((keys["keys"] as? [[String: Any]]) ?? []).first { $0["name"] as? String == "door staff" }?["id"] as? String)
            #expect(try await server.api("DELETE", "/api/v1/keys/\(keyID)").status == 204)
            try await page.open("/console/passes")
            #expect(try await page.location { $0.hasPrefix("/console/sign-in") }.hasPrefix("/console/sign-in?next="))
        }
    }
}

extension ConsoleBrowserTests {
    static let tab = "\u{E004}", enter = "\u{E007}"

    @Test("keys: the Revoke button (asked twice) ends the key's sessions and its secret opens nothing")
    func revokeInPage() async throws {
        try await ConsoleBrowser.run { page in
            let made = try await page.server.api("POST", "/api/v1/keys", body: #"{"name":"gate 4","scope":{"identifiers":["pass.dev.tessera.*"],"permissions":["read"]}}"#)
            let key = try OrdersServer.json(made.body)
            let (keyID, secret) = (key["id"] as? String ?? "", key["secret"] as? String ?? "")
            // Signed in with the key; its session cookie is kept aside and forgotten by the browser (not signed out).
            try await page.open("/console/passes")
            try await page.ready("#token")
            try await page.driver.type("#token", secret)
            try await page.driver.click("#sign-in")
            #expect(try await page.text("#signed-in-as") { !$0.isEmpty } == "Signed in as gate 4")
            let session = try await page.driver.cookie("tessera_console") ?? ""
            #expect(try await Self.keyAnswers(page.server, secret: secret, session: session) == [200, 200])
            try await page.driver.deleteCookie("tessera_console")
            // The admin revokes it in the keys page.
            try await page.open("/console/keys")
            try await page.ready("#token")
            try await page.driver.type("#token", ServeProcess.adminToken)
            try await page.driver.click("#sign-in")
            try await page.ready("#revoke-\(keyID)")
            try await page.driver.click("#revoke-\(keyID)")
            #expect(try await page.text("#revoke-\(keyID)") { $0 == "Revoke now" } == "Revoke now")
            #expect(try await Self.keyAnswers(page.server, secret: secret, session: session) == [200, 200], "asked, not yet revoked")
            try await page.driver.click("#revoke-\(keyID)")
            #expect(try await page.text("#status") { $0.contains("revoked") }.contains("gate 4 revoked"))
            #expect(try await page.text("#keys-table") { !$0.contains("gate 4") }.contains("gate 4") == false)
            try await page.check("keys after a revocation", screenshot: false)
            #expect(try await Self.keyAnswers(page.server, secret: secret, session: session) == [401, 401])
        }
    }

    /// What `GET /api/v1/passes` answers to an API key's secret and to a console session's cookie.
    static func keyAnswers(_ server: OrdersServer, secret: String, session: String) async throws -> [Int] {
        var statuses: [Int] = []
        for credential in ["Authorization: Bearer \(secret)", "Cookie: tessera_console=\(session)"] {
            statuses.append(try await server.serve.request(
                "GET /api/v1/passes HTTP/1.1\r\nHost: x\r\n\(credential)\r\nConnection: close\r\n\r\n")?.status ?? 0)
        }
        return statuses
    }

    /// What has the focus: its id, else its text.
    static func focused(_ page: ConsoleBrowser) async throws -> String {
        try await page.evaluate("document.activeElement.id || document.activeElement.textContent.trim()")
    }

    @Test("the keyboard alone: sign in, skip to the content, change a field and save")
    func keyboardAlone() async throws {
        try await ConsoleBrowser.run { page in
            _ = try await ServeCampaignTests.createPass(page.server, serial: "K-1")
            try await page.open("/console/passes/\(Self.passType)/K-1")
            try await page.ready("#token")
            #expect(try await Self.focused(page) == "token", "the token field has the focus")
            try await page.driver.press(ServeProcess.adminToken + Self.enter)
            _ = try await page.location { $0 == "/console/passes/\(Self.passType)/K-1" }
            try await page.ready("#field-seat")
            // The first Tab stop is the skip link; it moves the focus to the page's content.
            try await page.driver.press(Self.tab)
            #expect(try await Self.focused(page) == "Skip to content")
            try await page.driver.press(Self.enter)
            #expect(try await page.driver.wait({ try await Self.focused(page) }, until: { $0 == "main" }) == "main")
            // Tab through to the seat, type, Tab on to Save and press Enter.
            var stops: [String] = []
            for _ in 0..<40 where stops.last != "field-seat" {
                try await page.driver.press(Self.tab)
                stops.append(try await Self.focused(page))
            }
            #expect(stops.last == "field-seat", "focus order: \(stops)")
            // Tabbing into a text field selects its value: typing replaces it.
            try await page.driver.press("22B")
            while try await Self.focused(page) != "save-fields", stops.count < 80 {
                try await page.driver.press(Self.tab)
                stops.append(try await Self.focused(page))
            }
            try await page.driver.press(Self.enter)
            _ = try await page.text("#saved") { $0.hasPrefix("Saved") }
            let state = try OrdersServer.json(try await page.server.api("GET", "/api/v1/passes/\(Self.passType)/K-1").body)
            #expect(((state["data"] as? [String: Any])?["fields"] as? [String: Any])?["seat"] as? String == "22B")
        }
    }
}

extension ConsoleBrowserTests {
    @Test("webhooks: a failing receiver's deliveries shown as retrying; Retry now delivers at once")
    func webhookRetry() async throws {
        let receiver = try WebhookReceiver(failing: true)
        defer { receiver.stop() }
        try await ConsoleBrowser.run(arguments: receiver.serveArguments) { page in
            _ = try await ServeCampaignTests.createPass(page.server, serial: "W-1")
            // Refused three times: the next try waits 4 s, then 8 s.
            _ = try await receiver.wait(seconds: 30) { $0.count >= 3 }
            try await page.open("/console/sign-in?next=%2Fconsole%2Fevents")
            try await page.ready("#token")
            try await page.driver.type("#token", ServeProcess.adminToken)
            try await page.driver.click("#sign-in")
            _ = try await page.text("#webhook-deliveries") { $0.contains("Retrying") && $0.contains("503") }
            #expect(try await page.text("#webhook-endpoint") { !$0.isEmpty }.hasPrefix("http://127.0.0.1:"))
            try await page.check("events-webhooks", screenshot: false)
            receiver.failing = false
            // The panel refreshes every 5 s; the button found before a refresh is the one clicked after it.
            let retry = try await page.driver.element("#webhook-retry")
            try await Task.sleep(for: .milliseconds(5_500))
            try await page.driver.click(element: retry)
            _ = try await page.text("#webhook-retried") { $0.hasPrefix("Asked") }
            let shown = try await page.text("#webhook-deliveries") { $0.contains("Delivered") }
            #expect(shown.contains("Delivered") && shown.contains("pass.created"), "\(shown)")
            #expect(receiver.requests.contains { $0.status == 200 })
        }
    }
}

extension ConsoleBrowserTests {
    @Test("campaigns: the Cancel button found before the list is read again cancels a scheduled campaign")
    func cancelScheduledCampaign() async throws {
        try await ConsoleBrowser.run { page in
            _ = try await ServeCampaignTests.createPass(page.server, serial: "C-1")
            let at = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3_600))
            let created = try await ServeCampaignTests.campaign(
                page.server, #"{"select":{"template":"event-ticket"},"void":true,"scheduledAt":"\#(at)"}"#)
            #expect(created.status == 202)
            let id = try #require(created.json["id"] as? String)
            try await page.open("/console/sign-in?next=%2Fconsole%2Fcampaigns")
            try await page.ready("#token")
            try await page.driver.type("#token", ServeProcess.adminToken)
            try await page.driver.click("#sign-in")
            try await page.ready("#cancel-\(id)")
            let cancel = try await page.driver.element("#cancel-\(id)")
            // While a campaign is scheduled the list is read again every second: the button outlives those reads.
            try await Task.sleep(for: .milliseconds(2_500))
            try await page.driver.click(element: cancel)
            let state = try await page.driver.wait({
                try await page.evaluate("document.getElementById('campaign-\(id)')?.dataset.state")
            }, until: { $0 == "cancelled" })
            #expect(state == "cancelled")
            #expect(try await page.evaluate("document.getElementById('cancel-\(id)') === null") == "true")
            let stored = try OrdersServer.json(try await page.server.api("GET", "/api/v1/campaigns/\(id)").body)
            #expect(stored["state"] as? String == "cancelled")
            #expect(try await ServeCampaignTests.pass(page.server, "C-1")["voided"] as? Bool == false)
            try await page.check("campaigns-cancelled", screenshot: false)
        }
    }
}
