import Foundation

/// Where a CSV file's quotes break RFC 4180, found before the CSV reader sees it: a quote inside a cell that does not
/// start with one, or text after a quoted cell's closing quote, makes its record fail alone (the reader would stop the
/// whole file without a line number); a quoted cell never closed would swallow every later line into one cell, so it
/// stops the batch, naming the line it starts on. It also finds the unquoted cells that begin with white space (the
/// CSV reader would drop it: `A1,   0042` read as `0042`), which ``readable`` quotes so they are read as written.
struct CSVQuoting {
    /// A record that breaks the quoting rules: the line it starts on and what is wrong.
    struct BadRecord {
        var line: Int
        var reason: String
        var bytes: Range<Int>
    }

    private(set) var badRecords: [BadRecord] = []
    /// The line a quoted cell that is never closed starts on.
    private(set) var unclosedQuoteLine: Int?
    /// Unquoted cells whose text begins with white space and holds more than white space.
    private(set) var leadingSpaceCells: [Range<Int>] = []
    private let bytes: [UInt8]

    /// Outside quotes, the CSV reader ends a row at any line break Unicode knows, but lines are counted (and rows
    /// meant to end) at LF: a row holding another (a cell pasted from a web page or a word processor) would be cut
    /// there, its end read as a row of its own and every later line number one off. Such a row fails alone.
    private static func otherLineBreak(_ name: String) -> String {
        "\(name) outside quotes: the row would be cut there (quote the cell, or remove it)"
    }

    /// The name of the line break other than LF and CR starting at `index`: VT, FF, NEL, U+2028 or U+2029.
    private static func lineBreakName(in bytes: [UInt8], at index: Int) -> String? {
        func byte(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        switch bytes[index] {
        case 0x0B: return "a vertical tab (VT)"
        case 0x0C: return "a form feed (FF)"
        case 0xC2 where byte(1) == 0x85: return "a next line (U+0085 NEL)"
        case 0xE2 where byte(1) == 0x80 && byte(2) == 0xA8: return "a line separator (U+2028)"
        case 0xE2 where byte(1) == 0x80 && byte(2) == 0xA9: return "a paragraph separator (U+2029)"
        default: return nil
        }
    }

    init(_ text: String) {
        bytes = Array(text.utf8)
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var line = 1, recordLine = 1, recordStart = 0, quotedLine = 1
        var inQuotes = false, atCellStart = true, afterClosingQuote = false
        var cellStart = 0, cellQuoted = false
        var problem: String?
        var index = 0
        func endCell(at end: Int) {
            defer { cellStart = end + 1; cellQuoted = false }
            guard !cellQuoted, end > cellStart else { return }
            let text = String(decoding: bytes[cellStart..<end], as: UTF8.self)
            if text.first?.isWhitespace == true, text.contains(where: { !$0.isWhitespace }) {
                leadingSpaceCells.append(cellStart..<end)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == quote {
                    if index + 1 < bytes.count, bytes[index + 1] == quote {
                        index += 1
                    } else {
                        inQuotes = false
                        afterClosingQuote = true
                    }
                } else if byte == newline {
                    line += 1
                }
                index += 1
                continue
            }
            switch byte {
            case quote where atCellStart:
                inQuotes = true
                quotedLine = line
                atCellStart = false
                cellQuoted = true
            case quote:
                problem = problem ?? "a quote inside a cell that does not start with one (quote the whole cell and double its quotes: \"ab\"\"c\")"
            case comma:
                endCell(at: index)
                atCellStart = true
                afterClosingQuote = false
            case newline:
                endCell(at: index > 0 && bytes[index - 1] == cr ? index - 1 : index)
                cellStart = index + 1
                if let reason = problem {
                    badRecords.append(BadRecord(line: recordLine, reason: reason, bytes: recordStart..<index))
                }
                line += 1
                recordLine = line
                recordStart = index + 1
                atCellStart = true
                afterClosingQuote = false
                problem = nil
            case cr:
                // Before LF, part of the line's end; alone, a line break the CSV reader would end the row at.
                if index + 1 < bytes.count, bytes[index + 1] != newline {
                    problem = problem ?? Self.otherLineBreak("a carriage return (CR) alone")
                }
            default:
                if let name = Self.lineBreakName(in: bytes, at: index) {
                    problem = problem ?? Self.otherLineBreak(name)
                }
                if afterClosingQuote {
                    problem = problem ?? "text after a quoted cell's closing quote (quote the whole cell and double its quotes)"
                }
                atCellStart = false
            }
            index += 1
        }
        if inQuotes {
            unclosedQuoteLine = quotedLine
        } else {
            endCell(at: bytes.last == cr ? bytes.count - 1 : bytes.count)
            if let reason = problem {
                badRecords.append(BadRecord(line: recordLine, reason: reason, bytes: recordStart..<bytes.count))
            }
        }
    }

    /// The text for the CSV reader: each bad record's bytes replaced by its line breaks alone (blank lines the reader
    /// skips, so the other records keep their line numbers), and each cell beginning with white space quoted (it
    /// holds no quote: such a record is a bad one).
    var readable: String {
        guard !badRecords.isEmpty || !leadingSpaceCells.isEmpty else { return String(decoding: bytes, as: UTF8.self) }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count + 2 * leadingSpaceCells.count)
        var next = 0
        var cells = leadingSpaceCells[...]
        func copy(upTo end: Int) {
            while let cell = cells.first, cell.lowerBound < end {
                cells.removeFirst()
                guard cell.lowerBound >= next else { continue }
                kept += bytes[next..<cell.lowerBound]
                kept.append(UInt8(ascii: "\""))
                kept += bytes[cell]
                kept.append(UInt8(ascii: "\""))
                next = cell.upperBound
            }
            kept += bytes[next..<end]
            next = end
        }
        for record in badRecords {
            copy(upTo: record.bytes.lowerBound)
            kept += bytes[record.bytes].filter { $0 == UInt8(ascii: "\n") }
            next = record.bytes.upperBound
            while let cell = cells.first, cell.lowerBound < next { cells.removeFirst() }
        }
        copy(upTo: bytes.count)
        return String(decoding: kept, as: UTF8.self)
    }
}
