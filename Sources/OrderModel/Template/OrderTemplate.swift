public import Foundation
public import PassModel

/// An order template: a folder with `order.json`, its images and optional `xx.lproj/order.strings`, into which a data
/// document may be merged to make one order.
public struct OrderTemplate: Sendable {
    /// The names a template's own `manifest.json` or `signature` would have; they are left out.
    public static let reservedNames: Set<String> = ["order.json", "manifest.json", "signature"]

    /// The template's name (its folder's), for messages.
    public let name: String
    /// The template's `order.json` bytes.
    public let orderJSON: Data
    /// The other files by relative path (`logo.png`, `en.lproj/order.strings`).
    public let files: [String: Data]
    /// ``files`` with each image read whole once, for validating the orders made from the template.
    public let preparedFiles: OrderValidator.PreparedFiles
    private let root: [String: JSONValue]
    private let prepared: PreparedOrderTemplate?

    /// Reads a template folder; hidden files are skipped.
    /// - Parameter directory: The folder.
    /// - Throws: `PassModelError` `.templateNotFound` when the folder or its `order.json` is missing, `.invalidJSON`
    ///   naming the file, line and column when `order.json` is not a JSON object.
    public init(directory: URL) throws {
        let folder = directory.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PassModelError(.templateNotFound, "template folder \(folder.path) does not exist or is not a folder")
        }
        let orderURL = folder.appendingPathComponent("order.json")
        guard FileManager.default.fileExists(atPath: orderURL.path) else {
            throw PassModelError(.templateNotFound, "template folder \(folder.path) has no order.json")
        }
        var files: [String: Data] = [:]
        for path in try PassTemplate.listFiles(in: folder) where !Self.reservedNames.contains(path) {
            files[path] = try PassTemplate.read(folder.appendingPathComponent(path))
        }
        try self.init(name: folder.lastPathComponent, orderJSON: try PassTemplate.read(orderURL), files: files,
                      origin: orderURL.path)
    }

    /// Creates a template from bytes in memory.
    /// - Parameters:
    ///   - name: The template's name, for messages.
    ///   - orderJSON: The `order.json` bytes.
    ///   - files: The other files by relative path.
    /// - Throws: `PassModelError` `.invalidJSON` when `order.json` is not a JSON object.
    public init(name: String, orderJSON: Data, files: [String: Data] = [:]) throws {
        try self.init(name: name, orderJSON: orderJSON, files: files, origin: "\(name)/order.json")
    }

    private init(name: String, orderJSON: Data, files: [String: Data], origin: String) throws {
        let json: JSONValue
        do {
            json = try JSONValue(jsonData: orderJSON)
        } catch let error as PassModelError {
            throw PassModelError(.invalidJSON, "\(origin): invalid JSON: \(error.reason)")
        }
        guard case .object(let root) = json else {
            throw PassModelError(.invalidJSON, "\(origin): must be a JSON object, found \(json.kindName)")
        }
        // A key written twice would keep one of its values silently (which one is the parser's choice).
        if let duplicates = Self.duplicateKeys(in: orderJSON) {
            throw PassModelError(.invalidJSON, "\(origin): \(duplicates)")
        }
        self.name = name
        self.orderJSON = orderJSON
        self.files = files.filter { !Self.reservedNames.contains($0.key) }
        preparedFiles = OrderValidator.PreparedFiles(files: self.files)
        self.root = root
        prepared = PreparedOrderTemplate(root: root)
    }

    /// The template's `order.json` with a data document merged in: the document's objects are merged key by key into
    /// the template's (to any depth), its arrays and other values replace the template's, and `null` removes a key.
    /// - Parameters:
    ///   - data: The data document's bytes (a JSON object), or `nil` for the template as is.
    ///   - source: The document's name for messages, such as its path.
    /// - Returns: The `order.json` bytes.
    /// - Throws: `PassModelError` `.invalidData` naming `source` when the document is not a JSON object.
    public func orderJSON(applying data: Data?, source: String = "data") throws -> Data {
        guard let data else { return orderJSON }
        return try orderJSON(applying: try Self.members(of: data, source: source), prettyPrinted: true)
    }

    /// The template's `order.json` with a data document's members merged in, as ``orderJSON(applying:source:)`` merges
    /// them.
    /// - Parameters:
    ///   - members: The data document's members.
    ///   - prettyPrinted: Whether to indent the JSON.
    /// - Returns: The `order.json` bytes, keys sorted.
    public func orderJSON(applying members: [String: JSONValue], prettyPrinted: Bool = false) throws -> Data {
        try JSONValue.object(Self.merge(members, into: root)).jsonData(sortedKeys: true, prettyPrinted: prettyPrinted)
    }

    /// The order a data document's members make and its `order.json`, from the parts of the template decoded and
    /// encoded when it was loaded: only the top-level members the document names are merged, decoded and encoded.
    ///
    /// The order is the one ``orderJSON(applying:prettyPrinted:)``'s bytes decode to, and the bytes are those
    /// `JSONEncoder` writes for it (compact, keys sorted, amounts in Apple's types), at a fraction of the cost.
    /// - Parameter members: The data document's members.
    /// - Returns: The order and its bytes, or `nil` when a member (of the template or of the document) does not decode
    ///   or encode: decode ``orderJSON(applying:prettyPrinted:)``'s bytes then, to have the problem named.
    public func order(applying members: [String: JSONValue]) -> (order: Order, orderJSON: Data)? {
        guard let prepared, let (order, changed) = prepared.order(applying: members, root: root),
              let json = prepared.orderJSON(for: order, changed: changed)
        else { return nil }
        return (order, json)
    }

    /// The members of a data document.
    /// - Parameters:
    ///   - data: The document's bytes.
    ///   - source: The document's name for messages, such as its path.
    /// - Returns: Its members.
    /// - Throws: `PassModelError` `.invalidData` naming `source` when the document is not a JSON object.
    public static func members(of data: Data, source: String = "data") throws -> [String: JSONValue] {
        let document: JSONValue
        do {
            document = try JSONValue(jsonData: data)
        } catch let error as PassModelError {
            throw PassModelError(.invalidData, "\(source): invalid JSON: \(error.reason)")
        }
        guard case .object(let members) = document else {
            throw PassModelError(.invalidData, "\(source): must be a JSON object of order.json keys, found \(document.kindName)")
        }
        if let duplicates = duplicateKeys(in: data) { throw PassModelError(.invalidData, "\(source): \(duplicates)") }
        return members
    }

    /// Every key a JSON document writes twice in one object, said in one line; `nil` when there is none.
    static func duplicateKeys(in data: Data) -> String? {
        let duplicates = JSONDuplicateKeys.find(in: data)
        guard !duplicates.isEmpty else { return nil }
        return duplicates.map { "\"\($0.path)\" \($0.message)" }.joined(separator: "; ")
    }

    /// A data document that makes exactly `document` over this template: `document` with a null for every member the
    /// template has and `document` lacks (inside objects both have, too). Merged over the template as
    /// ``orderJSON(applying:prettyPrinted:)`` merges, a null removes that member again, where a member merely left out
    /// would come back from the template.
    /// - Parameter document: An `order.json` made from this template, with members removed since.
    /// - Returns: The data document to store.
    public func dataDocument(keepingRemovalsIn document: [String: JSONValue]) -> [String: JSONValue] {
        Self.withRemovals(document, from: root)
    }

    private static func withRemovals(_ document: [String: JSONValue], from template: [String: JSONValue])
        -> [String: JSONValue]
    {
        var result = document
        for (key, value) in template {
            switch (value, document[key]) {
            case (_, nil): result[key] = .null
            case (.object(let inner), .object(let own)?): result[key] = .object(withRemovals(own, from: inner))
            default: break
            }
        }
        return result
    }

    static func merge(_ overrides: [String: JSONValue], into base: [String: JSONValue]) -> [String: JSONValue] {
        var result = base
        for (key, value) in overrides {
            switch (value, base[key]) {
            case (.null, _): result[key] = nil
            case (.object(let inner), .object(let existing)?): result[key] = .object(merge(inner, into: existing))
            default: result[key] = value
            }
        }
        return result
    }
}
