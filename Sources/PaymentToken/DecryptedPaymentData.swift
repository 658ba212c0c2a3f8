public import Foundation
public import PassModel

/// The decrypted payment data of an Apple Pay token, as Apple defines it, with every key kept.
///
/// Its `description`, `debugDescription` and mirror show only the last four digits of the account number and never
/// the cryptogram or EMV data, so logging or dumping it does not leak card data. Read the fields, or ``rawJSON``,
/// to pass them to a payment processor.
public struct DecryptedPaymentData: Sendable, Equatable {
    /// `paymentData`: the authentication data, 3-D Secure or EMV.
    public struct Details: Sendable, Equatable {
        /// `onlinePaymentCryptogram` (3DSecure), Base64.
        public var onlinePaymentCryptogram: String?
        /// `eciIndicator` (3DSecure), when the network supplies one.
        public var eciIndicator: String?
        /// `emvData` (EMV), Base64.
        public var emvData: String?
        /// `encryptedPINData` (EMV), hexadecimal.
        public var encryptedPINData: String?
        /// Every member, including those not named above.
        public var fields: [String: JSONValue]
    }

    /// `applicationPrimaryAccountNumber`: the device (or merchant) account number.
    public var applicationPrimaryAccountNumber: String
    /// `applicationExpirationDate`: YYMMDD.
    public var applicationExpirationDate: String
    /// `currencyCode`: ISO 4217 numeric code, e.g. "840".
    public var currencyCode: String?
    /// `transactionAmount`: the amount in the currency's minor units.
    public var transactionAmount: Decimal?
    /// `cardholderName`, when present.
    public var cardholderName: String?
    /// `deviceManufacturerIdentifier`.
    public var deviceManufacturerIdentifier: String?
    /// `paymentDataType`: "3DSecure" or "EMV".
    public var paymentDataType: String
    /// `paymentData`.
    public var paymentData: Details
    /// `authenticationResponses` (merchant tokens), when present.
    public var authenticationResponses: [JSONValue]?
    /// `merchantTokenIdentifier` (merchant tokens), when present.
    public var merchantTokenIdentifier: String?
    /// Every top-level member, including those not named above.
    public var fields: [String: JSONValue]
    /// The plaintext exactly as decrypted.
    public var rawJSON: Data

    /// The keys Apple defines; others are kept in ``fields`` and reported by ``unknownKeys``.
    public static let knownKeys: Set<String> = [
        "applicationPrimaryAccountNumber", "applicationExpirationDate", "currencyCode", "transactionAmount",
        "cardholderName", "deviceManufacturerIdentifier", "paymentDataType", "paymentData", "authenticationResponses",
        "merchantTokenIdentifier", "merchantTokenMetadata",
    ]

    /// Parses decrypted payment data.
    /// - Parameter jsonData: The plaintext JSON.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/malformedPaymentData`` naming the field.
    public init(jsonData: Data) throws {
        guard let value = try? JSONValue(jsonData: jsonData), let fields = value.objectValue else {
            throw PaymentTokenError(.malformedPaymentData, "the decrypted payment data is not a JSON object")
        }
        func required(_ key: String) throws -> String {
            guard let text = fields[key]?.stringValue else {
                throw PaymentTokenError(.malformedPaymentData, "decrypted \(key): is missing or not a string", field: key)
            }
            return text
        }
        applicationPrimaryAccountNumber = try required("applicationPrimaryAccountNumber")
        applicationExpirationDate = try required("applicationExpirationDate")
        paymentDataType = try required("paymentDataType")
        guard let details = fields["paymentData"]?.objectValue else {
            throw PaymentTokenError(.malformedPaymentData, "decrypted paymentData: is missing or not an object", field: "paymentData")
        }
        paymentData = Details(onlinePaymentCryptogram: details["onlinePaymentCryptogram"]?.stringValue,
                              eciIndicator: details["eciIndicator"]?.stringValue, emvData: details["emvData"]?.stringValue,
                              encryptedPINData: details["encryptedPINData"]?.stringValue, fields: details)
        currencyCode = fields["currencyCode"]?.stringValue
        transactionAmount = fields["transactionAmount"].flatMap(Self.decimal)
        cardholderName = fields["cardholderName"]?.stringValue
        deviceManufacturerIdentifier = fields["deviceManufacturerIdentifier"]?.stringValue
        authenticationResponses = fields["authenticationResponses"]?.arrayValue
        merchantTokenIdentifier = fields["merchantTokenIdentifier"]?.stringValue
        self.fields = fields
        rawJSON = jsonData
    }

    /// Top-level keys Apple had not defined when this was written, sorted.
    public var unknownKeys: [String] { fields.keys.filter { !Self.knownKeys.contains($0) }.sorted() }

    /// The last four digits of the account number.
    public var lastFour: String { String(applicationPrimaryAccountNumber.suffix(4)) }

    /// The payment data as pretty JSON with sorted keys (Apple's keys at the top level), for handing to a processor.
    /// It contains the account number and cryptogram: never log it.
    /// - Returns: The JSON bytes.
    public func prettyJSON() throws -> Data {
        try JSONValue.object(fields).jsonData(sortedKeys: true, prettyPrinted: true)
    }

    /// A JSON number as a decimal: integers exactly (amounts are minor units), others as the nearest decimal.
    private static func decimal(_ value: JSONValue) -> Decimal? {
        switch value {
        case .integer(let integer): Decimal(integer)
        case .number(let number): Decimal(number)
        default: nil
        }
    }
}

extension DecryptedPaymentData: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A summary without card data: last four digits, expiry, amount, type and which fields are present.
    public var description: String {
        var parts = ["account ••••\(lastFour)", "expires \(applicationExpirationDate)", "type \(paymentDataType)"]
        if let transactionAmount { parts.append("amount \(transactionAmount)" + (currencyCode.map { " (\($0))" } ?? "")) }
        if paymentData.onlinePaymentCryptogram != nil { parts.append("cryptogram <redacted>") }
        if let eciIndicator = paymentData.eciIndicator { parts.append("ECI \(eciIndicator)") }
        if paymentData.emvData != nil { parts.append("EMV data <redacted>") }
        if merchantTokenIdentifier != nil { parts.append("merchant token") }
        return "DecryptedPaymentData(\(parts.joined(separator: ", ")))"
    }

    /// Same as ``description``: card data is redacted in debug output too.
    public var debugDescription: String { description }

    /// A mirror with card data redacted, so `dump` and test failure messages do not print it.
    public var customMirror: Mirror {
        Mirror(self, children: ["summary": description], displayStyle: .struct)
    }
}

extension DecryptedPaymentData.Details: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Which members are present, with the cryptogram and EMV data redacted.
    public var description: String {
        let shown = fields.keys.sorted().map { $0 == "eciIndicator" ? "eciIndicator \(eciIndicator ?? "?")" : "\($0) <redacted>" }
        return "Details(\(shown.joined(separator: ", ")))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with the cryptogram and EMV data redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["summary": description], displayStyle: .struct)
    }
}
