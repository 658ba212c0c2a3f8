import Foundation
import Testing
import TesseraTestSupport

/// A webhook receiver on loopback written in Python: an implementation independent of the server's, checking each
/// request's `Tessera-Signature` with Python's own `hmac`, recording every request (answer status, whether the
/// signature held, the event) as a line of JSON, and answering 503 while its `fail` file exists.
final class WebhookReceiver: @unchecked Sendable {
    struct Request {
        var status: Int
        var signatureValid: Bool
        var eventID: String
        var event: [String: Any]
    }

    static let script = #"""
import hashlib, hmac, http.server, json, os, sys, threading, time
out_path, secret = sys.argv[1], open(sys.argv[2], "rb").read().rstrip(b"\r\n")
fail_path = out_path + ".fail"
lock = threading.Lock()
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        fields = dict(part.split("=", 1) for part in self.headers.get("Tessera-Signature", "").split(",") if "=" in part)
        expected = hmac.new(secret, fields.get("t", "").encode() + b"." + body, hashlib.sha256).hexdigest()
        fresh = fields.get("t", "").isdigit() and abs(time.time() - int(fields["t"])) < 300
        valid = fresh and hmac.compare_digest(expected, fields.get("v1", ""))
        status = 503 if os.path.exists(fail_path) else 200
        with lock, open(out_path, "a") as out:
            out.write(json.dumps({"status": status, "valid": valid, "eventId": self.headers.get("Tessera-Event-Id"),
                                  "body": body.decode("utf-8")}) + "\n")
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
def orphaned():
    # Ends with the test process that started it.
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)
threading.Thread(target=orphaned, daemon=True).start()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

    let folder: URL
    let secretFile: URL
    let port: Int
    private let process: ChildProcess
    private var output: URL { folder.appendingPathComponent("requests.jsonl") }
    private var failFlag: URL { folder.appendingPathComponent("requests.jsonl.fail") }

    /// Starts the receiver (answering 503 from the start when `failing`).
    init(failing: Bool = false) throws {
        folder = try TemporaryDirectory.make(prefix: "webhook-receiver")
        secretFile = folder.appendingPathComponent("secret")
        // Saved as on Windows (CRLF): the server signs with the secret without its line ending, as the receiver
        // reads it.
        try (Data((0..<24).map { _ in UInt8.random(in: 0...255) }).base64EncodedData() + Data("\r\n".utf8)).write(to: secretFile)
        let script = folder.appendingPathComponent("receiver.py")
        try Data(Self.script.utf8).write(to: script)
        let output = folder.appendingPathComponent("requests.jsonl")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, output.path, secretFile.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        // Not the test run's own output: a child holding it open would keep the run from ending.
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
        self.process = process
        port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)), "receiver said \(line)")
        self.failing = failing
    }

    deinit { stop() }

    /// Stops the receiver.
    func stop() {
        if process.isRunning { process.terminate() }
    }

    var url: String { "http://127.0.0.1:\(port)/hooks/tessera" }

    /// The `serve` flags posting to it.
    var serveArguments: [String] {
        ["--webhook-url", url, "--webhook-secret-file", secretFile.path, "--webhook-allow-private"]
    }

    /// Whether it answers 503.
    var failing: Bool {
        get { FileManager.default.fileExists(atPath: failFlag.path) }
        set {
            if newValue {
                _ = FileManager.default.createFile(atPath: failFlag.path, contents: nil)
            } else {
                try? FileManager.default.removeItem(at: failFlag)
            }
        }
    }

    /// Every request so far.
    var requests: [Request] {
        let text = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let body = object["body"] as? String,
                  let event = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            else { return nil }
            return Request(status: object["status"] as? Int ?? 0, signatureValid: object["valid"] as? Bool ?? false,
                           eventID: object["eventId"] as? String ?? "", event: event)
        }
    }

    /// The events it accepted (answered 200), in arrival order.
    var accepted: [Request] { requests.filter { $0.status == 200 } }

    /// Waits (up to `seconds`, scaled) until `condition` holds for the requests.
    @discardableResult
    func wait(seconds: Double = 60, until condition: ([Request]) -> Bool) async throws -> [Request] {
        let deadline = Date().addingTimeInterval(TestTime.seconds(seconds))
        while Date() < deadline {
            let current = requests
            if condition(current) { return current }
            try await Task.sleep(for: .milliseconds(100))
        }
        return requests
    }
}
