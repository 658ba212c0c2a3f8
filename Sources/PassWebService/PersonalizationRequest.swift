import Foundation
import HTTPTypes
public import PassModel

/// The body of `POST /v1/passes/<type>/<serial>/personalize`, checked member by member: Apple's documented
/// `requiredPersonalizationInfo` members only, each a string of bounded size without control characters.
public struct PersonalizationRequest: Sendable {
    /// Wallet's personalization token, which the answer signs.
    public var personalizationToken: String
    /// The holder's details, by Apple's member names.
    public var requiredPersonalizationInfo: [String: JSONValue]

    /// Apple's members of `requiredPersonalizationInfo` and the longest value each may have, in characters.
    static let members: [String: Int] = [
        "fullName": 256, "givenName": 128, "familyName": 128, "emailAddress": 254, "phoneNumber": 32,
        "postalCode": 16, "ISOCountryCode": 2,
    ]
    static let maximumTokenLength = 1024

    /// Checks a decoded body.
    /// - Parameter body: The request body as JSON.
    /// - Throws: ``IssuerError`` 400 naming the member that is wrong.
    public init(body: JSONValue) throws {
        guard case .object(let members) = body else { throw Self.invalid("body", "must be a JSON object") }
        for key in members.keys where key != "personalizationToken" && key != "requiredPersonalizationInfo" {
            throw Self.invalid(Self.printable(key), "unknown member")
        }
        guard case .string(let token)? = members["personalizationToken"] else {
            throw Self.invalid("personalizationToken", "must be a non-empty string")
        }
        guard !token.isEmpty, token.count <= Self.maximumTokenLength, !Self.hasControlCharacters(token) else {
            throw Self.invalid(
                "personalizationToken", "must be 1-\(Self.maximumTokenLength) characters without control characters")
        }
        // The answer is the token signed with the pass certificate, as a pass's manifest is signed: a "token" that
        // is a JSON document (a manifest of someone's making) would come back as a valid pass signature. Wallet's
        // tokens are opaque text; JSON's brackets and quotes are refused.
        guard !token.unicodeScalars.contains(where: { "{}[]\"".unicodeScalars.contains($0) }) else {
            throw Self.invalid("personalizationToken", "must not hold { } [ ] or \" (a token, not a document)")
        }
        guard case .object(let info)? = members["requiredPersonalizationInfo"] else {
            throw Self.invalid("requiredPersonalizationInfo", "must be an object")
        }
        guard !info.isEmpty else { throw Self.invalid("requiredPersonalizationInfo", "must not be empty") }
        for (key, value) in info {
            let path = "requiredPersonalizationInfo.\(Self.printable(key))"
            guard let limit = Self.members[key] else {
                throw Self.invalid(path, "unknown member (expected \(Self.members.keys.sorted().joined(separator: ", ")))")
            }
            guard case .string(let text) = value else { throw Self.invalid(path, "must be a string") }
            guard !text.isEmpty, text.count <= limit, !Self.hasControlCharacters(text) else {
                throw Self.invalid(path, "must be 1-\(limit) characters without control characters")
            }
            if key == "ISOCountryCode", !text.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) {
                throw Self.invalid(path, "must be a two-letter country code")
            }
            if key == "emailAddress", !text.contains("@") { throw Self.invalid(path, "must be an email address") }
        }
        personalizationToken = token
        requiredPersonalizationInfo = info
    }

    private static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func printable(_ key: String) -> String {
        String(LogRedactor.escapeControlCharacters(key).prefix(64))
    }

    private static func invalid(_ path: String, _ reason: String) -> IssuerError {
        IssuerError(status: .badRequest, description: "\(path): \(reason)", field: path)
    }
}
