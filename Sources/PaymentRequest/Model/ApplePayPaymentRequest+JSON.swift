public import Foundation
import Validation

extension ApplePayPaymentRequest {
    /// Decodes Apple Pay JS JSON.
    /// - Parameter jsonData: A JSON object.
    /// - Throws: ``PaymentRequestError`` with code `invalidJSON`, naming the JSON path of a value with the wrong type.
    public init(jsonData: Data) throws {
        self = try PaymentJSON.decode(ApplePayPaymentRequest.self, from: jsonData)
    }

    /// The request as pretty-printed JSON with sorted keys (the normalized form `tessera pay validate` prints).
    /// - Returns: UTF-8 JSON bytes.
    public func jsonData() throws -> Data {
        try PaymentJSON.encode(self)
    }

    /// The request with network names in Apple's spelling (`VISA` → `visa`) and the deprecated editing mode
    /// `enabled` written as `available`; everything else is kept as it is.
    /// - Returns: The normalized request.
    public func normalized() -> ApplePayPaymentRequest {
        var copy = self
        copy.supportedNetworks = supportedNetworks.map { $0.canonical ?? $0 }
        if copy.shippingContactEditingMode == .enabled { copy.shippingContactEditingMode = .available }
        return copy
    }

    /// Top-level keys of a JSON object that Apple Pay JS does not define (they are dropped when decoding).
    /// - Parameter jsonData: A JSON object.
    /// - Returns: The unknown keys, sorted; empty when the data is not an object.
    public static func unknownKeys(inJSON jsonData: Data) -> [String] {
        guard let object = try? JSONDecoder().decode([String: AnyMember].self, from: jsonData) else { return [] }
        return object.keys.filter { !knownKeys.contains($0) }.sorted()
    }

    /// A member's value, skipped: only the keys are wanted.
    private struct AnyMember: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

/// JSON coding shared by requests, updates and results: sorted keys, no escaped slashes, JSON paths in errors.
public enum PaymentJSON {
    /// Decodes any model type.
    /// - Parameters:
    ///   - type: The type.
    ///   - data: JSON bytes.
    /// - Returns: The value.
    /// - Throws: ``PaymentRequestError`` (`invalidJSON`) naming the path at fault.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, let fault = JSONSyntax.fault(in: data) {
                // Where the text stops being JSON, as a line and column.
                throw PaymentRequestError(code: .invalidJSON, reason: "not valid JSON: \(fault)")
            }
            throw PaymentRequestError(code: .invalidJSON, reason: describe(error))
        } catch {
            throw PaymentRequestError(code: .invalidJSON, reason: "not valid JSON: \(error.localizedDescription)")
        }
    }

    /// Encodes any model type as pretty-printed JSON with sorted keys.
    /// - Parameter value: The value.
    /// - Returns: UTF-8 JSON bytes.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// `lineItems[0].amount` from a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var result = ""
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += (result.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return result.isEmpty ? "(root)" : result
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(name(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(name(type)), found null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): is required"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "not valid JSON"
        }
    }

    private static func name(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string (amounts are strings such as \"10.00\")"
        case is Int.Type: return "an integer"
        case is Bool.Type: return "true or false"
        case is [Any].Type: return "an array"
        default: return "an object"
        }
    }
}
