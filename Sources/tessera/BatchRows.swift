import Foundation
import PassModel
import SwiftCSV
import Validation

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

    /// The kinds of rows file, by extension.
    enum Format {
        case csv, jsonLines

        /// `nil` for an extension that is neither.
        init?(path: String) {
            let lowered = path.lowercased()
            if lowered.hasSuffix(".csv") {
                self = .csv
            } else if lowered.hasSuffix(".jsonl") || lowered.hasSuffix(".ndjson") {
                self = .jsonLines
            } else {
                return nil
            }
        }
    }

    init(path: String, template: PassTemplate) throws {
        guard let format = Format(path: path) else {
            throw CommandFailure(message: "\(path): rows must be a .csv, .jsonl or .ndjson file")
        }
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "\(path): \(FileReading.problem(at: path, what: "rows file"))")
        }
        if format == .jsonLines {
            rows = Self.jsonLines(bytes).map { row in
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
        } else {
            guard var text = String(data: bytes, encoding: .utf8) else {
                // A spreadsheet's export in another encoding: every accented letter would be signed as U+FFFD.
                throw CommandFailure(message: "\(path) line \(Self.firstLineNotUTF8(bytes)): not UTF-8 text (save the file as UTF-8)")
            }
            // Excel's and PowerShell's "UTF-8" exports begin with a byte order mark: not part of the first cell.
            if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
            // A file whose lines end with CR alone (a classic Mac spreadsheet's "CSV (Macintosh)" export).
            if text.utf8.contains(UInt8(ascii: "\r")), !text.utf8.contains(UInt8(ascii: "\n")) {
                text = String(decoding: text.utf8.map { $0 == UInt8(ascii: "\r") ? UInt8(ascii: "\n") : $0 }, as: UTF8.self)
            }
            rows = try Self.csv(text, path: path, template: template)
        }
    }

    /// The 1-based line of the first byte that is not UTF-8.
    static func firstLineNotUTF8(_ bytes: Data) -> Int {
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where String(data: Data(line), encoding: .utf8) == nil {
            return index + 1
        }
        return 1
    }

    /// One row per line; lines end with `\n` or `\r\n` (split on the bytes: Swift counts `\r\n` as one character,
    /// which is not `"\n"`). A line that is not UTF-8 fails alone.
    private static func jsonLines(_ bytes: Data) -> [Row] {
        var rows: [Row] = []
        // A byte order mark before the first line is not part of it.
        let bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        for (index, bytes) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard let line = String(data: Data(bytes), encoding: .utf8) else {
                rows.append(Row(line: index + 1, data: .failure(BatchRowError(message: "not UTF-8 text (save the file as UTF-8)"))))
                continue
            }
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
                // The row was read alone, so its "line 1, column N" is this line's column N (after its leading spaces).
                var message = "\(error)"
                if message.hasPrefix("line 1, column "), let colon = message.firstIndex(of: ":"),
                   let column = Int(message[message.index(message.startIndex, offsetBy: 15)..<colon]) {
                    let leading = line.prefix { $0 == " " || $0 == "\t" }.count
                    message = "not JSON at column \(column + leading)\(message[colon...])"
                }
                rows.append(Row(line: index + 1, data: .failure(BatchRowError(message: message))))
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
        let quoting = CSVQuoting(text)
        if let line = quoting.unclosedQuoteLine {
            throw CommandFailure(message: "\(path) line \(line): a quoted cell is never closed (it would run to the end of the file)")
        }
        if let header = quoting.badRecords.first(where: { $0.line == 1 }) {
            throw CommandFailure(message: "\(path) line 1 (header): \(header.reason)")
        }
        do {
            // The CSV reader drops an empty last cell at the very end of a file without a final line break.
            let readable = quoting.readable
            let complete = readable.hasSuffix("\n") || readable.hasSuffix("\r\n") || readable.isEmpty ? readable : readable + "\n"
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
            // A blank line, or a spreadsheet's row of empty cells (`,,,`).
            if cells.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            switch columns.data(cells: cells, readImage: { try Self.readImage($0, besides: path) }) {
            case .success(let data): rows.append(Row(line: line, data: .success(data)))
            case .failure(let error): rows.append(Row(line: line, data: .failure(BatchRowError(message: error.reason))))
            }
        }
        // Records whose quotes do not follow RFC 4180 were read as blank lines; each fails alone, on its line.
        rows += quoting.badRecords.map { Row(line: $0.line, data: .failure(BatchRowError(message: $0.reason))) }
        return rows.sorted { $0.line < $1.line }
    }

    /// An image file a row names: an absolute path, or one relative to the batch file's folder.
    static func readImage(_ named: String, besides batchFile: String) throws -> Data {
        let folder = URL(fileURLWithPath: batchFile).deletingLastPathComponent()
        let url = named.hasPrefix("/") ? URL(fileURLWithPath: named) : folder.appendingPathComponent(named)
        // Checked before reading: a device or a pipe (`/dev/zero`, a FIFO) would be read without end or wait for ever,
        // and a large file named by mistake would be held whole for every row naming it.
        // (stat follows a symbolic link to what it names.)
        var info = stat()
        if stat(url.path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type != S_IFREG {
                throw BatchRowError(message: type == S_IFDIR
                    ? "is a folder, not an image file (\(url.path))" : "not a regular file: a pipe, socket or device (\(url.path))")
            }
            if Int(info.st_size) > PassValidator.maximumFileSize {
                throw BatchRowError(message: "\(info.st_size) bytes: larger than the \(PassValidator.maximumFileSize >> 20) MiB "
                    + "a file of a pass may be (\(url.path))")
            }
        }
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
            var images: [String: JSONValue] = [:]
            switch data.overrides["images"] {
            case nil, .null?: break
            case .object(let given)?: images = given
            case let other?:
                throw BatchRowError(message: "\"images\": must be an object of image file name to its bytes in base64, "
                    + "found \(other.kindName)")
            }
            guard images[name] == nil else {
                throw BatchRowError(message: "\"\(key)\": the image is also given in \"images\"; give it once")
            }
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
