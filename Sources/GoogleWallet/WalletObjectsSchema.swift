import Foundation
public import PassModel
public import Validation

/// Google Wallet's published schema for classes and objects (the `walletobjects` v1 API discovery document), and
/// the limits Google documents beside it. Checks a class or object before anything is signed or sent.
public enum WalletObjectsSchema {
    /// A property's shape: a reference to another schema, an array, or a scalar with an optional enum.
    indirect enum Property: Sendable {
        case reference(String)
        case array(Property)
        case scalar(type: String, values: Set<String>?)
    }

    /// One schema: its properties and the ones Google marks required.
    struct Schema: Sendable {
        var properties: [String: Property]
        var required: [String]
    }

    /// The schemas, parsed once from ``compactSchemas``.
    static let schemas: [String: Schema] = {
        var result: [String: Schema] = [:]
        for (name, text) in compactSchemas {
            guard let json = try? JSONValue(jsonData: Data(text.utf8)) else { continue }
            var properties: [String: Property] = [:]
            for (key, value) in json["properties"]?.objectValue ?? [:] {
                properties[key] = property(value)
            }
            let required = json["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            result[name] = Schema(properties: properties, required: required)
        }
        return result
    }()

    private static func property(_ json: JSONValue) -> Property {
        if let ref = json["ref"]?.stringValue { return .reference(ref) }
        if json["type"]?.stringValue == "array", let items = json["items"] { return .array(property(items)) }
        let values = json["enum"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
        return .scalar(type: json["type"]?.stringValue ?? "any", values: values)
    }

    /// Checks a class or object against its schema and Google's documented limits.
    /// - Parameters:
    ///   - value: The JSON.
    ///   - schemaName: Its type, such as `EventTicketObject`.
    ///   - path: Where it sits, such as `eventTicketObjects[0]`; issues' paths start with it.
    /// - Returns: Every problem, each with its JSON path.
    public static func validate(_ value: JSONValue, as schemaName: String, at path: String) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        check(value, against: .reference(schemaName), at: path, into: &issues)
        GoogleLimits.check(value, as: schemaName, at: path, into: &issues)
        return issues
    }

    private static func check(_ value: JSONValue, against property: Property, at path: String, into issues: inout [ValidationIssue]) {
        switch property {
        case .reference(let name):
            guard let schema = schemas[name] else { return }
            guard case .object(let members) = value else {
                issues.append(.init(severity: .error, path: path, message: "must be an object (\(name)), not \(value.kindName)"))
                return
            }
            for key in schema.required where members[key] == nil || members[key] == .null {
                issues.append(.init(severity: .error, path: join(path, key), message: "is required by Google's \(name)"))
            }
            for key in members.keys.sorted() {
                guard let member = members[key] else { continue }
                guard let inner = schema.properties[key] else {
                    issues.append(.init(severity: .error, path: join(path, key), message: "is not a property of Google's \(name)"))
                    continue
                }
                check(member, against: inner, at: join(path, key), into: &issues)
            }
        case .array(let items):
            guard case .array(let elements) = value else {
                issues.append(.init(severity: .error, path: path, message: "must be an array, not \(value.kindName)"))
                return
            }
            for (index, element) in elements.enumerated() {
                check(element, against: items, at: "\(path)[\(index)]", into: &issues)
            }
        case .scalar(let type, let values):
            if let problem = mismatch(value, type: type) {
                issues.append(.init(severity: .error, path: path, message: problem))
            } else if let values, let text = value.stringValue, !values.contains(text) {
                issues.append(.init(severity: .error, path: path,
                                    message: "\"\(text)\" is not one of Google's values: \(values.sorted().joined(separator: ", "))"))
            }
        }
    }

    private static func mismatch(_ value: JSONValue, type: String) -> String? {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
             ("any", _), ("object", .object):
            return nil
        case ("integer", .number(let number)) where number.rounded() == number:
            return nil
        default:
            return "must be \(type == "boolean" ? "a boolean" : "a\(type == "integer" ? "n" : "") \(type)"), not \(value.kindName)"
        }
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
