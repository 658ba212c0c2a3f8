import ArgumentParser
import Foundation
import PaymentToken

/// Apple Pay tokens verified and decrypted per second on one core, next to `openssl speed ecdhp256` in the same run.
struct TokenBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Apple Pay tokens verified and decrypted per second (1 thread), next to openssl speed ecdhp256."
    )

    @Option(help: "The public token set folder (../shared/applepay-vectors/spreedly-gala-2023).")
    var vectors = "../shared/applepay-vectors/spreedly-gala-2023"

    @Option(help: "Apple Root CA - G3 (PEM).")
    var appleRoot = "../shared/applepay-vectors/apple-root-ca-g3/AppleRootCA-G3.pem"

    @Option(help: "The set's CMS signing time (UNIX seconds), used as now so the genuine signature verifies.")
    var signingTime: Double = 1_630_522_986

    @Option(help: "Seconds per measurement.")
    var seconds: Double = 5

    func run() throws {
        let folder = URL(fileURLWithPath: vectors)
        let tokenData = try Data(contentsOf: folder.appendingPathComponent("token.json"))
        let key = try MerchantKey(contentsOf: folder.appendingPathComponent("private_key.pem").path)
        let merchant = try MerchantIdentifier(certificateAt: folder.appendingPathComponent("certificate.pem").path)
        let verifier = PaymentTokenVerifier(configuration: try .init(appleRootPath: appleRoot))
        let decryptor = PaymentTokenDecryptor(merchantKeys: [key], merchantIdentifier: merchant)
        let now = Date(timeIntervalSince1970: signingTime)
        let token = try ApplePayPaymentToken(jsonData: tokenData)

        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; 1 thread; token set \(folder.lastPathComponent) (EC_v1)")
        let ecdh = try OpenSSLSpeed.ecdhP256PerSecond(seconds: max(1, Int(seconds)))
        let verified = try rate { _ = try verifier.verify(token, now: now) }
        let configuration = verifier.configuration
        let cold = try rate { _ = try PaymentTokenVerifier(configuration: configuration).verify(token, now: now) }
        let decrypted = try rate { _ = try decryptor.decrypt(token) }
        let both = try rate {
            let parsed = try ApplePayPaymentToken(jsonData: tokenData)
            _ = try verifier.verify(parsed, now: now)
            _ = try decryptor.decrypt(parsed)
        }
        print("")
        print("| operation | per second |")
        print("| --- | ---: |")
        print("| `openssl speed ecdhp256` (ECDH P-256 derivations) | \(Int(ecdh)) |")
        print("| signature verification (CMS, chain to Apple Root CA - G3, OIDs, signing time) | \(Int(verified)) |")
        print("| the same with a new verifier each time (chain checked in full, P-384 root signature) | \(Int(cold)) |")
        print("| decryption (ECDH P-256, KDF, AES-256-GCM, JSON) | \(Int(decrypted)) |")
        print("| JSON parse + verification + decryption | \(Int(both)) |")
        print(String(format: "\ndecryption = %.0f%% of openssl's ECDH rate; verify + decrypt = %.0f%%", decrypted / ecdh * 100, both / ecdh * 100))
    }

    private func rate(_ body: () throws -> Void) throws -> Double {
        for _ in 0..<50 { try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        var count = 0
        while DispatchTime.now().uptimeNanoseconds < deadline {
            try body()
            count += 1
        }
        return Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}

extension OpenSSLSpeed {
    /// Runs `openssl speed ecdhp256` on one process and reads its op/s.
    static func ecdhP256PerSecond(seconds: Int) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "speed", "-seconds", "\(seconds)", "ecdhp256"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // " 256 bits ecdh (nistp256)   0.0001s   9778.6"
        for line in output.split(separator: "\n") where line.contains("ecdh (nistp256)") {
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { return value }
        }
        throw ValidationError("could not read `openssl speed ecdhp256` output:\n\(output)")
    }
}
