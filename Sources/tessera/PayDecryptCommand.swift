import ArgumentParser
import Foundation
import PaymentToken
import Validation

/// `tessera pay decrypt`: verify an Apple Pay payment token's signature and decrypt its payment data.
struct PayDecryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Verify an Apple Pay payment token and print its decrypted payment data as JSON.",
        discussion: """
        The token may be the paymentData object, a PKPaymentToken ({"paymentData": ...}) or a whole payment \
        ({"token": ...}). The signature is checked as Apple requires (OIDs, chain to --apple-root, CMS signature, \
        signing time within 5 minutes of --now) unless --skip-signature is given. Exit 0 prints the payment data \
        (pretty JSON, sorted keys) on standard output; exit 1 prints why verification or decryption failed.
        The output holds the card number and cryptogram: do not log it.
        """
    )

    @Option(help: "The payment token JSON file, or - for standard input.")
    var token: String

    @Option(help: "A merchant payment-processing private key (PEM or DER: PKCS#8 EC or RSA, SEC1 EC); repeat while rotating.")
    var merchantKey: [String] = []

    @Option(help: "The Apple Pay Payment Processing certificate carrying the merchant identifier (PEM or DER).")
    var merchantCert: String?

    @Option(help: "The merchant identifier (e.g. merchant.com.example), instead of --merchant-cert.")
    var merchantId: String?

    @Option(help: "Apple Root CA - G3 (PEM), from https://www.apple.com/certificateauthority/. Required unless --skip-signature.")
    var appleRoot: String?

    @Option(help: "The verification time, ISO 8601 (2021-09-01T19:03:06Z) or seconds since 1970 (default: now).")
    var now: String?

    @Flag(help: "Decrypt without verifying the signature (for debugging only).")
    var skipSignature = false

    func validate() throws {
        if merchantKey.isEmpty {
            throw ValidationError("--merchant-key is required: the merchant payment-processing private key")
        }
        if (merchantCert == nil) == (merchantId == nil) {
            throw ValidationError("give either --merchant-cert or --merchant-id (exactly one)")
        }
        if appleRoot == nil && !skipSignature {
            throw ValidationError("--apple-root is required to verify the signature (or give --skip-signature)")
        }
        if let now, Self.date(from: now) == nil {
            throw ValidationError("--now: \"\(now)\" is not an ISO 8601 date-time or a number of seconds since 1970")
        }
    }

    func run() throws {
        let name = token == "-" ? "<stdin>" : token
        // The credentials first, each failure named by its flag (not by the token file, which is not at fault).
        func loading<Value>(_ flag: String, _ load: () throws -> Value) throws -> Value {
            do {
                return try load()
            } catch let error as PaymentTokenError {
                throw CommandFailure(message: "\(flag): \(error.reason)")
            }
        }
        let verifier = try appleRoot.map { path in
            try loading("--apple-root") { PaymentTokenVerifier(configuration: try .init(appleRootPath: path)) }
        }
        let identifier = try merchantCert.map { path in try loading("--merchant-cert") { try MerchantIdentifier(certificateAt: path) } }
            ?? MerchantIdentifier(merchantID: merchantId ?? "")
        let keys = try merchantKey.map { path in try loading("--merchant-key") { try MerchantKey(contentsOf: path) } }
        do {
            let parsed = try ApplePayPaymentToken(jsonData: try readToken())
            if let verifier {
                _ = try verifier.verify(parsed, now: now.flatMap(Self.date(from:)) ?? Date())
            } else {
                Terminal.warning("the signature was not verified (--skip-signature)")
            }
            let payment = try PaymentTokenDecryptor(merchantKeys: keys, merchantIdentifier: identifier).decrypt(parsed)
            FileHandle.standardOutput.write(try payment.prettyJSON() + Data("\n".utf8))
        } catch let error as PaymentTokenError {
            throw CommandFailure(message: "\(name): \(error.reason)")
        }
    }

    private func readToken() throws -> Data {
        if token == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let data = FileManager.default.contents(atPath: token) else {
            throw CommandFailure(message: "\(token): \(FileReading.problem(at: token))")
        }
        return data
    }

    /// Parses `--now`: ISO 8601 (with or without fractional seconds) or epoch seconds.
    static func date(from text: String) -> Date? {
        if let seconds = Double(text) {
            // Seconds from 1970 to the end of year 9999: `nan`, `inf` or 1e19 would be no time a certificate knows.
            guard seconds.isFinite, (0...253_402_300_799).contains(seconds) else { return nil }
            return Date(timeIntervalSince1970: seconds)
        }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
