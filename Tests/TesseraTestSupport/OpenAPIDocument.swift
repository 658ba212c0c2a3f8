public import Foundation
import PassModel

/// Just enough of an OpenAPI 3.1 reader to check real exchanges against `docs/openapi.json`: the path and method
/// exist, the status is documented, the content type matches, and a JSON body satisfies its schema (types,
/// required properties, nested objects and arrays).
public struct OpenAPIDocument {
    let root: [String: Any]
    /// The operations checked so far, as `METHOD path`.
    public private(set) var exercised: Set<String> = []

    /// Reads the document.
    public init(contentsOf url: URL) throws {
        root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    }

    /// Every documented operation as `METHOD path`.
    public var operations: Set<String> {
        let paths = root["paths"] as? [String: [String: Any]] ?? [:]
        return Set(paths.flatMap { path, item in
            item.keys.filter { ["get", "post", "put", "patch", "delete", "head"].contains($0) }.map { "\($0.uppercased()) \(path)" }
        })
    }

    /// Checks one exchange; returns the problems found (empty when it conforms).
    public mutating func check(method: String, path: String, status: Int, contentType: String?, body: Data) -> [String] {
        let paths = root["paths"] as? [String: [String: Any]] ?? [:]
        let requestPath = path.split(separator: "?").first.map(String.init) ?? path
        guard let (template, item) = paths.first(where: { Self.matches(template: $0.key, path: requestPath) }) else {
            return ["\(method) \(path): no documented path matches"]
        }
        guard let operation = item[method.lowercased()] as? [String: Any] else {
            return ["\(method) \(template): method not documented"]
        }
        exercised.insert("\(method) \(template)")
        let responses = operation["responses"] as? [String: Any] ?? [:]
        guard let response = responses[String(status)] as? [String: Any] else {
            return ["\(method) \(template): status \(status) not documented"]
        }
        guard let content = resolve(response)["content"] as? [String: Any], method != "HEAD", status != 304 else {
            return body.isEmpty || method == "HEAD" ? [] : ["\(method) \(template) \(status): undocumented body"]
        }
        let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard let media = content[type] as? [String: Any] else {
            return ["\(method) \(template) \(status): content type \(type) not documented (\(content.keys.sorted()))"]
        }
        guard type == "application/json", let schema = media["schema"] as? [String: Any] else { return [] }
        guard let value = try? JSONValue(jsonData: body) else {
            return ["\(method) \(template) \(status): body is not JSON"]
        }
        return validate(value, against: schema, at: "\(method) \(template) \(status) body")
    }

    public static func matches(template: String, path: String) -> Bool {
        let expected = template.split(separator: "/", omittingEmptySubsequences: false)
        let actual = path.split(separator: "/", omittingEmptySubsequences: false)
        guard expected.count == actual.count else { return false }
        return zip(expected, actual).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }

    private func resolve(_ node: [String: Any]) -> [String: Any] {
        guard let reference = node["$ref"] as? String, reference.hasPrefix("#/") else { return node }
        var current: Any = root
        for part in reference.dropFirst(2).split(separator: "/") {
            current = (current as? [String: Any])?[String(part)] ?? [:]
        }
        return resolve(current as? [String: Any] ?? [:])
    }

    private func validate(_ value: JSONValue, against schemaNode: [String: Any], at location: String) -> [String] {
        let schema = resolve(schemaNode)
        switch (schema["type"] as? String, value) {
        case ("object", .object(let object)):
            var problems = (schema["required"] as? [String] ?? []).filter { object[$0] == nil }
                .map { "\(location): required property \($0) missing" }
            for (key, property) in schema["properties"] as? [String: [String: Any]] ?? [:] {
                if let member = object[key] { problems += validate(member, against: property, at: "\(location).\(key)") }
            }
            return problems
        case ("array", .array(let array)):
            let items = schema["items"] as? [String: Any] ?? [:]
            return array.enumerated().flatMap { validate($1, against: items, at: "\(location)[\($0)]") }
        case ("string", .string), ("integer", .integer), ("number", .integer), ("number", .number), ("boolean", .bool),
            (nil, _):
            return []
        case (let expected?, _):
            return ["\(location): expected \(expected), found \(value.kindName)"]
        }
    }
}
