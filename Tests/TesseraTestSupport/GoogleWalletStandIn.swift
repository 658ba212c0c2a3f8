public import Foundation
import TestChildProcess

/// Google's OAuth 2.0 token endpoint and Google Wallet's REST API (`walletobjects/v1`) on loopback, written in
/// Python: it verifies each token request's JWT assertion with PyJWT against the service account's public key,
/// keeps classes and objects as Google does (insert answers 409 for an existing id, patch and update 404 for a
/// missing one), records every request as a line of JSON, and answers 429 to the next N API requests on demand.
public final class GoogleWalletStandIn: @unchecked Sendable {
    /// One recorded API request.
    public struct Request: Sendable {
        /// `POST`, `PATCH`, `PUT`, `GET`.
        public var method: String
        /// The path, such as `/walletobjects/v1/eventTicketObject/3388.pass.x`.
        public var path: String
        /// The status answered.
        public var status: Int
        /// The JSON body.
        public var bodyJSON: String

        /// The body as a dictionary.
        public var body: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(bodyJSON.utf8)) as? [String: Any]) ?? [:] }
    }

    static let script = #"""
import http.server, json, os, ssl, sys, threading, time, urllib.parse
import jwt
out_path, public_key_path, issuer_email = sys.argv[1], sys.argv[2], sys.argv[3]
tls = sys.argv[4:6]  # certificate and key PEM files: https
public_key = open(public_key_path, "rb").read()
fail_path = out_path + ".fail429"
refuse_path = out_path + ".refusegrants"
revoke_path = out_path + ".revoke"
lock = threading.Lock()
store = {}
tokens = set()
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def record(self, status, body):
        with open(out_path, "a") as out:
            out.write(json.dumps({"method": self.command, "path": self.path, "status": status, "body": body}) + "\n")
    def handle_any(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length) if length else b""
        if self.path == "/token":
            form = urllib.parse.parse_qs(raw.decode())
            with lock:
                left = int(open(refuse_path).read() or "0") if os.path.exists(refuse_path) else 0
                if left > 0:
                    open(refuse_path, "w").write(str(left - 1))
                    with open(out_path, "a") as out:
                        out.write(json.dumps({"method": "POST", "path": "/token", "status": 400, "body": {}}) + "\n")
                    return self.answer(400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
            try:
                claims = jwt.decode(form["assertion"][0], public_key, algorithms=["RS256"], audience=self.token_uri())
                assert form["grant_type"][0] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
                assert claims["iss"] == issuer_email and "wallet_object.issuer" in claims["scope"]
            except Exception as error:
                return self.answer(400, {"error": "invalid_grant", "error_description": str(error)})
            with lock:
                token = "ya29.standin-%d" % (len(tokens) + 1)
                tokens.add(token)
                with open(out_path, "a") as out:
                    out.write(json.dumps({"method": "POST", "path": "/token", "status": 200, "body": {}}) + "\n")
            return self.answer(200, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"})
        body = json.loads(raw) if raw else {}
        with lock:
            if os.path.exists(revoke_path):
                tokens.clear()
                os.remove(revoke_path)
            if self.headers.get("Authorization", "")[7:] not in tokens:
                self.record(401, body)
                return self.answer(401, {"error": {"code": 401, "message": "Request had invalid authentication credentials."}})
            if os.path.exists(fail_path):
                left = int(open(fail_path).read() or "0")
                if left > 0:
                    open(fail_path, "w").write(str(left - 1))
                    self.record(429, body)
                    return self.answer(429, {"error": {"code": 429, "message": "Quota exceeded"}})
            parts = self.path.split("?")[0].split("/")[3:]   # /walletobjects/v1/<resource>[/<id>[/addMessage]]
            resource = parts[0] if parts else ""
            key = (resource, urllib.parse.unquote(parts[1])) if len(parts) > 1 else (resource, body.get("id"))
            if self.command == "POST" and len(parts) == 1:
                status = 409 if key in store else 200
                if status == 200:
                    store[key] = body
            elif self.command == "POST" and len(parts) == 3 and parts[2] == "addMessage":
                status = 200 if key in store else 404
                if status == 200:
                    store[key].setdefault("messages", []).append(body.get("message"))
            elif self.command in ("PUT", "PATCH") and len(parts) == 2:
                status = 200 if key in store else 404
                if status == 200:
                    store[key] = body if self.command == "PUT" else {**store[key], **body}
            elif self.command == "GET" and len(parts) == 2:
                status = 200 if key in store else 404
            else:
                status = 400
            self.record(status, body)
            result = store.get(key, {"error": {"code": status, "message": "stand-in"}})
        return self.answer(status, result if status == 200 else {"error": {"code": status, "message": "stand-in %d" % status}})
    def token_uri(self):
        return "%s://127.0.0.1:%d/token" % ("https" if tls else "http", self.server.server_address[1])
    do_POST = do_PUT = do_PATCH = do_GET = handle_any
    def log_message(self, *args):
        pass
def orphaned():
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)
threading.Thread(target=orphaned, daemon=True).start()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
if tls:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls[0], tls[1])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

    /// The stand-in's folder (the service account file, recorded requests).
    public let folder: URL
    /// Its port.
    public let port: Int
    /// A service account key file whose `token_uri` is this stand-in; its key is made at test time.
    public let serviceAccountFile: URL
    /// The service account's public key (PEM), to verify save links with.
    public let publicKeyFile: URL
    /// The service account's e-mail.
    public let clientEmail = "tessera-test@tessera-tests.iam.gserviceaccount.com"
    /// The service account's key id.
    public let privateKeyID = "test-key-\(UInt32.random(in: 1...UInt32.max))"
    private let process: ChildProcess
    private var output: URL { folder.appendingPathComponent("requests.jsonl") }

    /// The API's base URL, for `--google-api-url`.
    public var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }
    private let scheme: String

    /// Makes a service account key and starts the stand-in.
    /// - Parameter tls: A server certificate to answer https with (the token endpoint too); http when `nil`.
    public init(tls: TestServerCertificates? = nil) throws {
        scheme = tls == nil ? "http" : "https"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("google-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("key.pem")
        publicKeyFile = folder.appendingPathComponent("public.pem")
        for arguments in [["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key.path],
                          ["pkey", "-in", key.path, "-pubout", "-out", publicKeyFile.path]] {
            let openssl = ChildProcess()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            openssl.arguments = ["openssl"] + arguments
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            openssl.waitUntilExit()
        }
        let script = folder.appendingPathComponent("google.py")
        try Data(Self.script.utf8).write(to: script)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("requests.jsonl").path, contents: nil)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, folder.appendingPathComponent("requests.jsonl").path, publicKeyFile.path, clientEmail]
            + (tls.map { [$0.serverCertificatePEMPath, $0.serverKeyPEMPath] } ?? [])
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let line = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "Google stand-in said \(line)"])
        }
        self.port = port
        serviceAccountFile = folder.appendingPathComponent("service-account.json")
        let account: [String: String] = [
            "type": "service_account", "project_id": "tessera-tests", "private_key_id": privateKeyID,
            "private_key": try String(contentsOf: key, encoding: .utf8), "client_email": clientEmail,
            "client_id": "1", "token_uri": "\(scheme)://127.0.0.1:\(port)/token",
        ]
        try JSONSerialization.data(withJSONObject: account).write(to: serviceAccountFile)
    }

    deinit { stop() }

    /// Stops the stand-in (a kill: what it recorded stays).
    public func stop() {
        if process.isRunning { process.terminate() }
    }

    /// Revokes every access token given so far (the next API request with one answers 401) and refuses the next
    /// `count` token requests with 400 `invalid_grant`, as Google does for a deleted or rotated service account key.
    public func refuseGrants(_ count: Int) throws {
        try Data(String(count).utf8).write(to: folder.appendingPathComponent("requests.jsonl.refusegrants"))
        try Data().write(to: folder.appendingPathComponent("requests.jsonl.revoke"))
    }

    /// Answers 429 to the next `count` API requests.
    public func failNext(_ count: Int) throws {
        try Data(String(count).utf8).write(to: folder.appendingPathComponent("requests.jsonl.fail429"))
    }

    /// Every request so far.
    public func requests() -> [Request] {
        guard let text = try? String(contentsOf: output, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Request(method: json["method"] as? String ?? "", path: json["path"] as? String ?? "",
                           status: json["status"] as? Int ?? 0,
                           bodyJSON: String(decoding: (try? JSONSerialization.data(withJSONObject: json["body"] ?? [:])) ?? Data(), as: UTF8.self))
        }
    }

    /// API requests (not token requests) whose path contains `fragment`.
    public func requests(matching fragment: String) -> [Request] {
        requests().filter { $0.path != "/token" && $0.path.contains(fragment) }
    }
}
