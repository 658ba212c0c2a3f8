import Foundation
import PassBundle
import PassModel
import PassStore

extension PassIssuer {
    /// A validator's warning as the issuer API reports it: by its path in the data document, except
    /// `webServiceURL`, which the server sets from its public URL (`--public-url`), not the data.
    static func warningText(_ issue: ValidationIssue) -> String {
        issue.path == "webServiceURL"
            ? "webServiceURL (the server's --public-url): \(issue.message)"
            : "data.\(issue.path): \(issue.message)"
    }

    /// Builds and signs one version. Personalized passes use the template without `personalization.json`, with
    /// the holder's details set in fields whose keys match (`fullName`, `emailAddress`, `postalCode`, ...).
    func buildNow(_ pass: PassRecord, entry: TemplateLibrary.Entry) throws -> (bundle: Data, warnings: [String]) {
        let (builder, data) = try prepare(pass, entry: entry)
        let built = try Self.asIssuerErrors { try builder.build(data: data) }
        return (built.bundle, built.warnings.map(Self.warningText))
    }

    /// Checks that `pass` builds with `entry`, as ``buildNow(_:entry:)`` does, without making or signing its bundle.
    /// - Throws: ``IssuerError`` 422 for data the template refuses.
    func checkNow(_ pass: PassRecord, entry: TemplateLibrary.Entry) throws {
        let (builder, data) = try prepare(pass, entry: entry)
        _ = try Self.asIssuerErrors { try builder.check(data: data) }
    }

    /// A builder's errors as the issuer answers them: data the template refuses 422 naming the field, a server
    /// fault (a signing identity that cannot sign) as its own.
    private static func asIssuerErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PassModelError {
            throw IssuerError.invalidData("data: \(error.description)")
        } catch let error as PassBundleError {
            throw IssuerError.serverFault(error, items: "passes") ?? Self.refusal(error)
        }
    }

    /// The builder and data of a pass's current version: its template (personalized or not, with a campaign's
    /// message as a back field) and its data with the holder's details.
    /// - Parameters:
    ///   - pass: The pass.
    ///   - entry: Its template version.
    ///   - keepingMessage: Whether a campaign's message becomes a back field (Wallet's lock-screen message).
    func prepare(_ pass: PassRecord, entry: TemplateLibrary.Entry, keepingMessage: Bool = true) throws
        -> (builder: PassBuilder, data: PassData)
    {
        var overrides = try Self.document(pass.data)
        var fields: [String: JSONValue] = [:]
        switch overrides.removeValue(forKey: "fields") {
        case .object(let given)?: fields = given
        case nil, .null?: break
        case let other?:
            throw IssuerError.invalidData("data.fields: must be an object of field key to value, found \(other.kindName)")
        }
        overrides["serialNumber"] = .string(pass.serialNumber)
        overrides["authenticationToken"] = .string(pass.authenticationToken)
        overrides["webServiceURL"] = .string(webServiceURL)
        if pass.voided { overrides["voided"] = .bool(true) }
        var builder = entry.builder
        var personalized = false
        if let personalization = pass.personalization, let personalizedBuilder = entry.personalizedBuilder {
            builder = personalizedBuilder
            personalized = true
            let keys = Set(Self.fieldKeys(of: builder.template.pass))
            for (key, value) in try Self.document(personalization) where keys.contains(key) && fields[key] == nil {
                fields[key] = value
            }
        }
        if let message = overrides.removeValue(forKey: Self.messageKey), keepingMessage {
            if case .string(let text) = message, !text.isEmpty, let style = builder.template.pass.style,
               overrides[style.rawValue] == nil
            {
                builder = try self.builder(builder, version: entry.version, personalized: personalized, message: text)
            } else {
                try Self.applyMessage(message, to: &overrides, template: builder.template.pass)
            }
        }
        return (builder, PassData(overrides: overrides, fields: fields))
    }
}
