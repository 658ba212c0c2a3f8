import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOHTTP1
import PassModel
import PassWebService

/// `tessera campaign`: the campaign API of a running `tessera serve`, from the command line.
struct CampaignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "campaign",
        abstract: "Change many passes at once through a running server's campaign API.",
        subcommands: [CampaignCreateCommand.self, CampaignShowCommand.self, CampaignListCommand.self, CampaignCancelCommand.self]
    )
}

/// Where the server is and how to authenticate.
struct CampaignServerOptions: ParsableArguments {
    @Option(help: "The server's base URL, as --public-url names it (TESSERA_SERVER_URL; default http://127.0.0.1:8080).")
    var server: String?

    @Option(help: "File holding the issuer API's bearer token (TESSERA_ADMIN_TOKEN_FILE or TESSERA_ADMIN_TOKEN).")
    var adminTokenFile: String?

    /// The campaign API's base URL and token.
    func resolve() throws -> (base: String, token: String) {
        try resolve(path: "/api/v1/campaigns")
    }

    /// The URL of an issuer API path on the server, and the token.
    func resolve(path: String) throws -> (base: String, token: String) {
        let environment = ProcessInfo.processInfo.environment
        var base = server ?? environment["TESSERA_SERVER_URL"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: base), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw CommandFailure(message: "--server: \(base) is not an http or https URL", exitCode: 2)
        }
        while base.hasSuffix("/") { base.removeLast() }
        // The admin token opens every pass: over plain HTTP to another machine anyone on the way reads it.
        if url.scheme == "http", let host = url.host?.lowercased(),
           !(["localhost", "127.0.0.1", "::1", "[::1]"].contains(host) || host.hasSuffix(".localhost") || host.hasPrefix("127."))
        {
            Terminal.standardError("warning: --server: \(base) is plain HTTP to another machine: the admin token goes "
                + "unencrypted; use https")
        }
        guard let token = try Secret.read(
            file: adminTokenFile ?? environment["TESSERA_ADMIN_TOKEN_FILE"], environment: "TESSERA_ADMIN_TOKEN",
            flag: "--admin-token-file"),
            !token.isEmpty
        else {
            throw CommandFailure(message: "--admin-token-file: the issuer API's token is needed (or TESSERA_ADMIN_TOKEN)", exitCode: 2)
        }
        return (base + path, token)
    }
}

/// One request to the campaign API; a refusal becomes a ``CommandFailure`` with the server's message.
enum CampaignAPI {
    /// A connection that cannot be made fails at once (refused, unknown host) or after 10 s (no answer), instead of
    /// being tried again until the request's deadline: a server that is not running is said so, not waited for. A
    /// server that takes the connection and then says nothing for 10 s (stopped, or its port held by something else)
    /// is said so too: every answer of these routes is made in milliseconds.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        configuration.timeout.read = .seconds(10)
        // A redirect is reported, not followed: followed, a 301 or 302 turns a POST into a GET that succeeds, and a
        // campaign or key never made would be reported as made.
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Why a server could not be reached, in words: the system's (`Connection refused`) rather than NIO's wrapping.
    static func unreachable(_ error: any Error) -> String {
        if let failure = error as? NIOConnectionError {
            if let first = failure.connectionErrors.first { return unreachable(first.error) }
            if let resolution = failure.dnsAAAAError ?? failure.dnsAError { return "the name does not resolve (\(resolution))" }
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        if let client = error as? HTTPClientError, client == .connectTimeout { return "no connection within 10 s" }
        if let client = error as? HTTPClientError, client == .readTimeout { return "no answer within 10 s" }
        return "\(error)"
    }

    static func send(
        _ method: HTTPMethod, _ url: String, token: String, body: Data? = nil, idempotencyKey: String? = nil
    ) async throws -> [String: JSONValue] {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await client.execute(request, timeout: .seconds(60))
            bytes = try await response.body.collect(upTo: 16 << 20)
        } catch {
            throw CommandFailure(message: "\(url): cannot reach the server: \(unreachable(error))")
        }
        let json = try? JSONValue(jsonData: Data(bytes.readableBytesView))
        if (300..<400).contains(response.status.code) {
            let location = response.headers.first(name: "Location").map { " to \(printable($0, limit: 200))" } ?? ""
            throw CommandFailure(message: "\(url): \(response.status.code): the server redirects\(location); give that URL "
                + "with --server (a redirect is not followed)")
        }
        guard (200..<300).contains(response.status.code) else {
            let error = json?.objectValue?["error"]?.objectValue
            // Not the API's error (a proxy's page): its start, printable, so a page of HTML or escape codes does
            // not flood or drive the terminal.
            let message = error?["message"]?.stringValue
                ?? "not the API's answer: " + printable(String(decoding: bytes.readableBytesView, as: UTF8.self), limit: 300)
            throw CommandFailure(message: "\(url): \(response.status.code): \(printable(message, limit: 2000))")
        }
        if response.status.code == 204 { return [:] }
        guard case .object(let members)? = json else {
            throw CommandFailure(message: "\(url): the answer is not a JSON object")
        }
        return members
    }

