public import Foundation

/// The columns of a table of passes (a CSV file): which data-document key each column sets, and how a row's cells
/// become a ``PassData``.
///
/// A header may name:
/// - `serialNumber`: the pass's serial number (a cell must not be empty);
/// - `barcodeMessage`: the message of every barcode (a cell must not be empty);
/// - `barcodeAltText`: the text under every barcode (an empty cell means no text);
/// - `fields.<key>`: the value of the template's field with that key (an empty cell is an empty value); for a field
///   that shows a number (a number value, a `currencyCode` or a `numberStyle`) a plain decimal cell is a number;
/// - `images.<name>`: an image of the pass's own (`images.thumbnail.png`), the cell a file's path (relative paths are
///   read by the caller's image reader, such as from the batch file's folder); an empty cell means the template's;
/// - any other documented top-level `pass.json` key: text for string keys, `true`/`false` for Boolean keys, a
///   whole number for `formatVersion`, and JSON for arrays and objects (`locations`, `relevantDates`, ...); an
///   empty cell removes the key from the pass.
///
/// Every other header is refused before any pass is made, with the nearest known name.
public struct PassDataColumns: Sendable {
    /// What one column sets.
    public enum Column: Sendable, Equatable {
        /// `serialNumber`.
        case serialNumber
        /// `barcodeMessage`.
        case barcodeMessage
        /// `barcodeAltText`.
        case barcodeAltText
        /// `fields.<key>`, with the key.
        case field(String)
        /// A top-level `pass.json` key.
        case key(String)
        /// `images.<name>`, with the image's file name.
        case image(String)
    }

    /// A header that cannot be used, with why.
    public struct HeaderError: Error, Sendable, CustomStringConvertible {
        /// The problems, one per header cell at fault, each naming it.
        public var problems: [String]
        /// The problems, one per line.
        public var description: String { problems.joined(separator: "\n") }
    }

    /// The columns in header order.
    public let columns: [Column]
    /// The header cells as written (trimmed of spaces).
    public let names: [String]
    /// The keys of the template's fields that show a number (a number `value`, a `currencyCode` or a `numberStyle`):
    /// a cell that is a plain decimal number (`42.10`, `-3`) is a number for them, so that Wallet formats it.
    let numericFields: Set<String>

    /// Reads a header row.
    /// - Parameters:
    ///   - header: The header cells.
    ///   - template: The template the rows are applied to (its field keys are the known `fields.` columns).
    /// - Throws: ``HeaderError`` naming every unknown, empty or repeated header, with the nearest known name.
    public init(header: [String], template: PassTemplate) throws {
        let names = header.map { $0.trimmingWhitespace() }
        let fieldKeys = Set(template.fieldIndex.locations.keys)
        let topLevel = Pass.typedKeys.union(Pass.documentedUntypedKeys)
            .subtracting(["serialNumber", "passTypeIdentifier", "teamIdentifier"])
        var known = ["serialNumber", PassData.barcodeMessageKey, PassData.barcodeAltTextKey]
        known += fieldKeys.sorted().map { "fields.\($0)" }
        known += topLevel.sorted()
        var columns: [Column] = []
        var problems: [String] = []
        var seen: [String: Int] = [:]
        for (position, name) in names.enumerated() {
            let label = "column \(position + 1)"
            if let earlier = seen[name] {
                problems.append("\(label) \"\(name)\": repeats column \(earlier + 1)")
                continue
            }
            seen[name] = position
            switch name {
            case "":
                problems.append("\(label): the header cell is empty")
            case "serialNumber":
                columns.append(.serialNumber)
            case PassData.barcodeMessageKey:
                columns.append(.barcodeMessage)
            case PassData.barcodeAltTextKey:
                columns.append(.barcodeAltText)
            case "passTypeIdentifier", "teamIdentifier":
                problems.append("\(label) \"\(name)\": set from the signing certificate, not per row")
            case _ where name.hasPrefix("fields."):
                let key = String(name.dropFirst("fields.".count))
                if fieldKeys.contains(key) {
                    columns.append(.field(key))
                } else {
                    problems.append("\(label) \"\(name)\": the template \"\(template.name)\" has no field \"\(key)\""
                        + Self.suggestion(for: name, among: known))
                }
            case _ where name.hasPrefix("images."):
                let file = String(name.dropFirst("images.".count))
                if PassValidator.imageBase(ofPNG: file) != nil {
                    columns.append(.image(file))
                } else {
                    problems.append("\(label) \"\(name)\": not an image Wallet uses; expected images.<name>.png with <name> "
                        + "one of \(PassValidator.imageNames.joined(separator: ", ")) and an optional @2x or @3x")
                }
            case _ where topLevel.contains(name):
                columns.append(.key(name))
            default:
                problems.append("\(label) \"\(name)\": not a known column" + Self.suggestion(for: name, among: known))
            }
        }
        guard problems.isEmpty else { throw HeaderError(problems: problems) }
        self.columns = columns
        self.names = names
        numericFields = Set(template.fieldIndex.locations.compactMap { key, locations in
            locations.contains { location in
                guard let fields = template.pass[keyPath: location.stylePath]?[keyPath: location.groupPath],
                      fields.indices.contains(location.index)
                else { return false }
                let field = fields[location.index]
                if case .number? = field.value { return true }
                return field.currencyCode != nil || field.numberStyle != nil
            } ? key : nil
        })
    }

