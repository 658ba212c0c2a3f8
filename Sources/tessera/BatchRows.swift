import Foundation
import PassModel
import SwiftCSV

/// The rows of a batch file: CSV (header `serialNumber`, `barcodeMessage`, `fields.<key>`, other pass.json keys)
/// or JSON Lines (one data document per line). Each row becomes a data document, or an error for that row.
struct BatchRows {
    struct Row {
        /// 1-based line number in the file (the header is line 1 in a CSV).
        var line: Int
        var data: Result<PassData, BatchRowError>
    }

    struct BatchRowError: Error {
        var message: String
    }

    var rows: [Row]

    init(path: String) throws {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "\(path): rows file not found or unreadable")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if path.lowercased().hasSuffix(".jsonl") || path.lowercased().hasSuffix(".ndjson") {
            rows = Self.jsonLines(text)
        } else if path.lowercased().hasSuffix(".csv") {
            rows = try Self.csv(text, path: path)
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
                rows.append(Row(line: index + 1, data: .success(try PassData(jsonData: Data(trimmed.utf8)))))
            } catch {
                rows.append(Row(line: index + 1, data: .failure(BatchRowError(message: "\(error)"))))
            }
        }
        return rows
    }

    private static func csv(_ text: String, path: String) throws -> [Row] {
        let table: CSV<Enumerated>
        do {
            table = try CSV<Enumerated>(string: text, delimiter: .comma, loadColumns: false)
        } catch {
            throw CommandFailure(message: "\(path): not a readable CSV file: \(error)")
        }
        let header = table.header.map { $0.trimmingCharacters(in: .whitespaces) }
        guard !header.isEmpty, !header.allSatisfy(\.isEmpty) else {
            throw CommandFailure(message: "\(path): the first line must be a header (serialNumber, barcodeMessage, fields.<key>, ...)")
        }
        return table.rows.enumerated().map { index, cells in
            let line = index + 2
            guard cells.count == header.count else {
                return Row(line: line, data: .failure(BatchRowError(
                    message: "has \(cells.count) columns, the header has \(header.count)")))
            }
            var overrides: [String: JSONValue] = [:]
            var fields: [String: JSONValue] = [:]
            for (column, cell) in zip(header, cells) where !cell.isEmpty && !column.isEmpty {
                if column.hasPrefix("fields.") {
                    fields[String(column.dropFirst("fields.".count))] = .string(cell)
                } else {
                    overrides[column] = .string(cell)
                }
            }
            return Row(line: line, data: .success(PassData(overrides: overrides, fields: fields)))
        }
    }
}