    /// `text` cut to `limit` characters, its control characters escaped as the server's logs escape them.
    static func printable(_ text: String, limit: Int) -> String {
        LogRedactor.escapeControlCharacters(String(text.prefix(limit))) + (text.count > limit ? "…" : "")
    }

    static func print(_ value: [String: JSONValue]) throws {
        let text = try JSONValue.object(value).jsonData(sortedKeys: true, prettyPrinted: true)
        FileHandle.standardOutput.write(text + Data("\n".utf8))
    }

    /// Reads the campaign until it finishes, redrawing a progress bar on a terminal.
    static func follow(_ url: String, token: String, campaign: [String: JSONValue]) async throws -> [String: JSONValue] {
        var current = campaign
        while !["done", "cancelled", "failed"].contains(current["state"]?.stringValue ?? "") {
            try await Task.sleep(for: .milliseconds(500))
            current = try await send(.GET, url, token: token)
            func count(_ key: String) -> Int {
                switch current[key] {
                case .integer(let value)?: value
                case .number(let value)?: Int(value)
                default: 0
                }
            }
            let (matched, changed, failed) = (count("matched"), count("changed"), count("failed"))
            if current["state"]?.stringValue == "running" || matched > 0 {
                Terminal.progress(done: changed + failed, total: max(matched, changed + failed, 1), failed: failed)
            }
        }
        return current
    }
}

struct CampaignCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Start a campaign: a JSON body (--file), or the flags below; prints the campaign.")

    @OptionGroup var server: CampaignServerOptions

    @Option(help: "The campaign as JSON (the POST /api/v1/campaigns body); - for standard input.")
    var file: String?

    @Option(help: "Select the passes of this template.")
    var template: String?

    @Option(help: "Select only passes whose field KEY has VALUE (KEY=VALUE; repeatable; with --template).")
    var whereField: [String] = []

    @Option(help: "Select these serial numbers of --pass-type-identifier: a file with one per line.")
    var serialsFile: String?

    @Option(help: "The pass type of --serials-file's serial numbers.")
    var passTypeIdentifier: String?

    @Option(help: "Set field KEY to VALUE, as text, in every selected pass (KEY=VALUE; repeatable).")
    var set: [String] = []

    @Option(name: .customLong("set-json"),
            help: "Set field KEY to a JSON VALUE in every selected pass: a number for a field shown as an amount or a count (KEY=VALUE; repeatable).")
    var setJSON: [String] = []

    @Flag(help: "Void the selected passes.")
    var void = false

    @Flag(help: "Unvoid the selected (voided) passes.")
    var unvoid = false

    @Flag(help: "Rebuild the selected passes from their template's current content.")
    var republishTemplate = false

    @Flag(help: "Include voided passes in the selection.")
    var includeVoided = false

    @Option(help: "The sentence Wallet shows on the lock screen.")
    var message: String?

    @Option(help: "When the campaign applies (RFC 3339, 2026-12-31T23:00:00Z); default now.")
    var at: String?

    @Option(help: "Idempotency-Key: the same key and body return the same campaign.")
    var idempotencyKey: String?

    @Flag(help: "Wait until the campaign finishes, with a progress bar on a terminal.")
    var wait = false

    func run() async throws {
        let (base, token) = try server.resolve()
        let body = try requestBody()
        let created = try await CampaignAPI.send(.POST, base, token: token, body: body, idempotencyKey: idempotencyKey)
        guard wait, let id = created["id"]?.stringValue else { return try CampaignAPI.print(created) }
        let finished = try await CampaignAPI.follow("\(base)/\(id)", token: token, campaign: created)
        try CampaignAPI.print(finished)
        if finished["state"]?.stringValue != "done" { throw ExitCode(1) }
    }

    private func requestBody() throws -> Data {
        let usesFlags = template != nil || serialsFile != nil || !set.isEmpty || !setJSON.isEmpty || void || unvoid
            || republishTemplate
            || message != nil || at != nil || !whereField.isEmpty || includeVoided
        if let file {
            guard !usesFlags else {
                throw CommandFailure(message: "--file: give the whole campaign in the file, or use the flags, not both", exitCode: 2)
            }
            let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file)
            guard let data else { throw CommandFailure(message: "--file: \(file) not found or unreadable") }
            guard case .object? = try? JSONValue(jsonData: data) else {
                throw CommandFailure(message: "--file: \(file) is not a JSON object")
            }
            return data
        }
        // What the server would refuse, refused here first (exit 2), without a round trip.
        let actions = [("--set", !set.isEmpty || !setJSON.isEmpty), ("--void", void), ("--unvoid", unvoid), ("--republish-template", republishTemplate)]
            .filter(\.1).map(\.0)
        guard actions.count == 1 else {
            throw CommandFailure(message: actions.isEmpty
                ? "--set, --void, --unvoid or --republish-template: say what the campaign does"
                : "\(actions[1]): one action per campaign, found \(actions.joined(separator: " and "))", exitCode: 2)
        }
        if template != nil, serialsFile != nil {
            throw CommandFailure(message: "--serials-file: select by --template or by --serials-file, not both", exitCode: 2)
        }
        if passTypeIdentifier != nil, serialsFile == nil {
            throw CommandFailure(message: "--pass-type-identifier: only with --serials-file (a template names its own)", exitCode: 2)
        }
        if !whereField.isEmpty, template == nil {
            throw CommandFailure(message: "--where-field: only with --template", exitCode: 2)
        }
        if let at, RFC3339.date(at) == nil {
            throw CommandFailure(message: "--at: \(at) is not an RFC 3339 date-time with a time zone (2026-12-31T23:00:00Z)", exitCode: 2)
        }
        var select: [String: JSONValue] = [:]
        if let template { select["template"] = .string(template) }
        if let serialsFile {
            guard let text = FileManager.default.contents(atPath: serialsFile).map({ String(decoding: $0, as: UTF8.self) }) else {
                throw CommandFailure(message: "--serials-file: \(serialsFile) not found or unreadable")
            }
            select["serialNumbers"] = .array(text.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map(JSONValue.string))
            guard let passTypeIdentifier else {
                throw CommandFailure(message: "--pass-type-identifier: needed with --serials-file", exitCode: 2)
            }
            select["passTypeIdentifier"] = .string(passTypeIdentifier)
        }
        guard !select.isEmpty else {
            throw CommandFailure(message: "--template or --serials-file: say which passes (or give --file)", exitCode: 2)
        }
        if !whereField.isEmpty { select["fields"] = .object(try Self.pairs(whereField, flag: "--where-field")) }
        if includeVoided { select["includeVoided"] = .bool(true) }
        var body: [String: JSONValue] = ["select": .object(select)]
        if !set.isEmpty || !setJSON.isEmpty {
            var fields = try Self.pairs(set, flag: "--set")
            for (key, text) in try Self.pairs(setJSON, flag: "--set-json") {
                guard fields[key] == nil else { throw CommandFailure(message: "--set-json: \(key) also given to --set", exitCode: 2) }
                guard case .string(let json) = text, let value = try? JSONValue(jsonData: Data(json.utf8)) else {
                    throw CommandFailure(message: "--set-json: \(key)'s value is not JSON (a number such as 25.00, \"text\" in quotes)",
                                         exitCode: 2)
                }
                fields[key] = value
            }
            body["data"] = .object(["fields": .object(fields)])
        }
        if void { body["void"] = .bool(true) }
        if unvoid { body["unvoid"] = .bool(true) }
        if republishTemplate { body["republishTemplate"] = .bool(true) }
        if let message { body["message"] = .string(message) }
        if let at { body["scheduledAt"] = .string(at) }
        return try JSONValue.object(body).jsonData(sortedKeys: true, prettyPrinted: false)
    }

    private static func pairs(_ values: [String], flag: String) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for value in values {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                throw CommandFailure(message: "\(flag): \(value) is not KEY=VALUE", exitCode: 2)
            }
            let key = String(value[..<equals])
            guard result[key] == nil else { throw CommandFailure(message: "\(flag): \(key) given twice", exitCode: 2) }
            result[key] = .string(String(value[value.index(after: equals)...]))
        }
        return result
    }
}

