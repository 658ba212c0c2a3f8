import ArgumentParser
import Foundation
import NIOHTTP1
import PassModel

/// `tessera keys`: the issuer API keys of brands and teams on a running server (admin token only).
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make, list and revoke the API keys brands and teams use on a running server.",
        subcommands: [KeysCreateCommand.self, KeysListCommand.self, KeysRevokeCommand.self]
    )
}

/// `tessera keys create`.
struct KeysCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make an API key; its secret is printed this once.",
        discussion: """
        Example: tessera keys create --name brand-a --identifier 'pass.com.brand-a.*' --identifier order.com.brand-a.shop \
        --permission read --permission write. The key sees only passes, orders, templates, campaigns, events and \
        analytics of its identifiers (others answer exactly as if they did not exist).
        """
    )

    @OptionGroup var server: CampaignServerOptions

    @Option(help: "A name for people (brand-a).")
    var name: String

    @Option(help: "A pass or order type identifier the key covers, or a prefix ending in * (repeat for several).")
    var identifier: [String]

    @Option(help: "read, write or redeem (repeat for several).")
    var permission: [String]

    @Option(help: "Write the secret to this file (mode 0600) instead of printing it.")
    var secretFile: String?

    func run() async throws {
        let (url, token) = try server.resolve(path: "/api/v1/keys")
        let body: JSONValue = .object([
            "name": .string(name),
            "scope": .object(["identifiers": .array(identifier.map(JSONValue.string)),
                              "permissions": .array(permission.map(JSONValue.string))]),
        ])
        // The file is made before the key: a key is never made whose secret could not be kept, and a secret never
        // replaces a file that is there (another key's secret).
        let file = try secretFile.map { try SecretFile(creating: $0, flag: "--secret-file") }
        // Ctrl-C while the key is made: the step finishes (the key and its secret's file, or neither) and the command ends; a
        // second one stops at once, the empty file removed.
        let held = file.map { file in
            HeldSignals("\ninterrupted: finishing the key and writing its secret (interrupt again to stop at once; a key "
                        + "made then has no secret kept: see tessera keys list)") { file.discard() }
        }
        defer { held?.release() }
        var created: [String: JSONValue]
        do {
            created = try await CampaignAPI.send(
                .POST, url, token: token, body: try body.jsonData(sortedKeys: true, prettyPrinted: false))
        } catch {
            file?.discard()
            throw error
        }
        if let file {
            let id = created["id"]?.stringValue
            do {
                guard let secret = created["secret"]?.stringValue else {
                    file.discard()
                    throw CommandFailure(message: "the server's answer has no secret")
                }
                try file.write(secret)
            } catch let failure as CommandFailure {
                // The secret is lost with the file: the key is revoked, so no key stays that nobody holds.
                if let id { _ = try? await CampaignAPI.send(.DELETE, "\(url)/\(id)", token: token) }
                throw CommandFailure(message: failure.message + (id.map { "; the key \($0) was revoked" } ?? ""))
            }
            created["secret"] = .string("(written to \(file.path))")
        }
        try CampaignAPI.print(created)
    }
}

/// `tessera keys list`.
struct KeysListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the API keys not revoked (never their secrets).")

    @OptionGroup var server: CampaignServerOptions

    func run() async throws {
        let (url, token) = try server.resolve(path: "/api/v1/keys")
        try CampaignAPI.print(try await CampaignAPI.send(.GET, url, token: token))
    }
}

/// `tessera keys revoke`.
struct KeysRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke an API key at once, on every server process of the database.")

    @OptionGroup var server: CampaignServerOptions

    @Argument(help: "The key's id (key_…).")
    var id: String

    func validate() throws {
        guard id.hasPrefix("key_"), id.count < 100, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw ValidationError("the id looks like key_… (see tessera keys list)")
        }
    }

    func run() async throws {
        let (url, token) = try server.resolve(path: "/api/v1/keys")
        _ = try await CampaignAPI.send(.DELETE, "\(url)/\(id)", token: token)
        print("revoked \(id)")
    }
}