    /// A cell as a number: digits with an optional sign and decimal point, nothing else (no thousands separators or
    /// currency signs, which a spreadsheet's locale decides); `nil` otherwise.
    static func number(_ cell: String) -> JSONValue? {
        let text = cell.trimmingWhitespace()
        guard text.wholeMatch(of: /[-+]?[0-9]+(\.[0-9]+)?/) != nil else { return nil }
        if !text.contains("."), let whole = Int(text) { return .integer(whole) }
        return Double(text).map(JSONValue.number)
    }

    /// Turns one row's cells into a data document.
    /// - Parameters:
    ///   - cells: The row's cells, one per column.
    ///   - readImage: Reads the file an `images.<name>` cell names; without it such a cell is a problem of the row.
    /// - Returns: The document (images in base64 under `images`), or one message naming every problem of the row
    ///   (missing or extra cells, empty required cells, cells that do not parse for their key, image files that cannot
    ///   be read).
    public func data(cells: [String], readImage: ((String) throws -> Data)? = nil) -> Result<PassData, PassModelError> {
        if cells.count < columns.count {
            let missing = names[cells.count...].map { "\"\($0)\"" }.joined(separator: ", ")
            return .failure(PassModelError(.invalidData,
                "has \(cells.count) of the header's \(columns.count) cells: missing \(missing)"))
        }
        if cells.count > columns.count {
            return .failure(PassModelError(.invalidData,
                "has \(cells.count) cells, the header has \(columns.count): \(cells.count - columns.count) extra cell(s) after \"\(names.last ?? "")\""))
        }
        var data = PassData()
        var problems: [String] = []
        for (position, (column, cell)) in zip(columns, cells).enumerated() {
            switch column {
            case .serialNumber, .barcodeMessage:
                // A cell is text as written (RFC 4180: a space after the comma is the cell's); a serial number holds
                // no white space, so around it there is none to keep.
                let key = column == .serialNumber ? "serialNumber" : PassData.barcodeMessageKey
                let text = column == .serialNumber ? cell.trimmingWhitespace() : cell
                if text.isEmpty {
                    problems.append("\"\(key)\" is empty")
                } else {
                    data.overrides[key] = .string(text)
                }
            case .barcodeAltText:
                data.overrides[PassData.barcodeAltTextKey] = cell.isEmpty ? .null : .string(cell)
            case .field(let key):
                data.fields[key] = numericFields.contains(key) ? Self.number(cell) ?? .string(cell) : .string(cell)
            case .image(let file):
                let cell = cell.trimmingWhitespace()
                if cell.isEmpty { continue }
                guard let readImage else {
                    problems.append("\"\(names[position])\": image files cannot be read here")
                    continue
                }
                do {
                    var images = data.overrides["images"]?.objectValue ?? [:]
                    images[file] = .string(try readImage(cell).base64EncodedString())
                    data.overrides["images"] = .object(images)
                } catch {
                    problems.append("\"\(names[position])\": cannot read \(cell): \((error as? any CustomStringConvertible)?.description ?? "\(error)")")
                }
            case .key(let key):
                if cell.isEmpty {
                    data.overrides[key] = .null
                    continue
                }
                // Text keys take the cell as written; the others (true/false, numbers, JSON) without white space around.
                var isText = false
                if case .string? = ScalarOverride.byKey[key] { isText = true }
                do {
                    data.overrides[key] = try Self.value(of: isText ? cell : cell.trimmingWhitespace(), for: key)
                } catch {
                    problems.append("\"\(names[position])\": \(error.reason)")
                }
            }
        }
        guard problems.isEmpty else { return .failure(PassModelError(.invalidData, problems.joined(separator: "; "))) }
        return .success(data)
    }

    /// A cell's value for a top-level key: its own JSON type.
    static func value(of cell: String, for key: String) throws(PassModelError) -> JSONValue {
        switch ScalarOverride.byKey[key] {
        case .string?:
            return .string(cell)
        case .bool?:
            switch cell.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw PassModelError(.invalidData, "expected true or false, found \"\(cell)\"")
            }
        case .integer?:
            guard let number = Int(cell) else { throw PassModelError(.invalidData, "expected a whole number, found \"\(cell)\"") }
            return .integer(number)
        case nil:
            if key == "maxDistance" {
                guard let number = Double(cell) else { throw PassModelError(.invalidData, "expected a number, found \"\(cell)\"") }
                return number.rounded() == number && abs(number) < 0x1p53 ? .integer(Int(number)) : .number(number)
            }
            guard let value = try? JSONValue(jsonData: Data(cell.utf8)) else {
                throw PassModelError(.invalidData, "expected JSON (an array or object) for this key, found \"\(cell.prefix(40))\"")
            }
            return value
        }
    }

    /// ` (did you mean "x"?)` for the nearest known name, or nothing when none is near.
    static func suggestion(for name: String, among known: [String]) -> String {
        let lowered = name.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(2, name.count / 3) else {
            return "; columns are serialNumber, barcodeMessage, barcodeAltText, fields.<field key>, images.<image>.png or a pass.json key"
        }
        return " (did you mean \"\(best.name)\"?)"
    }

    /// Levenshtein distance, with a swap of two neighbouring characters counted as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
