import Foundation
import PaymentToken
import Testing
import TesseraTestSupport

/// One public Apple Pay token set from `../shared/applepay-vectors` (see its README), read in place.
///
/// The folder lies outside the repository: a fresh clone has no such folder, and the tests that read it are then
/// skipped with the reason (``vectorsPresent``) instead of failing. `TESSERA_APPLEPAY_VECTORS` names another folder.
struct VectorSet: CustomTestStringConvertible, Sendable {
    /// The folder name.
    let name: String
    /// The token file, relative to the folder.
    let tokenFile: String
    /// The merchant private key file, when the set publishes one.
    let keyFile: String?
    /// The merchant certificate file, when the set publishes one.
    let certificateFile: String?
    /// The merchant identifier string, when the set gives one instead of a certificate.
    let merchantIDFile: String?
    /// The CMS signing time (from the set's README/expected.json).
    let signingTime: Date

    var testDescription: String { "\(name)/\(tokenFile)" }

    /// The folder of the sets: `TESSERA_APPLEPAY_VECTORS`, else `../shared/applepay-vectors` beside the repository.
    static let root: URL = {
        if let override = ProcessInfo.processInfo.environment["TESSERA_APPLEPAY_VECTORS"], !override.isEmpty {
            return URL(fileURLWithPath: override).standardizedFileURL
        }
        return Subprocess.repositoryRoot.appendingPathComponent("../shared/applepay-vectors").standardizedFileURL
    }()
    static let appleRootPath = root.appendingPathComponent("apple-root-ca-g3/AppleRootCA-G3.pem").path

    /// Whether the folder is there, with Apple's root certificate and every set this file names.
    static let isPresent: Bool = {
        let files = [appleRootPath] + all.map { $0.path($0.tokenFile) }
        return files.allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }()

    /// Why the tests that read the sets are skipped when the folder is missing.
    static var absenceReason: String {
        "the public Apple Pay token vectors are not at \(root.path) (clone them there, as CI does, "
            + "or set TESSERA_APPLEPAY_VECTORS, to run this test)"
    }

    /// Sets that can be decrypted (key and merchant identifier published).
    static let decryptable: [VectorSet] = [
        VectorSet(name: "spreedly-gala-2015", tokenFile: "token.json", keyFile: "private_key.pem",
                  certificateFile: "certificate.pem", merchantIDFile: nil, signingTime: Date(timeIntervalSince1970: 1_414_439_503)),
        VectorSet(name: "spreedly-gala-2023", tokenFile: "token.json", keyFile: "private_key.pem",
                  certificateFile: "certificate.pem", merchantIDFile: nil, signingTime: Date(timeIntervalSince1970: 1_630_522_986)),
        VectorSet(name: "PayU-EMEA-apple-pay", tokenFile: "token.json", keyFile: "private_key.pem",
                  certificateFile: nil, merchantIDFile: "merchant_identifier.txt", signingTime: Date(timeIntervalSince1970: 1_516_974_918)),
        VectorSet(name: "dave-inc-apple-pay-decrypt", tokenFile: "payload.json", keyFile: "privatePem.pem",
                  certificateFile: "certPem.pem", merchantIDFile: nil, signingTime: Date(timeIntervalSince1970: 1_600_361_166)),
        VectorSet(name: "Sepuka-apple_payment_token_decoder", tokenFile: "token.json", keyFile: "private.pem",
                  certificateFile: "certificate.pem", merchantIDFile: nil, signingTime: Date(timeIntervalSince1970: 1_559_896_755)),
    ]

    /// Signature-only sets (no merchant key published), EC_v1 and RSA_v1.
    static let signatureOnly: [VectorSet] = [
        VectorSet(name: "processout-applepay", tokenFile: "token-ec.json", keyFile: nil, certificateFile: nil,
                  merchantIDFile: nil, signingTime: Date(timeIntervalSince1970: 1_485_974_706)),
        VectorSet(name: "processout-applepay", tokenFile: "token-rsa.json", keyFile: nil, certificateFile: nil,
                  merchantIDFile: nil, signingTime: Date(timeIntervalSince1970: 1_485_986_213)),
    ]

    static let all = decryptable + signatureOnly

    func path(_ file: String) -> String { Self.root.appendingPathComponent(name).appendingPathComponent(file).path }

    func data(_ file: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(file)))
    }

    func token() throws -> ApplePayPaymentToken { try ApplePayPaymentToken(jsonData: try data(tokenFile)) }

    func expectedPlaintext() throws -> Data { try data("expected-plaintext.json") }

    /// The set's `expected.json` as an object.
    func expected() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: try data("expected.json")) as? [String: Any] ?? [:]
    }

    func merchantIdentifier() throws -> MerchantIdentifier {
        if let certificateFile { return try MerchantIdentifier(certificateAt: path(certificateFile)) }
        let text = String(decoding: try data(merchantIDFile ?? ""), as: UTF8.self)
        return MerchantIdentifier(merchantID: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func decryptor() throws -> PaymentTokenDecryptor {
        PaymentTokenDecryptor(merchantKeys: [try MerchantKey(contentsOf: path(keyFile ?? ""))],
                              merchantIdentifier: try merchantIdentifier())
    }

    static func appleVerifier() throws -> PaymentTokenVerifier {
        PaymentTokenVerifier(configuration: try .init(appleRootPath: appleRootPath))
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only when the public Apple Pay vectors are present, else skips it saying why.
    static var vectorsPresent: Self {
        .enabled(if: VectorSet.isPresent, Comment(rawValue: VectorSet.absenceReason))
    }
}
