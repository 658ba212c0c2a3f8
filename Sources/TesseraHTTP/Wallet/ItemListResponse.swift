import Foundation
import HTTPTypes
import Hummingbird
import PassModel
import PassStore
import PassWebService

/// A JSON page of a search: `{"<items>": [...], "nextCursor"}`, `nextCursor` null after the last page.
struct ItemPage<Item: Encodable>: Encodable {
    /// The member holding the items (`passes`, `orders`).
    var name: String
    var items: [Item]
    var nextCursor: String?

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(items, forKey: Key(stringValue: name))
        try container.encode(nextCursor, forKey: Key(stringValue: "nextCursor"))
    }
}

/// The answers of `GET /api/v1/passes` and `GET /api/v1/orders`: a JSON page, or (by `Accept`) every matching item
/// streamed as CSV or NDJSON, a store page at a time, so an export of any size holds one page in memory.
enum ItemListResponse {
    enum Format {
        case json, csv, ndjson
    }

    /// The format an `Accept` header asks for (RFC 9110 §12.5.1): of the three answers, the one its media ranges give
    /// the highest quality, the most specific range deciding each (`text/csv;q=0` refuses CSV even beside `*/*`);
    /// among equals, JSON, then CSV, then NDJSON, as the header lists them when it ranks nothing.
    /// - Throws: 406 when it accepts none of the three.
    static func format(accept: String?) throws -> Format {
        guard let accept, !accept.trimmingCharacters(in: .whitespaces).isEmpty else { return .json }
        // Each range: its type, subtype, quality, and where it stood in the header.
        var ranges: [(type: String, subtype: String, quality: Double, position: Int)] = []
        for (position, range) in accept.split(separator: ",").enumerated() {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let media = parts.first?.split(separator: "/", omittingEmptySubsequences: false) ?? []
            guard media.count == 2 else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)).map { min(max($0, 0), 1) } ?? 1
            }
            ranges.append((String(media[0]), String(media[1]), quality, position))
        }
        func preference(_ type: String, _ subtype: String) -> (quality: Double, position: Int)? {
            let matching = ranges.filter { ($0.type == type || $0.type == "*") && ($0.subtype == subtype || $0.subtype == "*") }
            // The most specific range that matches decides (type/subtype over type/* over */*).
            guard let decisive = matching.max(by: { ($0.type == "*" ? 0 : 1) + ($0.subtype == "*" ? 0 : 1)
                                                    < ($1.type == "*" ? 0 : 1) + ($1.subtype == "*" ? 0 : 1) })
            else { return nil }
            return decisive.quality > 0 ? (decisive.quality, decisive.position) : nil
        }
        let offered: [(Format, String, String)] = [(.json, "application", "json"), (.csv, "text", "csv"),
                                                    (.ndjson, "application", "x-ndjson")]
        let acceptable = offered.compactMap { format, type, subtype in
            preference(type, subtype).map { (format, $0.quality, $0.position) }
        }
        if let best = acceptable.max(by: { $0.1 != $1.1 ? $0.1 < $1.1 : $0.2 > $1.2 }) { return best.0 }
        throw WebServiceError(
            .invalidRequest, status: .notAcceptable,
            "Accept: answers are application/json (a page), text/csv or application/x-ndjson (every match)",
            field: "Accept")
    }

    /// The query parameters in order, decoded.
    static func parameters(_ request: Request) -> [(name: String, value: String)] {
        request.uri.formQueryParameters.filter { $0.key != "format" }.map { (String($0.key), String($0.value)) }
    }

    /// The format a request asks for: `format=csv|ndjson|json` in the query (what a download link can say), else by
    /// its `Accept` header (see ``format(accept:)``).
    /// - Throws: 400 naming `format` for another value; 406 as ``format(accept:)``.
    static func format(of request: Request) throws -> Format {
        let given = request.uri.formQueryParameters.getAll("format")
        guard !given.isEmpty else { return try format(accept: request.headers[.accept]) }
        switch given.count == 1 ? String(given[0]) : "" {
        case "csv": return .csv
        case "ndjson": return .ndjson
        case "json": return .json
        default: throw WebServiceError.invalid("format", "format: must be csv, ndjson or json, once")
        }
    }

    /// Streams every match as CSV or NDJSON.
    /// - Parameters:
    ///   - columns: The CSV header (the NDJSON lines are objects).
    ///   - row: One item's CSV cells, in the columns' order.
    ///   - object: One item's NDJSON object.
    static func export<Issuer: WalletItemIssuer>(
        _ format: Format, issuer: Issuer, request: ItemListRequest, name: String, columns: [String],
        row: @escaping @Sendable (PassListing) async throws -> [String],
        object: @escaping @Sendable (PassListing) async throws -> JSONValue
    ) -> Response {
        let body = ResponseBody { writer in
            if format == .csv { try await writer.write(ByteBuffer(string: csvLine(columns))) }
            try await issuer.forEachItem(request) { listings in
                var text = ""
                for listing in listings {
                    if format == .csv {
                        text += csvLine(try await row(listing))
                    } else {
                        text += String(decoding: try await object(listing).jsonData(sortedKeys: true, prettyPrinted: false),
                                       as: UTF8.self) + "\n"
                    }
                }
                try await writer.write(ByteBuffer(string: text))
            }
            try await writer.finish(nil)
        }
        let type = format == .csv ? "text/csv; charset=utf-8" : "application/x-ndjson"
        let file = format == .csv ? "\(name).csv" : "\(name).ndjson"
        return Response(status: .ok, headers: [
            .contentType: type, .contentDisposition: "attachment; filename=\"\(file)\"", .cacheControl: "no-store",
        ], body: body)
    }

    /// One CSV record (RFC 4180: a cell with a comma, quote or line break is quoted, quotes doubled; CRLF ends it).
    /// A text cell that a spreadsheet would run as a formula (it starts with `=`, `+`, `@`, a tab, a line break, or
    /// `-` unless the whole cell is a negative number such as `-5` or `-0.25`) gets a leading `'`: `-1+1` and
    /// `-2+3+cmd|' /C calc'!A0` are formulas to Excel and LibreOffice.
    /// Checked by Unicode scalar, not by `Character`: `"\r\n"` is one Character, equal to neither `"\r"` nor `"\n"`,
    /// and `=` with a combining mark after it is one Character that is not `=`, though a spreadsheet reads `=`.
    static func csvLine(_ cells: [String]) -> String {
        cells.map { cell -> String in
            var cell = cell
            if let first = cell.unicodeScalars.first,
               "=+@\t\r\n".unicodeScalars.contains(first) || (first == "-" && !isNegativeNumber(cell)) {
                cell = "'" + cell
            }
            guard cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
                return cell
            }
            return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }

    /// Whether a cell is `-` and a decimal number (digits, at most one `.` between digits, an optional exponent): what
    /// a spreadsheet reads as a number, not a formula.
    static func isNegativeNumber(_ cell: String) -> Bool {
        var rest = Substring.UnicodeScalarView(cell.unicodeScalars.dropFirst())
        func digits() -> Bool {
            let run = rest.prefix { ("0"..."9").contains($0) }
            rest = rest.dropFirst(run.count)
            return !run.isEmpty
        }
        guard digits() else { return false }
        if rest.first == "." {
            rest = rest.dropFirst()
            guard digits() else { return false }
        }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
            guard digits() else { return false }
        }
        return rest.isEmpty
    }

    /// A field value as a CSV cell: text as it is, numbers in JSON form.
    static func cell(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: ""
        case .string(let text)?: text
        case let other?: (try? other.jsonData(sortedKeys: true, prettyPrinted: false)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }
}