struct CampaignShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a campaign.")

    @OptionGroup var server: CampaignServerOptions

    @Argument(help: "The campaign's id.")
    var id: String

    @Flag(help: "Wait until the campaign finishes, with a progress bar on a terminal.")
    var wait = false

    func run() async throws {
        let (base, token) = try server.resolve()
        let url = "\(base)/\(Self.escaped(id))"
        var campaign = try await CampaignAPI.send(.GET, url, token: token)
        if wait { campaign = try await CampaignAPI.follow(url, token: token, campaign: campaign) }
        try CampaignAPI.print(campaign)
    }

    static func escaped(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
    }
}

struct CampaignListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List campaigns, newest first.")

    @OptionGroup var server: CampaignServerOptions

    @Option(help: "Only campaigns in this state (scheduled, running, done, cancelled, failed).")
    var state: String?

    @Option(help: "At most this many (1-200).")
    var limit: Int?

    @Option(help: "The nextCursor of the previous page.")
    var cursor: String?

    func run() async throws {
        let (base, token) = try server.resolve()
        var query: [String] = []
        if let state { query.append("state=\(CampaignShowCommand.escaped(state))") }
        if let limit { query.append("limit=\(limit)") }
        if let cursor { query.append("cursor=\(CampaignShowCommand.escaped(cursor))") }
        try CampaignAPI.print(try await CampaignAPI.send(.GET, base + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), token: token))
    }
}

struct CampaignCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Cancel a scheduled or running campaign; what changed stays changed.")

    @OptionGroup var server: CampaignServerOptions

    @Argument(help: "The campaign's id.")
    var id: String

    func run() async throws {
        let (base, token) = try server.resolve()
        try CampaignAPI.print(try await CampaignAPI.send(.DELETE, "\(base)/\(CampaignShowCommand.escaped(id))", token: token))
    }
}
