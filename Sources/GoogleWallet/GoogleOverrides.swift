public import Foundation
public import PassModel

/// A template's `google.json`: what the mapping cannot infer from `pass.json`, or what an issuer wants otherwise.
///
/// ```json
/// {
///   "classId": "midnight-echo-2026",
///   "reviewStatus": "UNDER_REVIEW",
///   "omitFields": ["terms"],
///   "class": {"venue": {"name": {"defaultValue": {"language": "en", "value": "Tessera Arena"}}}},
///   "object": {"rotatingBarcode": {"type": "QR_CODE", "valuePattern": "{totp_value_0}"}}
/// }
/// ```
/// `class` and `object` are merged into what the mapping makes (objects member by member, anything else replaced),
/// so any field of Google's schema can be set or replaced.
public struct GoogleOverrides: Sendable, Equatable {
    /// The class id's suffix (after `<issuer id>.`), or a whole id starting with the issuer id.
    public var classId: String?
    /// The class's review status; `UNDER_REVIEW` by default (`DRAFT` for classes still being designed).
    public var reviewStatus: String?
    /// The kind of Google pass, when the pass style alone would pick another (`generic` for a store card, say).
    public var vertical: GoogleVertical?
    /// Field keys left out of Google's text modules.
    public var omitFields: Set<String>
    /// Members merged into the class.
    public var classMembers: [String: JSONValue]
    /// Members merged into the object.
    public var objectMembers: [String: JSONValue]

    /// No overrides.
    public init() {
        omitFields = []
        classMembers = [:]
        objectMembers = [:]
    }

    /// The members `google.json` may have.
    public static let members: Set<String> = ["classId", "reviewStatus", "vertical", "omitFields", "class", "object"]

    /// Reads `google.json`.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - origin: The file's path, for errors.
    /// - Throws: ``GoogleWalletError`` `invalidOverrides` naming the file and member.
    public init(jsonData data: Data, origin: String) throws(GoogleWalletError) {
        self.init()
        guard let json = try? JSONValue(jsonData: data), case .object(let members) = json else {
            throw GoogleWalletError(.invalidOverrides, "\(origin): not a JSON object")
        }
        for key in members.keys.sorted() where !Self.members.contains(key) {
            throw GoogleWalletError(.invalidOverrides,
                                    "\(origin): unknown member \"\(key)\" (known: \(Self.members.sorted().joined(separator: ", ")))")
        }
        func text(_ key: String) throws(GoogleWalletError) -> String? {
            guard let value = members[key] else { return nil }
            guard let text = value.stringValue, !text.isEmpty else {
                throw GoogleWalletError(.invalidOverrides, "\(origin): \(key) must be a non-empty string")
            }
            return text
        }
        func object(_ key: String) throws(GoogleWalletError) -> [String: JSONValue] {
            guard let value = members[key] else { return [:] }
            guard let object = value.objectValue else {
                throw GoogleWalletError(.invalidOverrides, "\(origin): \(key) must be an object of Google's \(key) fields")
            }
            return object
        }
        classId = try text("classId")
        // Used as written (Google's ids take letters, digits, ".", "_" and "-"): the class an issuer made or had
        // approved under this id is the one its passes are filed under.
        if let given = classId, !given.unicodeScalars.allSatisfy({
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
        }) {
            throw GoogleWalletError(.invalidOverrides,
                                    "\(origin): classId \"\(given)\" may hold only letters, digits, \".\", \"_\" and \"-\" (Google's ids)")
        }
        reviewStatus = try text("reviewStatus")
        if let name = try text("vertical") {
            guard let vertical = GoogleVertical(rawValue: name) else {
                throw GoogleWalletError(.invalidOverrides, "\(origin): vertical \"\(name)\" is not one of "
                    + GoogleVertical.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.vertical = vertical
        }
        if let omit = members["omitFields"] {
            guard let keys = omit.arrayValue?.compactMap(\.stringValue), keys.count == omit.arrayValue?.count else {
                throw GoogleWalletError(.invalidOverrides, "\(origin): omitFields must be an array of field keys")
            }
            omitFields = Set(keys)
        }
        classMembers = try object("class")
        objectMembers = try object("object")
    }

    /// Reads a template's `google.json`, if it has one.
    /// - Parameter template: The template.
    /// - Returns: The overrides, or empty ones.
    /// - Throws: ``GoogleWalletError`` `invalidOverrides`.
    public static func of(_ template: PassTemplate) throws(GoogleWalletError) -> GoogleOverrides {
        guard let data = template.files[fileName] else { return GoogleOverrides() }
        return try GoogleOverrides(jsonData: data, origin: "\(template.name)/\(fileName)")
    }

    /// `google.json`.
    public static let fileName = "google.json"
}

extension JSONValue {
    /// This object with `other`'s members merged in: objects member by member, anything else replaced.
    func merging(_ other: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = self else { return .object(other) }
        for (key, value) in other {
            if let existing = members[key], existing.objectValue != nil, let inner = value.objectValue {
                members[key] = existing.merging(inner)
            } else {
                members[key] = value
            }
        }
        return .object(members)
    }
}
