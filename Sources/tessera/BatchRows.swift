import Foundation
import PassModel
import SwiftCSV

/// The rows of a batch file, each a data document or an error for that row alone.
///
/// CSV: the header names the columns (``PassDataColumns`` says which are known and what an empty cell means); a
/// header that is not known stops the batch before any pass is written. Each row must have exactly the header's
/// number of cells; a row with more or fewer fails alone, with its line number. Blank lines are skipped.
/// JSON Lines: one data document per line, as for `pass create --data`.
struct BatchRows {
    struct Row {
        /// 1-based line number where the row starts in the file (the header is line 1 in a CSV).
        var line: Int
        var data: Result<PassData, BatchRowError>
    }

    struct BatchRowError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    var rows: [Row]

    init(path: String, template: PassTemplate) throws {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "\(path): rows file not found or unreadable")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if path.lowercased().hasSuffix(".jsonl") || path.lowercased().hasSuffix(".ndjson") {
            rows = Self.jsonLines(text).map { row in
                guard case .success(var data) = row.data else { return row }
                do {
                    try Self.resolveImagePaths(&data, besides: path)
                    return Row(line: row.line, data: .success(data))
                } catch let error as BatchRowError {
                    return Row(line: row.line, data: .failure(error))
                } catch {
                    return Row(line: row.line, data: .failure(BatchRowError(message: "\(error)")))
                }
            }
        } else if path.lowercased().hasSuffix(".csv") {
            rows = try Self.csv(text, path: path, template: template)
        } else {
            throw CommandFailure(message: "\(path): rows must be a .csv or .jsonl file")
        }
    }

    private static func jsonLines(_ text: String) -> [Row] {
        var rows: [Row] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            do {
                let data = try PassData(jsonData: Data(trimmed.utf8))
                if let problem = requiredTextProblem(data) {
                    rows.append(Row(line: index + 1, data: .failure(BatchRowError(message: problem))))
                } else {
                    rows.append(Row(line: index + 1, data: .success(data)))
                }
            } catch {
                rows.append(Row(line: index + 1, data: .failure(BatchRowError(message: "\(error)"))))
            }
        }
        return rows
    }

    /// `serialNumber` and `barcodeMessage`, when a row gives them, must be non-empty strings.
    private static func requiredTextProblem(_ data: PassData) -> String? {
        for key in ["serialNumber", PassData.barcodeMessageKey] {
            switch data.overrides[key] {
            case nil: continue
            case .string(let text)?: if text.isEmpty { return "\"\(key)\" is empty" }
            case let other?: return "\"\(key)\": expected a string, found \(other.kindName)"
            }
        }
        return nil
    }

    private static func csv(_ text: String, path: String, template: PassTemplate) throws -> [Row] {
        var records: [[String]] = []
        do {
            // The CSV reader drops an empty last cell at the very end of a file without a final line break.
            let complete = text.hasSuffix("\n") || text.isEmpty ? text : text + "\n"
            let table = try CSV<Enumerated>(string: complete, delimiter: .comma, loadColumns: false)
            try table.enumerateAsArray(startAt: 0, rowLimit: nil) { records.append($0) }
        } catch {
            throw CommandFailure(message: "\(path): not a readable CSV file: \(error)")
        }
        guard let header = records.first, !header.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw CommandFailure(message: "\(path): the first line must be a header (serialNumber, barcodeMessage, fields.<key>, ...)")
        }
        let columns: PassDataColumns
        do {
            columns = try PassDataColumns(header: header, template: template)
        } catch let error as PassDataColumns.HeaderError {
            throw CommandFailure(message: "\(path) line 1 (header): " + error.problems.joined(separator: "\n  "))
        }
        var rows: [Row] = []
        var line = 1 + newlines(in: header)
        for cells in records.dropFirst() {
            line += 1
            defer { line += newlines(in: cells) }
            if cells.allSatisfy(\.isEmpty) && cells.count <= 1 { continue }
            switch columns.data(cells: cells, readImage: { try Self.readImage($0, besides: path) }) {
            case .success(let data): rows.append(Row(line: line, data: .success(data)))
            case .failure(let error): rows.append(Row(line: line, data: .failure(BatchRowError(message: error.reason))))
            }
        }
        return rows
    }

    /// An image file a row names: an absolute path, or one relative to the batch file's folder.
    static func readImage(_ named: String, besides batchFile: String) throws -> Data {
        let folder = URL(fileURLWithPath: batchFile).deletingLastPathComponent()
        let url = named.hasPrefix("/") ? URL(fileURLWithPath: named) : folder.appendingPathComponent(named)
        guard let bytes = FileManager.default.contents(atPath: url.path) else {
            throw BatchRowError(message: "not found or unreadable (\(url.path))")
        }
        return bytes
    }

    /// `images.<name>` members of a JSON Lines row naming files (relative to the batch file's folder) become the
    /// row's `images`, in base64, as in a CSV.
    private static func resolveImagePaths(_ data: inout PassData, besides batchFile: String) throws {
        for (key, value) in data.overrides where key.hasPrefix("images.") {
            guard case .string(let file) = value else {
                throw BatchRowError(message: "\"\(key)\": expected the image file's path, found \(value.kindName)")
            }
            let name = String(key.dropFirst("images.".count))
            var images = data.overrides["images"]?.objectValue ?? [:]
            do {
                images[name] = .string(try readImage(file, besides: batchFile).base64EncodedString())
            } catch let failure as BatchRowError {
                throw BatchRowError(message: "\"\(key)\": cannot read \(file): \(failure.message)")
            }
            data.overrides["images"] = .object(images)
            data.overrides[key] = nil
        }
    }

    /// Line breaks inside quoted cells: a row spans that many more lines.
    private static func newlines(in cells: [String]) -> Int {
        cells.reduce(0) { $0 + $1.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } }
    }
}
