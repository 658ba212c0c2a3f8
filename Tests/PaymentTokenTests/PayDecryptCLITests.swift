import Foundation
import PaymentToken
import Testing
import TesseraTestSupport

/// `tessera pay decrypt` run as a subprocess.
@Suite("tessera pay decrypt", .vectorsPresent)
struct PayDecryptCLITests {
    static let gala = VectorSet.decryptable[1]
    static let payU = VectorSet.decryptable[2]

    func arguments(_ set: VectorSet, now: String?) -> [String] {
        var arguments = ["pay", "decrypt", "--token", set.path(set.tokenFile), "--merchant-key", set.path(set.keyFile ?? "")]
        if let certificateFile = set.certificateFile {
            arguments += ["--merchant-cert", set.path(certificateFile)]
        } else {
            arguments += ["--merchant-id", "merchant.sandbox.payu"]
        }
        arguments += ["--apple-root", VectorSet.appleRootPath]
        if let now { arguments += ["--now", now] }
        return arguments
    }

    @Test func decryptsAVectorSetAtItsSigningTime() async throws {
        let result = try await Subprocess.tessera(arguments(Self.gala, now: "2021-09-01T19:03:06Z"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? NSDictionary)
        let expected = try #require(try JSONSerialization.jsonObject(with: try Self.gala.expectedPlaintext()) as? NSDictionary)
        #expect(printed == expected)
        let keys = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { String($0.split(separator: "\"")[1]) }
        #expect(keys == keys.sorted() && keys.first == "applicationExpirationDate")
    }

    @Test func acceptsAMerchantIDAndEpochSeconds() async throws {
        let result = try await Subprocess.tessera(arguments(Self.payU, now: "1516974918"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"applicationPrimaryAccountNumber\" : \"5204242750270010\""))
    }

    @Test func failsAtTodaysDate() async throws {
        let result = try await Subprocess.tessera(arguments(Self.gala, now: nil))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: \(Self.gala.path("token.json")): signature: a signing certificate is not valid"))
    }

    @Test func failsWhenTheSigningTimeIsTooOld() async throws {
        let result = try await Subprocess.tessera(arguments(Self.gala, now: "2021-09-01T19:13:06Z"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("more than 300 seconds from the verification time"))
    }

    @Test func requiresAppleRootUnlessSignatureIsSkipped() async throws {
        var withoutRoot = arguments(Self.gala, now: nil)
        withoutRoot.removeSubrange(withoutRoot.firstIndex(of: "--apple-root")!...withoutRoot.firstIndex(of: "--apple-root")! + 1)
        let usage = try await Subprocess.tessera(withoutRoot)
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--apple-root is required"))

        let skipped = try await Subprocess.tessera(withoutRoot + ["--skip-signature"])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stderr.contains("warning: the signature was not verified"))
        #expect(skipped.stdout.contains("\"onlinePaymentCryptogram\" : \"AMwBRjPWDnAgAA7Rls7mAoABFA==\""))
    }

    @Test func otherUsageErrorsExit2() async throws {
        let noKey = try await Subprocess.tessera(["pay", "decrypt", "--token", "t.json", "--merchant-id", "m", "--skip-signature"])
        #expect(noKey.status == 2)
        let both = try await Subprocess.tessera(arguments(Self.gala, now: nil) + ["--merchant-id", "merchant.x"])
        #expect(both.status == 2)
        // Not times at all, as numbers: refused as usage, never a crash converting them.
        for now in ["yesterday", "nan", "inf", "-inf", "1e19", "-5"] {
            let badNow = try await Subprocess.tessera(arguments(Self.gala, now: now))
            #expect(badNow.status == 2, "\(now): \(badNow.status) \(badNow.stderr)")
            #expect(badNow.stderr.contains("--now"), "\(now)")
        }
    }

    @Test func rotatedKeysAndAGeneratedRSAToken() async throws {
        let work = try TemporaryDirectory.make(prefix: "pay-decrypt")
        let pki = try ApplePayTestPKI(rsaLeaf: true)
        let merchant = try TestMerchantIdentity(rsa: true)
        let files = try merchant.write(to: work)
        let key = try MerchantKey(contentsOf: files.key)
        var token = try PaymentTokenEncryptor(merchantKey: key, merchantIdentifier: MerchantIdentifier(merchantID: merchant.merchantID))
            .seal(try Self.gala.expectedPlaintext())
        // Verified at its signing time: on a busy machine the command can start minutes after the token was signed,
        // beyond the five minutes a signature is good for.
        let signedAt = Date()
        token.signature = try pki.signature(for: token.signedContent, at: signedAt)
        let tokenPath = work.appendingPathComponent("token.json").path
        try token.jsonData().write(to: URL(fileURLWithPath: tokenPath))

        let result = try await Subprocess.tessera([
            "pay", "decrypt", "--token", tokenPath, "--merchant-key", Self.gala.path("private_key.pem"),
            "--merchant-key", files.key, "--merchant-cert", files.certificate, "--apple-root", try pki.writeRoot(to: work),
            "--now", "\(Int(signedAt.timeIntervalSince1970))",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"applicationPrimaryAccountNumber\" : \"5353756319181169\""))

        let wrongKey = try await Subprocess.tessera([
            "pay", "decrypt", "--token", tokenPath, "--merchant-key", Self.gala.path("private_key.pem"),
            "--merchant-id", merchant.merchantID, "--skip-signature",
        ])
        #expect(wrongKey.status == 1)
        #expect(wrongKey.stderr.contains("header.publicKeyHash: no merchant key has the hash \(key.publicKeyHashBase64)"))

        // A merchant key or Apple root that cannot be read is named by its flag, not blamed on the token file.
        let missing = work.appendingPathComponent("nope.pem").path
        for (flag, arguments) in [
            ("--merchant-key", ["--merchant-key", missing, "--merchant-id", merchant.merchantID, "--skip-signature"]),
            ("--apple-root", ["--merchant-key", files.key, "--merchant-id", merchant.merchantID, "--apple-root", missing]),
            ("--merchant-cert", ["--merchant-key", files.key, "--merchant-cert", missing, "--skip-signature"]),
        ] {
            let refused = try await Subprocess.tessera(["pay", "decrypt", "--token", tokenPath] + arguments)
            #expect(refused.status == 1 && refused.stderr.contains("error: \(flag): ") && !refused.stderr.contains("token.json"),
                    "\(flag): \(refused.stderr)")
        }
    }
}
