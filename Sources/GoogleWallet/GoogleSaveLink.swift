public import Foundation
public import PassModel

/// A "Save to Google Wallet" link: `https://pay.google.com/gp/v/save/<JWT>`, the JWT signed RS256 by the service
/// account (header `kid` = its key id, `typ` `JWT`), with claims `iss` (its e-mail), `aud` `google`,
/// `typ` `savetowallet`, `iat`, `origins` and `payload`.
public struct GoogleSaveLink: Sendable, Equatable {
    /// The longest link Google accepts.
    public static let maximumLength = 1800
    /// Where links point.
    public static let prefix = "https://pay.google.com/gp/v/save/"

    /// What the JWT carries.
    public enum Content: String, Sendable, CaseIterable {
        /// Classes and objects whole: nothing needs to exist at Google beforehand.
        case classesAndObjects
        /// Objects whole, referring to classes already inserted.
        case objects
        /// Object ids only, the objects already inserted.
        case objectIds
    }

    /// The link.
    public var url: String
    /// The JWT's `payload` claim.
    public var payload: JSONValue
    /// What it carries.
    public var content: Content

    /// The JWT's `payload` for passes.
    /// - Parameters:
    ///   - passes: The passes' classes and objects.
    ///   - content: What to carry.
    /// - Returns: `{"eventTicketClasses": [...], "eventTicketObjects": [...], ...}`.
    public static func payload(for passes: [GoogleWalletPass], content: Content) -> JSONValue {
        var members: [String: [JSONValue]] = [:]
        var seenClasses: Set<String> = []
        for pass in passes {
            if content == .classesAndObjects, seenClasses.insert(pass.classId).inserted {
                members[pass.vertical.classesMember, default: []].append(pass.classJSON)
            }
            let object = content == .objectIds ? JSONValue.object(["id": .string(pass.objectId)]) : pass.objectJSON
            members[pass.vertical.objectsMember, default: []].append(object)
        }
        return .object(members.mapValues { .array($0) })
    }

    /// Signs a link.
    /// - Parameters:
    ///   - passes: The passes.
    ///   - content: What the JWT carries.
    ///   - account: The service account that signs.
    ///   - origins: The web origins allowed to show the button (`https://tickets.example.com`).
    ///   - issuedAt: The `iat` time.
    /// - Returns: The link, which may be longer than ``maximumLength``: the caller decides.
    /// - Throws: ``GoogleWalletError`` `signingFailed`.
    public static func sign(_ passes: [GoogleWalletPass], content: Content, account: GoogleServiceAccount,
                            origins: [String], issuedAt: Date = Date()) async throws(GoogleWalletError) -> GoogleSaveLink {
        let payload = payload(for: passes, content: content)
        let claims = GoogleJWTClaims([
            "iss": .string(account.clientEmail),
            "aud": .string("google"),
            "typ": .string("savetowallet"),
            "iat": .integer(Int(issuedAt.timeIntervalSince1970)),
            "origins": .array(origins.map { .string($0) }),
            "payload": payload,
        ])
        let jwt = try await account.sign(claims, type: "JWT")
        return GoogleSaveLink(url: prefix + jwt, payload: payload, content: content)
    }

    /// Whether Google accepts the link's length.
    public var fits: Bool { url.count <= Self.maximumLength }
}
