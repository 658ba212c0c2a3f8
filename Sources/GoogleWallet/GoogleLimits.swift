import Foundation
import PassModel
import Validation

/// The limits Google documents in prose beside its schema: identifiers, counts of modules and messages, colours,
/// image addresses, and the lengths beyond which text is cut on a phone.
enum GoogleLimits {
    /// Text and link modules shown from one class or object.
    static let maximumTextModules = 10
    static let maximumLinks = 10
    static let maximumMessages = 10
    static let maximumLocations = 20
    /// Lengths Google recommends so that text is shown whole (warnings, not errors).
    static let recommendedLengths: [String: Int] = ["issuerName": 20, "header": 35, "body": 500, "programName": 20]

    static func check(_ value: JSONValue, as schemaName: String, at path: String, into issues: inout [ValidationIssue]) {
        guard case .object(let members) = value else { return }
        let join = WalletObjectsSchema.join
        if let id = members["id"]?.stringValue, !isIdentifier(id) {
            issues.append(.init(severity: .error, path: join(path, "id"),
                                message: "\"\(id)\" must be \"<issuer id>.<identifier>\": digits, a dot, then letters, digits, '.', '_' or '-'"))
        }
        if let classId = members["classId"]?.stringValue, !isIdentifier(classId) {
            issues.append(.init(severity: .error, path: join(path, "classId"),
                                message: "\"\(classId)\" must be \"<issuer id>.<identifier>\""))
        }
        for (key, maximum) in [("textModulesData", maximumTextModules), ("messages", maximumMessages), ("locations", maximumLocations)] {
            if let count = members[key]?.arrayValue?.count, count > maximum {
                issues.append(.init(severity: .error, path: join(path, key), message: "has \(count) entries; Google takes at most \(maximum)"))
            }
        }
        if let count = members["linksModuleData"]?["uris"]?.arrayValue?.count, count > maximumLinks {
            issues.append(.init(severity: .error, path: join(path, "linksModuleData.uris"),
                                message: "has \(count) entries; Google takes at most \(maximumLinks)"))
        }
        if let colour = members["hexBackgroundColor"]?.stringValue, !isHexColour(colour) {
            issues.append(.init(severity: .error, path: join(path, "hexBackgroundColor"), message: "\"\(colour)\" must be #rrggbb"))
        }
        walk(value, at: path, into: &issues)
    }

    /// Image addresses must be https; long text is cut.
    private static func walk(_ value: JSONValue, at path: String, into issues: inout [ValidationIssue]) {
        switch value {
        case .object(let members):
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                let inner = WalletObjectsSchema.join(path, key)
                if key == "sourceUri", let uri = member["uri"]?.stringValue, !uri.lowercased().hasPrefix("https://") {
                    issues.append(.init(severity: .error, path: inner + ".uri", message: "\"\(uri)\" must be an https address Google can fetch"))
                }
                if let maximum = recommendedLengths[key], let text = member.stringValue, text.count > maximum {
                    issues.append(.init(severity: .warning, path: inner,
                                        message: "has \(text.count) characters; Google shows \(maximum) whole on small screens"))
                }
                walk(member, at: inner, into: &issues)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() { walk(element, at: "\(path)[\(index)]", into: &issues) }
        default:
            return
        }
    }

    /// `<issuer id>.<identifier>` as Google requires of class and object ids.
    static func isIdentifier(_ text: String) -> Bool {
        guard let dot = text.firstIndex(of: "."), dot != text.startIndex else { return false }
        let issuer = text[..<dot]
        let suffix = text[text.index(after: dot)...]
        return issuer.allSatisfy(\.isASCIIDigit) && !suffix.isEmpty
            && suffix.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "._-".unicodeScalars.contains($0) }
    }

    static func isHexColour(_ text: String) -> Bool {
        text.count == 7 && text.hasPrefix("#") && text.dropFirst().allSatisfy(\.isHexDigit)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
