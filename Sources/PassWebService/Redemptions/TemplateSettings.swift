import Foundation
import PassModel
public import PassStore

/// A template's server settings: `.tessera.json` in its folder, beside `pass.json`. The name starts with a dot, so the
/// file is never packed into a pass and does not change the template's content version.
///
/// ```json
/// {"redemption": {"rule": "count", "limit": 10, "voidWhenRedeemed": true}}
/// ```
///
/// - `redemption`: `"once"` (the default: a second scan is `alreadyRedeemed`), `"count"` (every scan counts; up to
///   `limit` when given: punch cards, multi-entry tickets), or an object with `rule`, `limit` and `voidWhenRedeemed`
///   (the scan that uses the pass up voids it: a new version, pushed to the holder's devices).
struct TemplateSettings: Sendable, Equatable {
    /// The file's name in a template folder.
    static let fileName = ".tessera.json"
    /// The largest `limit` a `count` rule takes.
    static let maximumLimit = 1_000_000

    var redemption: RedemptionRule = .once

    init() {}

    /// Reads the settings of a template folder; a folder without the file has the defaults.
    /// - Throws: A sentence naming the file and member at fault.
    init(folder: URL) throws {
        let url = folder.appendingPathComponent(Self.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            self.init()
            return
        }
        let value: JSONValue
        do {
            value = try JSONValue(jsonData: try Data(contentsOf: url))
        } catch {
            throw SettingsError("\(Self.fileName): not a JSON object (\(error))")
        }
        try self.init(value)
    }

    init(_ value: JSONValue) throws {
        guard let members = value.objectValue else {
            throw SettingsError("\(Self.fileName): must be a JSON object, found \(value.kindName)")
        }
        for key in members.keys where key != "redemption" {
            throw SettingsError("\(Self.fileName): unknown member \"\(key)\" (known: redemption)")
        }
        if let redemption = members["redemption"] { self.redemption = try Self.rule(redemption) }
    }

    private static func rule(_ value: JSONValue) throws -> RedemptionRule {
        let path = "\(fileName): redemption"
        var members: [String: JSONValue]
        switch value {
        case .string(let name): members = ["rule": .string(name)]
        case .object(let given): members = given
        default: throw SettingsError("\(path): must be \"once\", \"count\" or an object, found \(value.kindName)")
        }
        for key in members.keys where !["rule", "limit", "voidWhenRedeemed"].contains(key) {
            throw SettingsError("\(path).\(key): unknown member (known: rule, limit, voidWhenRedeemed)")
        }
        var voids = false
        if let given = members["voidWhenRedeemed"] {
            guard let flag = given.boolValue else {
                throw SettingsError("\(path).voidWhenRedeemed: must be true or false, found \(given.kindName)")
            }
            voids = flag
        }
        switch members["rule"]?.stringValue ?? "once" {
        case "once":
            guard members["limit"] == nil else { throw SettingsError("\(path).limit: only a \"count\" rule has a limit") }
            return RedemptionRule(limit: 1, voidsWhenUsedUp: voids)
        case "count":
            var limit: Int?
            if let given = members["limit"] {
                guard let number = given.intValue, (1...maximumLimit).contains(number) else {
                    throw SettingsError("\(path).limit: must be a whole number from 1 to \(maximumLimit)")
                }
                limit = number
            }
            guard !voids || limit != nil else {
                throw SettingsError("\(path).voidWhenRedeemed: a \"count\" rule voids its passes only with a limit")
            }
            return RedemptionRule(limit: limit, voidsWhenUsedUp: voids)
        case let other:
            throw SettingsError("\(path).rule: must be \"once\" or \"count\", found \"\(other)\"")
        }
    }
}

/// A template's `.tessera.json` is not valid.
struct SettingsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
