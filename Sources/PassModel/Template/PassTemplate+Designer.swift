public import Foundation

extension PassTemplate {
    /// The file extension of the template bundles Pass Designer saves.
    public static let designerBundleExtension = "pkpasstemplate"

    /// Files Pass Designer keeps for itself in a template bundle; they never go into a signed pass.
    public static let designerFiles: Set<String> = ["tooling.json"]

    /// Whether a folder holds a Pass Designer template: its name ends in `.pkpasstemplate`, or Designer's
    /// `tooling.json` is in it.
    /// - Parameters:
    ///   - folder: The template folder.
    ///   - files: The relative paths of its files.
    /// - Returns: Whether the Designer clean-up applies.
    static func isDesignerBundle(_ folder: URL, files: [String]) -> Bool {
        folder.pathExtension.lowercased() == designerBundleExtension || files.contains(where: designerFiles.contains)
    }

    /// The template's name: the folder name without a `.pkpasstemplate` extension.
    static func templateName(of folder: URL) -> String {
        folder.pathExtension.lowercased() == designerBundleExtension
            ? folder.deletingPathExtension().lastPathComponent : folder.lastPathComponent
    }

    /// `pass.json` without the `_id` keys Pass Designer writes into fields, actions and seats to tell them apart
    /// while editing (everywhere but inside `userInfo`, which is the issuer's own data). Returns the bytes
    /// unchanged when there is no `_id` in them.
    /// - Parameter passJSON: The bundle's `pass.json`.
    /// - Returns: `pass.json` as Wallet should get it.
    /// - Throws: ``PassModelError`` `invalidJSON` when the bytes are not JSON.
    public static func removingDesignerIdentifiers(from passJSON: Data) throws -> Data {
        guard passJSON.range(of: Data("\"_id\"".utf8)) != nil else { return passJSON }
        var json = try JSONValue(jsonData: passJSON)
        guard case .object(var root) = json else { return passJSON }
        for (key, value) in root where key != "userInfo" {
            root[key] = value.removingMember("_id")
        }
        json = .object(root)
        return try json.jsonData(sortedKeys: true, prettyPrinted: true)
    }
}

extension JSONValue {
    /// The value with `name` removed from every object in it, at any depth.
    func removingMember(_ name: String) -> JSONValue {
        switch self {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (key, value) in members where key != name { result[key] = value.removingMember(name) }
            return .object(result)
        case .array(let elements):
            return .array(elements.map { $0.removingMember(name) })
        default:
            return self
        }
    }
}
