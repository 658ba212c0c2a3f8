package import Foundation
import Validation

/// The Foundation coders PassModel shares, and the translation of their errors into ``PassModelError``.
///
/// `JSONDecoder` and `JSONEncoder` are thread-safe, so one instance per configuration serves every call.
package enum JSONCoding {
    /// The shared decoder.
    package static let decoder = JSONDecoder()

    private static let encoders: [JSONEncoder] = (0..<4).map { index in
        let encoder = JSONEncoder()
        var formatting: JSONEncoder.OutputFormatting = [.withoutEscapingSlashes]
        if index & 1 != 0 { formatting.insert(.sortedKeys) }
        if index & 2 != 0 { formatting.insert(.prettyPrinted) }
        encoder.outputFormatting = formatting
        return encoder
    }

    /// The shared encoder for a formatting; slashes are never escaped.
    static func encoder(sortedKeys: Bool, prettyPrinted: Bool) -> JSONEncoder {
        encoders[(sortedKeys ? 1 : 0) | (prettyPrinted ? 2 : 0)]
    }

    /// Encodes a value, turning an `EncodingError` (an infinite or NaN number) into `invalidJSON`.
    package static func encode(_ value: some Encodable, sortedKeys: Bool, prettyPrinted: Bool) throws -> Data {
        do {
            return try encoder(sortedKeys: sortedKeys, prettyPrinted: prettyPrinted).encode(value)
        } catch let error as EncodingError {
            guard case .invalidValue(let value, let context) = error else {
                throw PassModelError(.invalidJSON, "cannot write JSON: \(error)")
            }
            let path = context.codingPath.isEmpty ? "" : " at \(CodingPath.string(context.codingPath))"
            throw PassModelError(.invalidJSON, "cannot write \(value) as a JSON value\(path)")
        }
    }

    /// The error for bytes `JSONDecoder` refused: where the text stops being JSON (line and column), else what the
    /// decoder said.
    package static func invalidJSON(_ data: Data, _ decoderError: any Error) -> PassModelError {
        PassModelError(.invalidJSON, JSONSyntax.fault(in: data) ?? Self.describe(decoderError))
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }

    /// Decodes the bytes once with `JSONDecoder`. Only when that fails is the JSON parsed into a tree, so each
    /// type mismatch can be reported at its path and its value removed until the rest decodes: every mistyped value
    /// is reported at once, and the rest of the document is still checked.
    /// - Parameters:
    ///   - type: The document's type (`Pass`, `Order`).
    ///   - data: The JSON bytes.
    ///   - file: The file name for problems that have no path (`pass.json`, `order.json`).
    ///   - context: Where problems are reported; mistyped paths are suppressed for later checks.
    /// - Returns: The decoded value, or `nil` when the bytes are not JSON or the document cannot be decoded at all.
    package static func decodeReportingTypeErrors<T: Decodable>(
        _ type: T.Type, from data: Data, file: String, context: inout ValidationContext
    ) -> T? {
        var failure: any Error
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            failure = error
        }
        var tree: JSONValue
        do {
            tree = try JSONValue(jsonData: data)
        } catch {
            context.error(file, "not valid JSON: \((error as? PassModelError)?.reason ?? "\(error)")")
            return nil
        }
        for _ in 0..<200 {
            guard let error = failure as? DecodingError else {
                context.error(file, "\(failure)")
                return nil
            }
            let (codingPath, message) = CodingPath.reason(error, in: tree)
            let path = CodingPath.string(codingPath)
            if context.suppressed.contains(path), codingPath.count > 1, tree.removeValue(at: codingPath.dropLast()[...]) {
                // The value already reported here was required: without it the object around it cannot be read
                // either, so that object is left out too and the rest is still checked.
            } else if !codingPath.isEmpty, tree.removeValue(at: codingPath[...]) {
                context.error(path, message)
                context.suppressed.insert(path)
            } else {
                context.error(path.isEmpty ? file : path, message)
                return nil
            }
            do {
                let bytes = try tree.jsonData(sortedKeys: false, prettyPrinted: false)
                return try decoder.decode(T.self, from: bytes)
            } catch {
                failure = error
            }
        }
        return nil
    }
}
