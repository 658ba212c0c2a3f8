import Foundation
import Testing
import TesseraTestSupport

/// The campaign and key commands against answers that are not the API's: a redirect is reported, never followed
/// (followed, a POST became a GET that succeeded and a campaign never made was reported made), and a proxy's page is
/// cut and made printable.
@Suite("tessera campaign: answers that are not the API's")
struct CampaignClientAnswersTests {
    /// A loopback HTTP server (Python's standard library) answering POST with `status`, `Location` and `body`, and GET
    /// with an empty campaign list.
    final class CannedServer: @unchecked Sendable {
        let process = ChildProcess()
        let port: Int

        init(status: Int, body: String, location: String? = nil) throws {
            let script = """
                import http.server, sys
                status, body, location = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3]
                class Handler(http.server.BaseHTTPRequestHandler):
                    def reply(self, code, data, kind):
                        self.send_response(code)
                        if location and code != 200: self.send_header("Location", location)
                        self.send_header("Content-Type", kind)
                        self.send_header("Content-Length", str(len(data)))
                        self.end_headers()
                        self.wfile.write(data)
                    def do_POST(self):
                        self.rfile.read(int(self.headers.get("Content-Length") or 0))
                        self.reply(status, body, "text/html")
                    def do_GET(self):
                        if status >= 400: self.reply(status, body, "text/html")
                        else: self.reply(200, b'{"campaigns": []}', "application/json")
                    def log_message(self, *arguments): pass
                import os, time
                server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
                server.timeout = 0.5
                print(server.server_address[1], flush=True)
                # Gone with the test process, and after ten minutes at most (a crowded run can hold a test's command
                # that long before it starts): never left behind.
                parent, deadline = os.getppid(), time.time() + 600
                while os.getppid() == parent and time.time() < deadline:
                    server.handle_request()
                """
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script, String(status), body, location ?? ""]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let line = output.fileHandleForReading.availableData
            guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                process.terminate()
                throw POSIXError(.EIO)
            }
            self.port = port
        }

        func stop() {
            if process.isRunning { process.terminate() }
        }

        deinit { stop() }
    }

    @Test("a redirect is reported with its Location and the command fails; nothing is re-sent as a GET")
    func redirectIsNotFollowed() async throws {
        let server = try CannedServer(status: 301, body: "moved", location: "/api/v1/campaigns")
        defer { server.stop() }
        let created = try await Subprocess.tessera(
            ["campaign", "create", "--server", "http://127.0.0.1:\(server.port)/old", "--template", "event-ticket", "--void"],
            environment: ["TESSERA_ADMIN_TOKEN": "a-token-for-a-server-that-moved"])
        #expect(created.status == 1, "\(created.stdout)\(created.stderr)")
        #expect(created.stderr.contains("301") && created.stderr.contains("redirects to /api/v1/campaigns"), "\(created.stderr)")
        #expect(!created.stdout.contains("campaigns"), "the list a followed GET would have printed")
    }

    @Test("a proxy's error page is cut and stripped of control characters, after the URL and status")
    func proxyPageIsPrintable() async throws {
        let page = "<html>" + String(repeating: "x", count: 5000) + "\u{1B}[2J</html>"
        let server = try CannedServer(status: 502, body: page)
        defer { server.stop() }
        let listed = try await Subprocess.tessera(
            ["campaign", "list", "--server", "http://127.0.0.1:\(server.port)"],
            environment: ["TESSERA_ADMIN_TOKEN": "a-token-for-a-server-behind-a-proxy"])
        #expect(listed.status == 1)
        #expect(listed.stderr.contains("502: not the API's answer: <html>xxx"), "\(listed.stderr.prefix(300))")
        #expect(!listed.stderr.contains("\u{1B}") && listed.stderr.count < 1_000, "\(listed.stderr.count) characters")
        #expect(!listed.stderr.contains("plain HTTP"), "loopback is not warned about")
    }

    @Test("plain HTTP to another machine is warned about: the admin token would go unencrypted")
    func plainHTTPIsWarned() async throws {
        // A reserved name that never resolves: the warning comes before any connection.
        let listed = try await Subprocess.tessera(
            ["campaign", "list", "--server", "http://tessera.invalid:8080"],
            environment: ["TESSERA_ADMIN_TOKEN": "a-token-never-sent-in-clear"])
        #expect(listed.status != 0)
        #expect(listed.stderr.contains("warning: --server: http://tessera.invalid:8080 is plain HTTP to another machine"),
                "\(listed.stderr)")
    }
}
