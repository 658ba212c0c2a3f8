import Foundation
import Testing
import TesseraTestSupport

/// `tessera keys create --secret-file` interrupted while the server makes the key: the key and its secret's file, or
/// neither — never an empty file beside a key nobody holds.
@Suite("tessera keys create interrupted")
struct KeysInterruptTests {
    /// A server that answers a key's creation after `delay` seconds, as a slow one would.
    static let standIn = #"""
import http.server, json, sys, time, threading, os
delay = float(sys.argv[1])
class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        time.sleep(delay)
        body = json.dumps({"id": "key_slow1", "name": "brand-s", "secret": "tsk_" + "s" * 40}).encode()
        self.send_response(201); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *args): pass
def orphaned():
    parent = os.getppid()
    while os.getppid() == parent: time.sleep(0.5)
    os._exit(0)
threading.Thread(target=orphaned, daemon=True).start()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

    @Test(arguments: [1, 2])
    func interruptedWhileTheKeyIsMade(signals: Int) async throws {
        try await offCooperativePool { try run(signals: signals) }
    }

    func run(signals: Int) throws {
        let work = try TemporaryDirectory.make(prefix: "keys-interrupt")
        let server = ChildProcess()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-c", Self.standIn, "3"]
        let port = Pipe()
        server.standardOutput = port
        try server.run()
        defer { server.terminate() }
        let line = String(decoding: port.fileHandleForReading.availableData, as: UTF8.self)
        let portNumber = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)), "\(line)")
        let token = work.appendingPathComponent("admin.token")
        try Data(String(repeating: "a", count: 32).utf8).write(to: token)
        let secretFile = work.appendingPathComponent("brand-s.secret")

        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: Subprocess.tesseraPath)
        process.arguments = ["keys", "create", "--name", "brand-s", "--identifier", "pass.com.brand-s.*", "--permission", "read",
                             "--secret-file", secretFile.path, "--server", "http://127.0.0.1:\(portNumber)",
                             "--admin-token-file", token.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The request is out (the file is made first), the answer 3 s away.
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: secretFile.path) { Thread.sleep(forTimeInterval: 0.02) }
        Thread.sleep(forTimeInterval: 0.5)
        for _ in 0..<signals {
            kill(process.processIdentifier, SIGINT)
            Thread.sleep(forTimeInterval: 0.2)
        }
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(stderr.contains("interrupted: finishing the key and writing its secret"), "\(stderr)")
        if signals == 1 {
            // The key was made and its secret kept.
            #expect(process.terminationStatus == 0, "\(stdout)\(stderr)")
            #expect(try String(contentsOf: secretFile, encoding: .utf8) == "tsk_" + String(repeating: "s", count: 40) + "\n")
            #expect(stdout.contains("key_slow1"))
        } else {
            // Stopped at once: no empty file left to refuse the next run.
            #expect(process.terminationStatus == 130, "\(stdout)\(stderr)")
            #expect(!FileManager.default.fileExists(atPath: secretFile.path))
        }
    }
}
