package import Foundation
import Validation

/// Why JSON sent to one of the services did not decode into the type it asked for: where, and what was wrong.
///
/// The one decoding step behind the pass web service's and checkout's request bodies (and checkout's configuration
/// file); each words the failure in its own error shape.
package struct JSONDecodingFailure: Error {
    /// What was wrong at ``codingPath``.
    package enum Kind {
        /// A required key is absent (``codingPath`` ends with it).
        case missing
        /// The value has another JSON type; `expected` reads "a string", "a number", "an object", ...
        case wrongType(expected: String)
        /// The value is `null` where `expected` is needed.
        case null(expected: String)
        /// The bytes are not JSON (empty ``codingPath``), or a value was refused by its type's decoder (`detail` is
        /// the decoder's own sentence).
        case malformed(detail: String)
    }

    /// The keys from the root to the place at fault; empty for the whole body.
    package var codingPath: [any CodingKey]
    /// What was wrong there.
    package var kind: Kind
    /// For bytes that are not JSON: where they stop being JSON (`line 1, column 14: ...`).
    package var syntaxFault: String?

    /// The reading of a `DecodingError`.
    /// - Parameter error: What `JSONDecoder` threw.
    package init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(codingPath: context.codingPath + [key], kind: .missing)
        case .typeMismatch(let type, let context):
            self.init(codingPath: context.codingPath, kind: .wrongType(expected: Self.expected(type)))
        case .valueNotFound(let type, let context):
            self.init(codingPath: context.codingPath, kind: .null(expected: Self.expected(type)))
        case .dataCorrupted(let context):
            self.init(codingPath: context.codingPath, kind: .malformed(detail: context.debugDescription))
        @unknown default:
            self.init(codingPath: [], kind: .malformed(detail: "\(error)"))
        }
    }

    private init(codingPath: [any CodingKey], kind: Kind) {
        self.codingPath = codingPath
        self.kind = kind
    }

    /// Decodes `data` with the shared decoder.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON.
    /// - Returns: The value.
    /// - Throws: ``JSONDecodingFailure`` for a `DecodingError`; any other error the type's decoder throws, unchanged.
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONCoding.decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            var failure = JSONDecodingFailure(error)
            if failure.codingPath.isEmpty, case .malformed = failure.kind { failure.syntaxFault = JSONSyntax.fault(in: data) }
            throw failure
        }
    }

    /// ``codingPath`` as a JSON path, `lineItems[0].amount`, or `body` for the whole body.
    package var jsonPath: String {
        codingPath.isEmpty ? "body" : CodingPath.string(codingPath)
    }

    /// "a string", "a boolean", "a number", "an array" or "an object" for a type the decoder expected.
    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
